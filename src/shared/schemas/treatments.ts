import { z } from 'zod';
import { zId, zText } from '@shared/schemas/primitives';
import { hasAtMostTwoDecimals } from '@shared/money';
import { ZPageInput, zSortBy } from '@shared/pagination';

export const CREATE_REQUIRED = 'Please fill all the required fields.';
export const UPDATE_REQUIRED = 'Please fill all required fields';
export const NUMERIC = 'All numeric fields must contain valid numbers';
export const BOUNDS = 'Prices must be positive and sessions/installments must be greater than zero';
export const DUPLICATE_TREATMENT = 'A treatment with this name already exists';
export const SESSION_MINUTES = 'Session length must be a whole number of minutes from 5 to 720.';
export const BUFFER_MINUTES = 'Buffer must be a whole number of minutes from 0 to 240.';
/** What a treatment created without timing gets. */
export const TIMING_DEFAULTS = { sessionMinutes: 60, bufferMinutes: 0, requiresRoom: false } as const;

// Forms send numbers, older callers numeric strings; both are read the same way.
const numberLike = z.union([z.number(), z.string()], { error: NUMERIC }).nullish();
const durationPart = z.union([z.number(), z.string()], { error: NUMERIC }).nullish();

const ZTreatmentFields = z.object({
  treatmentName: zText('Treatment name', { message: CREATE_REQUIRED }).nullish(),
  localPrice: numberLike,
  foreignPrice: numberLike,
  maxSessions: numberLike,
  installments: numberLike,
  duration: z
    .object({ weeks: durationPart, days: durationPart, months: durationPart }, { error: NUMERIC })
    .partial()
    .nullish(),
  // The calendar's timing (docs/appointments.md#resources): left out, a create takes the defaults
  // and an update keeps what the treatment has.
  sessionMinutes: z
    .number({ error: SESSION_MINUTES })
    .int(SESSION_MINUTES)
    .min(5, SESSION_MINUTES)
    .max(720, SESSION_MINUTES)
    .optional(),
  bufferMinutes: z
    .number({ error: BUFFER_MINUTES })
    .int(BUFFER_MINUTES)
    .min(0, BUFFER_MINUTES)
    .max(240, BUFFER_MINUTES)
    .optional(),
  requiresRoom: z.boolean({ error: 'Requires room must be true or false.' }).optional(),
});

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
const toNumber = (v: unknown) => (typeof v === 'number' ? v : Number(String(v).trim()));

export interface TreatmentValues {
  treatmentName: string;
  localPrice: number;
  foreignPrice: number;
  maxSessions: number;
  installments: number;
  duration: { weeks: number; days: number; months: number };
  sessionMinutes?: number;
  bufferMinutes?: number;
  requiresRoom?: boolean;
}

/**
 * The checks run in the order the screens run them (docs/product.md#validation), across all fields, so the
 * first message a caller sees is the same one the form would show: required, numeric, bounds.
 */
function treatmentValues(requiredMessage: string) {
  return (raw: z.infer<typeof ZTreatmentFields>, ctx: z.RefinementCtx): TreatmentValues => {
    const fail = (message: string, path: string[] = []) => {
      ctx.addIssue({ code: 'custom', message, path });
      return z.NEVER;
    };
    const required = ['treatmentName', 'localPrice', 'foreignPrice', 'maxSessions', 'installments'] as const;
    for (const key of required) if (isBlank(raw[key])) return fail(requiredMessage, [key]);
    const numbers = {
      localPrice: raw.localPrice,
      foreignPrice: raw.foreignPrice,
      maxSessions: raw.maxSessions,
      installments: raw.installments,
    };
    const n = Object.fromEntries(Object.entries(numbers).map(([k, v]) => [k, toNumber(v)])) as Record<
      keyof typeof numbers,
      number
    >;
    for (const [key, v] of Object.entries(n)) if (!Number.isFinite(v)) return fail(NUMERIC, [key]);
    const d = { weeks: raw.duration?.weeks, days: raw.duration?.days, months: raw.duration?.months };
    const dur = { weeks: 0, days: 0, months: 0 };
    for (const key of ['weeks', 'days', 'months'] as const) {
      if (isBlank(d[key])) continue;
      const v = toNumber(d[key]);
      if (!Number.isFinite(v)) return fail(NUMERIC, ['duration', key]);
      if (v < 0) return fail('Duration cannot be negative.', ['duration', key]);
      if (!Number.isInteger(v)) return fail('Duration must be whole weeks, days and months.', ['duration', key]);
      if (v > 1000) return fail('Duration parts must be at most 1000.', ['duration', key]);
      dur[key] = v;
    }
    if (n.localPrice < 0 || n.foreignPrice < 0 || n.maxSessions <= 0 || n.installments <= 0) return fail(BOUNDS);
    if (!hasAtMostTwoDecimals(n.localPrice) || !hasAtMostTwoDecimals(n.foreignPrice))
      return fail('Prices can have at most 2 decimals.');
    if (n.localPrice > 1_000_000_000 || n.foreignPrice > 1_000_000_000)
      return fail('Prices must be at most 1,000,000,000.');
    if (!Number.isInteger(n.maxSessions) || !Number.isInteger(n.installments))
      return fail('Sessions and installments must be whole numbers.');
    if (n.maxSessions > 1000) return fail('Max sessions must be at most 1000.', ['maxSessions']);
    if (n.installments > 120) return fail('Installments must be at most 120.', ['installments']);
    const treatmentName = String(raw.treatmentName).trim();
    if (treatmentName.length > 200) return fail('Treatment name must be at most 200 characters.', ['treatmentName']);
    const timing = {
      ...(raw.sessionMinutes !== undefined ? { sessionMinutes: raw.sessionMinutes } : {}),
      ...(raw.bufferMinutes !== undefined ? { bufferMinutes: raw.bufferMinutes } : {}),
      ...(raw.requiresRoom !== undefined ? { requiresRoom: raw.requiresRoom } : {}),
    };
    return { treatmentName, ...n, duration: dur, ...timing };
  };
}

/** A treatment's fields read with those checks; create and edit word the missing-field message differently. */
export const zTreatmentValues = (requiredMessage: string) =>
  ZTreatmentFields.transform(treatmentValues(requiredMessage));

export const ZCreateTreatmentInput = zTreatmentValues(CREATE_REQUIRED);
export type TCreateTreatmentInput = z.infer<typeof ZCreateTreatmentInput>;

/** The REST body of PUT /api/treatments/{treatmentId} (the id comes from the path). */
export const ZUpdateTreatmentBody = zTreatmentValues(UPDATE_REQUIRED);

export const ZUpdateTreatmentInput = ZTreatmentFields.extend({ id: zId('Treatment') }).transform((raw, ctx) => {
  const values = treatmentValues(UPDATE_REQUIRED)(raw, ctx);
  return { ...values, id: raw.id };
});
export type TUpdateTreatmentInput = z.infer<typeof ZUpdateTreatmentInput>;

/** The columns the list sorts by (its sortable headers). */
export const TREATMENT_SORT_COLUMNS = [
  'treatmentName',
  'localPrice',
  'foreignPrice',
  'maxSessions',
  'createdAt',
] as const;

export const ZListTreatmentsInput = ZPageInput.extend({
  sortBy: zSortBy(TREATMENT_SORT_COLUMNS, 'createdAt'),
});
export type TListTreatmentsInput = z.infer<typeof ZListTreatmentsInput>;

export const ZTreatmentIdInput = z.object({ id: zId('Treatment') });
export const ZTreatmentIdParam = z.object({ treatmentId: zId('Treatment') });
