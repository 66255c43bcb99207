import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { bookingInstallments, enrollmentInstallments, enrollments, treatmentBookings, users } from '../../db/schema';

/*
 * The receivables aggregate (docs/payments.md#receivables). What counts as owed is exactly what the
 * money dashboard counts: the unpaid part of every instalment and admission fee of an active
 * enrolment or booking, an admission fee being due on the enrolment day. Overdue means due before
 * the "as of" day, so with today as that day the totals are the dashboard's overdue figure.
 */

/** What one receivables query covers; ids are checked (uuids) by the service. */
export interface ReceivablesScope {
  asOf: string;
  /** One branch's people, or every branch's when null. */
  branchId: string | null;
  /** A limited manager without a branch: nothing at all. */
  none?: boolean;
  courseId?: string;
  treatmentId?: string;
}

/** What is overdue in one currency, by how long past due. */
interface AgedAmounts {
  currency: string;
  d1_30: number;
  d31_60: number;
  d61_90: number;
  d90_plus: number;
  total: number;
}

export interface AgedRow extends AgedAmounts {
  userId: string | null;
  keptName: string | null;
  fullName: string | null;
  phone: string | null;
  oldest: string;
  /** The walk's sort key: the person's id, or the kept name of a deleted one. */
  personKey: string;
}

export interface AgedTotal extends AgedAmounts {
  rows: number;
}

const rowsOf = <T>(r: unknown): T[] => (Array.isArray(r) ? (r as T[]) : ((r as { rows: T[] }).rows ?? []));

/**
 * Unpaid, past-due parts with their owner: a course filter keeps enrolments only, a treatment one
 * bookings only (both: either). Every part names its columns, as any of them may come first.
 */
function overdueParts(s: ReceivablesScope): SQL {
  const asOf = sql`${s.asOf}::date`;
  const wantEnrolments = s.treatmentId === undefined || s.courseId !== undefined;
  const wantBookings = s.courseId === undefined || s.treatmentId !== undefined;
  const course = s.courseId ? sql`and e.course_id = ${s.courseId}` : sql``;
  const treatment = s.treatmentId ? sql`and b.treatment_id = ${s.treatmentId}` : sql``;
  const parts: SQL[] = [];
  if (wantEnrolments) {
    parts.push(sql`
      select e.user_id, case when e.user_id is null then e.deleted_username end as kept_name, e.currency,
        i.amount_minor - i.amount_paid_minor as minor, i.due_date
      from ${enrollmentInstallments} i join ${enrollments} e on e.id = i.enrollment_id
      where e.status = 'active' and i.amount_paid_minor < i.amount_minor and i.due_date < ${asOf} ${course}`);
    parts.push(sql`
      select e.user_id, case when e.user_id is null then e.deleted_username end as kept_name, e.currency,
        e.admission_fee_minor - e.admission_fee_paid_minor as minor, e.enrolled_on as due_date
      from ${enrollments} e
      where e.status = 'active' and e.admission_fee_paid_minor < e.admission_fee_minor
        and e.enrolled_on < ${asOf} ${course}`);
  }
  if (wantBookings) {
    parts.push(sql`
      select b.user_id, case when b.user_id is null then b.deleted_username end as kept_name, b.currency,
        i.amount_minor - i.amount_paid_minor as minor, i.due_date
      from ${bookingInstallments} i join ${treatmentBookings} b on b.id = i.booking_id
      where b.status = 'active' and i.amount_paid_minor < i.amount_minor and i.due_date < ${asOf} ${treatment}`);
  }
  const branch = s.none
    ? sql`where false`
    : s.branchId
      ? sql`where o.user_id in (select ${users.id} from ${users} where ${users.branchId} = ${s.branchId})`
      : sql``;
  return sql`select o.* from (${sql.join(parts, sql` union all `)}) o ${branch}`;
}

/** One row per person and currency, the amounts split by days past due (FILTER per bucket). */
function aged(s: ReceivablesScope): SQL {
  const age = sql`(${s.asOf}::date - o.due_date)`;
  const bucket = (cond: SQL) => sql`coalesce(sum(o.minor) filter (where ${cond}), 0)::bigint`;
  return sql`
    select o.user_id, o.kept_name, o.currency,
      coalesce(o.user_id::text, '~' || coalesce(o.kept_name, '')) as person_key,
      ${bucket(sql`${age} between 1 and 30`)} as d1_30,
      ${bucket(sql`${age} between 31 and 60`)} as d31_60,
      ${bucket(sql`${age} between 61 and 90`)} as d61_90,
      ${bucket(sql`${age} > 90`)} as d90_plus,
      sum(o.minor)::bigint as total, min(o.due_date) as oldest
    from (${overdueParts(s)}) o
    group by o.user_id, o.kept_name, o.currency`;
}

type RawRow = Record<keyof AgedRow, string | number | null>;
const toAged = (r: RawRow): AgedRow => ({
  userId: r.userId as string | null,
  keptName: r.keptName as string | null,
  fullName: r.fullName as string | null,
  phone: r.phone as string | null,
  currency: String(r.currency),
  d1_30: Number(r.d1_30),
  d31_60: Number(r.d31_60),
  d61_90: Number(r.d61_90),
  d90_plus: Number(r.d90_plus),
  total: Number(r.total),
  oldest: String(r.oldest),
  personKey: String(r.personKey),
});

/** Where a walk of the rows stands: the last row's (oldest due, person, currency). */
export interface AgedCursor {
  oldest: string;
  personKey: string;
  currency: string;
}

/**
 * Rows in (oldest due, person, currency) order: the most overdue first. `offset` pages the JSON
 * answer; `after` walks the whole list for the files.
 */
export async function agedRows(
  db: Db,
  s: ReceivablesScope,
  page: { limit: number; offset?: number; after?: AgedCursor | null },
): Promise<AgedRow[]> {
  const after = page.after
    ? sql`where (g.oldest, g.person_key, g.currency) > (${page.after.oldest}::date, ${page.after.personKey}, ${page.after.currency})`
    : sql``;
  const r = await db.execute(sql`
    select g.user_id as "userId", g.kept_name as "keptName", u.full_name as "fullName", u.phone,
      g.currency, g.d1_30, g.d31_60, g.d61_90, g.d90_plus, g.total, g.oldest::text as oldest,
      g.person_key as "personKey"
    from (${aged(s)}) g left join ${users} u on u.id = g.user_id
    ${after}
    order by g.oldest, g.person_key, g.currency
    limit ${page.limit} offset ${page.offset ?? 0}`);
  return rowsOf<RawRow>(r).map(toAged);
}

/** The buckets summed per currency, and how many person-and-currency rows each has. */
export async function agedTotals(db: Db, s: ReceivablesScope): Promise<AgedTotal[]> {
  const r = await db.execute(sql`
    select g.currency, sum(g.d1_30)::bigint as d1_30, sum(g.d31_60)::bigint as d31_60,
      sum(g.d61_90)::bigint as d61_90, sum(g.d90_plus)::bigint as d90_plus,
      sum(g.total)::bigint as total, count(*)::int as rows
    from (${aged(s)}) g group by g.currency order by g.currency`);
  return rowsOf<Record<keyof AgedTotal, string | number>>(r).map((t) => ({
    currency: String(t.currency),
    d1_30: Number(t.d1_30),
    d31_60: Number(t.d31_60),
    d61_90: Number(t.d61_90),
    d90_plus: Number(t.d90_plus),
    total: Number(t.total),
    rows: Number(t.rows),
  }));
}
