import { z } from 'zod';
import { restPageFields, zOptionalDay, zOptionalText } from '@shared/schemas/primitives';
import { zDayOut } from '@shared/schemas/output';

/*
 * The receivables report (docs/payments.md#receivables): who owes money that is past due, aged in
 * buckets of days past due, per currency. The same filters serve the JSON page and the files.
 */

export const ZReceivablesFilters = z.object({
  branchId: zOptionalText('Branch', 200),
  /** The day the ages are counted at; today in TIME_ZONE when absent. */
  asOf: zOptionalDay('As of'),
  courseId: zOptionalText('Course', 200),
  treatmentId: zOptionalText('Treatment', 200),
});
export type TReceivablesFilters = z.infer<typeof ZReceivablesFilters>;

/** GET /api/reports/receivables and the tRPC query: the filters and a page of people. */
export const ZReceivablesInput = ZReceivablesFilters.extend(restPageFields);
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
