import { eq } from 'drizzle-orm';
import { branches, courses, treatments } from '../../db/schema';
import { AppError } from '../../errors';
import { todayIn } from '../../../shared/calendar';
import { formatDay } from '../../../shared/format';
import { fromMinor } from '../../../shared/money';
import { branchScopeOf } from '../branch-scope';
import type { ServiceContext } from '../context';
import { isUuid } from '../ids';
import { offsetOf } from '../paging';
import { agedRows, agedTotals, type AgedRow, type AgedTotal, type ReceivablesScope } from './receivables.sql';
import type {
  TAgeBuckets,
  TReceivableRow,
  TReceivables,
  TReceivablesFilters,
  TReceivablesInput,
} from '@shared/schemas/receivables';

/**
 * What a caller's receivables cover (docs/payments.md#receivables). A manager limited to a branch
 * (docs/security.md#branch-scope) always gets that branch, whatever branchId they send, as on the
 * money dashboard; ids that are not ids are refused with 400.
 */
export async function receivablesScope(ctx: ServiceContext, f: TReceivablesFilters): Promise<ReceivablesScope> {
  for (const [value, label] of [
    [f.branchId, 'Branch'],
    [f.courseId, 'Course'],
    [f.treatmentId, 'Treatment'],
  ] as const) {
    if (value !== undefined && !isUuid(value)) throw new AppError('BAD_REQUEST', `${label} is not valid.`);
  }
  const limit = await branchScopeOf(ctx);
  return {
    asOf: f.asOf ?? todayIn(ctx.deps.config.TIME_ZONE),
    branchId: limit ? limit.branchId : (f.branchId ?? null),
    none: limit !== null && limit.branchId === null,
    courseId: f.courseId,
    treatmentId: f.treatmentId,
  };
}

const buckets = (r: AgedRow | AgedTotal): TAgeBuckets => ({
  d1_30: fromMinor(r.d1_30),
  d31_60: fromMinor(r.d31_60),
  d61_90: fromMinor(r.d61_90),
  d90_plus: fromMinor(r.d90_plus),
});

/** A deleted person's records keep their username only; a name is always shown. */
export const personName = (r: AgedRow) => r.fullName ?? r.keptName ?? 'Unknown';

export function toReceivableRow(r: AgedRow): TReceivableRow {
  return {
    person: { _id: r.userId, fullName: personName(r), phone: r.phone },
    currency: r.currency,
    buckets: buckets(r),
    total: fromMinor(r.total),
    oldestDue: r.oldest,
  };
}

/** One page of people who owe past-due money, the most overdue first, and the totals of all of them. */
export async function listReceivables(ctx: ServiceContext, input: TReceivablesInput): Promise<TReceivables> {
  const s = await receivablesScope(ctx, input);
  const [rows, totals] = await Promise.all([
    agedRows(ctx.db, s, { limit: input.limit, offset: offsetOf(input.page, input.limit) }),
    agedTotals(ctx.db, s),
  ]);
  return {
    data: rows.map(toReceivableRow),
    totals: totals.map((t) => ({ currency: t.currency, buckets: buckets(t), total: fromMinor(t.total) })),
    asOf: s.asOf,
    total: totals.reduce((n, t) => n + t.rows, 0),
    page: input.page,
    limit: input.limit,
  };
}

/** The filters as the files print them, names looked up. */
export async function receivablesFilterLines(ctx: ServiceContext, s: ReceivablesScope): Promise<string[]> {
  const name = async <T>(lookup: () => Promise<T[]>, pick: (row: T) => string) => {
    const [row] = await lookup();
    return row ? pick(row) : 'Unknown';
  };
  const lines = [`As of: ${formatDay(s.asOf)}`];
  if (s.branchId) {
    const id = s.branchId;
    lines.push(
      `Branch: ${await name(
        () => ctx.db.select({ n: branches.name }).from(branches).where(eq(branches.id, id)).limit(1),
        (r) => r.n,
      )}`,
    );
  }
  if (s.courseId) {
    const id = s.courseId;
    lines.push(
      `Course: ${await name(
        () => ctx.db.select({ n: courses.courseName }).from(courses).where(eq(courses.id, id)).limit(1),
        (r) => r.n,
      )}`,
    );
  }
  if (s.treatmentId) {
    const id = s.treatmentId;
    lines.push(
      `Treatment: ${await name(
        () => ctx.db.select({ n: treatments.treatmentName }).from(treatments).where(eq(treatments.id, id)).limit(1),
        (r) => r.n,
      )}`,
    );
  }
  return lines;
}
