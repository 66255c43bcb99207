import { z } from 'zod';
import { blankToUndefined, parseDay, zOptionalText, zText } from '@shared/schemas/primitives';
import { zDayOut } from '@shared/schemas/output';

/*
 * The receivables report (docs/payments.md#receivables): who owes money that is past due, aged in
 * buckets of days past due, per currency. The same filters serve the JSON page and the files.
 */

const zDay = (label: string) =>
  z.preprocess(
    blankToUndefined,
    zText(label)
      .refine((s) => parseDay(s) !== null, `${label} must be a date (YYYY-MM-DD) between 1900 and 2100.`)
      .optional(),
  );

export const ZReceivablesFilters = z.object({
  branchId: zOptionalText('Branch', 200),
  /** The day the ages are counted at; today in TIME_ZONE when absent. */
  asOf: zDay('As of'),
  courseId: zOptionalText('Course', 200),
  treatmentId: zOptionalText('Treatment', 200),
});
export type TReceivablesFilters = z.infer<typeof ZReceivablesFilters>;

const pageFields = {
  page: z.coerce
    .number({ error: 'page must be a whole number.' })
    .int('page must be a whole number.')
    .min(1, 'page must be at least 1.')
    .max(100_000, 'page must be at most 100000.')
    .default(1),
  limit: z.coerce
    .number({ error: 'limit must be a whole number.' })
    .int('limit must be a whole number.')
    .min(1, 'limit must be between 1 and 200.')
    .max(200, 'limit must be between 1 and 200.')
    .default(50),
};

/** GET /api/reports/receivables and the tRPC query: the filters and a page of people. */
export const ZReceivablesInput = ZReceivablesFilters.extend(pageFields);
export type TReceivablesInput = z.infer<typeof ZReceivablesInput>;

const money = z.number();
export const ZAgeBuckets = z.object({ d1_30: money, d31_60: money, d61_90: money, d90_plus: money });
export type TAgeBuckets = z.infer<typeof ZAgeBuckets>;

export const ZReceivableRow = z.object({
  person: z.object({
    /** Null for a person whose account was deleted: the record keeps their name only. */
    _id: z.string().nullable(),
    fullName: z.string(),
    phone: z.string().nullable(),
  }),
  currency: z.string(),
  buckets: ZAgeBuckets,
  total: money,
  oldestDue: zDayOut,
});
export type TReceivableRow = z.infer<typeof ZReceivableRow>;

export const ZReceivablesTotal = z.object({ currency: z.string(), buckets: ZAgeBuckets, total: money });

export const ZReceivables = z.object({
  data: z.array(ZReceivableRow),
  totals: z.array(ZReceivablesTotal),
  asOf: zDayOut,
  /** How many person-and-currency rows there are in all, and this page. */
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
export type TReceivables = z.infer<typeof ZReceivables>;
