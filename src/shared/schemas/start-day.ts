import { z } from 'zod';
import { blankToUndefined, parseDay, zText } from '@shared/schemas/primitives';

/**
 * The optional day an enrolment or booking started (`enrolledOn`, `bookedOn`), for a student who
 * joined before the product was in use. Only its form is checked here; who may send it and how far
 * back it may go are the service's rules (src/server/domains/start-day.ts).
 */
export const zStartDay = (label: string) =>
  z.preprocess(
    blankToUndefined,
    zText(label)
      .trim()
      .refine((s) => parseDay(s) !== null, `${label} must be a date (YYYY-MM-DD).`)
      .optional(),
  );
