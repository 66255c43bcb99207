import { z } from 'zod';
import { zIntOut, zMoneyOut, zPageOf, zRecordOut } from '@shared/schemas/output';

/** docs/product.md#records-and-their-fields Treatment; money as decimal numbers. */
export const ZTreatment = zRecordOut({
  treatmentName: z.string(),
  localPrice: zMoneyOut,
  foreignPrice: zMoneyOut,
  maxSessions: zIntOut,
  installments: zIntOut,
  duration: z.object({ weeks: zIntOut, days: zIntOut, months: zIntOut }),
  category: z.string().nullable(),
  description: z.string().nullable(),
  /** One session's length and the time kept free after it, in minutes (docs/appointments.md#resources). */
  sessionMinutes: zIntOut,
  bufferMinutes: zIntOut,
  requiresRoom: z.boolean(),
});
export type TTreatment = z.infer<typeof ZTreatment>;

export const ZTreatmentPage = zPageOf(ZTreatment);
export const ZTreatmentList = z.array(ZTreatment);
