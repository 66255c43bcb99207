import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  adjustmentItems,
  adjustments,
  bookingInstallments,
  courses,
  enrollmentInstallments,
  enrollments,
  payments,
  refunds,
  treatmentBookings,
} from '../../db/schema';

/**
 * The SQL of a person's statement (docs/users.md#statement), read from the tables the ledger keeps:
 * the admission fees and instalments of the person's enrolments and bookings are the charges,
 * the payments recorded against those records the payments, and a void gives a payment back.
 * A discount, scholarship or write-off is a line of its own that takes off the charge (which is
 * shown at what it was before the adjustments in force), a revoked one puts it back on the day it
 * was revoked, and a refund gives money back (docs/payments.md#adjustments, #refunds).
 * Every figure is summed in PostgreSQL, in minor units, so the totals equal the ledger's to the cent.
 */

/** A row as the driver answers it: bigint sums may come back as strings, so they are read with Number(). */
export interface LineRow {
  day: string;
  rank: number;
  what:
    | 'admission_fee'
    | 'enrollment_installment'
    | 'booking_installment'
    | 'payment'
    | 'void'
    | 'adjustment'
    | 'adjustment_revoked'
    | 'refund';
  currency: string;
  minor: string | number;
  running: string | number;
  subject: string;
  seq: number | null;
  of: string | number | null;
  plan: 'full' | 'installment' | null;
  method: string | null;
  reference: string | null;
  receipt: string | null;
  reason: string | null;
  cancelled: boolean | null;
}

export interface TotalRow {
  currency: string;
  before_n: string | number;
  opening: string | number;
  charged: string | number;
  paid: string | number;
  balance: string | number;
  upto_n: string | number;
  overdue: string | number;
}

export interface Bounds {
  from?: string;
  to?: string;
}

/** postgres.js answers an array, PGlite an object with `rows`. */
export const rowsOf = <T>(r: unknown): T[] => (Array.isArray(r) ? (r as T[]) : ((r as { rows?: T[] }).rows ?? []));

/**
 * Every line of the person's history, in statement order. `rank` puts charges (0) before payments
 * (1) and voids (2) on one day; then the record's creation, the admission fee before the
 * instalments (`sub`), the instalment number, and the row id, so the order never depends on chance.
 */
function linesOf(userId: string, tz: string): SQL {
  return sql`
    with taken as (
      -- What the adjustments in force took off each item: the charge is shown before them.
      select ai.kind, a.enrollment_id, ai.enrollment_installment_id, ai.booking_installment_id,
        sum(ai.before_minor - ai.after_minor) as minor
      from ${adjustmentItems} ai join ${adjustments} a on a.id = ai.adjustment_id
      where a.status = 'applied'
        and (a.enrollment_id in (select id from ${enrollments} where user_id = ${userId})
          or a.booking_id in (select id from ${treatmentBookings} where user_id = ${userId}))
      group by 1, 2, 3, 4
    ), e as (
      select en.id, en.currency,
        en.admission_fee_minor + coalesce((select t.minor from taken t
          where t.kind = 'admission_fee' and t.enrollment_id = en.id), 0) as admission_fee_minor,
        en.enrolled_on, en.payment_type, en.created_at,
        coalesce(c.course_name, en.deleted_course_name, 'Deleted course') as subject
      from ${enrollments} en left join ${courses} c on c.id = en.course_id
      where en.user_id = ${userId}
    ), b as (
      select id, currency, status, payment_type, created_at, treatment_name as subject
      from ${treatmentBookings} where user_id = ${userId}
    ), p as (
      select * from ${payments}
      where enrollment_id in (select id from e) or booking_id in (select id from b)
    ), adj as (
      -- A cancelled booking's charge is what was paid on it, so its adjustments are not lines.
      select a.*, coalesce(e.currency, b.currency) as cur
      from ${adjustments} a left join e on e.id = a.enrollment_id left join b on b.id = a.booking_id
      where a.status in ('applied', 'revoked') and a.applied_at is not null
        and (e.id is not null or (b.id is not null and b.status <> 'cancelled'))
    ), r as (
      select * from ${refunds}
      where enrollment_id in (select id from e) or booking_id in (select id from b)
    ), lines as (
      select e.enrolled_on as day, 0 as rank, e.created_at as at, -1 as sub, e.id as tie, e.currency,
        e.admission_fee_minor as minor, 'admission_fee' as what, e.subject, null::int as seq, null::bigint as of,
        null::text as plan, null::text as method, null::text as reference, null::text as receipt,
        null::text as reason, null::boolean as cancelled
      from e where e.admission_fee_minor > 0
      union all
      select i.due_date, 0, e.created_at, i.seq, i.id, e.currency, i.charge, 'enrollment_installment',
        e.subject, i.seq, i.of, e.payment_type, null, null, null, null, null
      from (select x.*, count(*) over (partition by x.enrollment_id) as of,
              x.amount_minor + coalesce((select t.minor from taken t where t.enrollment_installment_id = x.id), 0) as charge
            from ${enrollmentInstallments} x
            where x.enrollment_id in (select id from e)) i
        join e on e.id = i.enrollment_id
      where i.charge > 0
      union all
      -- A cancelled booking is owed no more: its instalments charge only what was paid on them.
      select i.due_date, 0, b.created_at, i.seq, i.id, b.currency,
        case when b.status = 'cancelled' then i.amount_paid_minor else i.charge end, 'booking_installment',
        b.subject, i.seq, i.of, b.payment_type, null, null, null, null, b.status = 'cancelled'
      from (select x.*, count(*) over (partition by x.booking_id) as of,
              x.amount_minor + coalesce((select t.minor from taken t where t.booking_installment_id = x.id), 0) as charge
            from ${bookingInstallments} x
            where x.booking_id in (select id from b)) i
        join b on b.id = i.booking_id
      where case when b.status = 'cancelled' then i.amount_paid_minor else i.charge end > 0
      union all
      select (p.received_at at time zone ${tz})::date, 1, p.received_at, 0, p.id, p.currency, -p.amount_minor,
        'payment', p.subject, null, null, null, p.method, p.reference, p.receipt_number, null, null
      from p
      union all
      select (coalesce(p.voided_at, p.received_at) at time zone ${tz})::date, 2, coalesce(p.voided_at, p.received_at),
        0, p.id, p.currency, p.amount_minor, 'void', p.subject, null, null, null, p.method, p.reference,
        p.receipt_number, p.void_reason, null
      from p where p.status = 'void'
      union all
      -- The kind travels in the method column and the scheme in the reference: lines share one shape.
      select (adj.applied_at at time zone ${tz})::date, 0, adj.applied_at, 1000, adj.id, adj.cur,
        -(select coalesce(sum(ai.before_minor - ai.after_minor), 0) from ${adjustmentItems} ai where ai.adjustment_id = adj.id),
        'adjustment', adj.subject, null, null, null, adj.kind, adj.scheme_name, null, adj.reason, null
      from adj
      union all
      select (adj.revoked_at at time zone ${tz})::date, 0, adj.revoked_at, 1000, adj.id, adj.cur,
        (select coalesce(sum(ai.before_minor - ai.after_minor), 0) from ${adjustmentItems} ai where ai.adjustment_id = adj.id),
        'adjustment_revoked', adj.subject, null, null, null, adj.kind, adj.scheme_name, null, adj.revoke_reason, null
      from adj where adj.status = 'revoked'
      union all
      select (r.refunded_at at time zone ${tz})::date, 2, r.refunded_at, 0, r.id, r.currency, r.amount_minor,
        'refund', r.subject, null, null, null, r.method, r.reference, r.credit_note_number, r.reason, null
      from r
    )`;
}

const ORDER = sql.raw('day, rank, at, sub, tie');

const inWindow = (b: Bounds): SQL =>
  sql`true${b.from ? sql` and day >= ${b.from}::date` : sql``}${b.to ? sql` and day <= ${b.to}::date` : sql``}`;

/** The lines of the period with their running balance per currency (which counts the lines before it). */
export async function readLines(db: Db, userId: string, tz: string, bounds: Bounds, limit: number) {
  const result = await db.execute(sql`
    ${linesOf(userId, tz)}
    select day::text as day, rank, what, currency, minor, running, subject, seq, of, plan, method, reference,
      receipt, reason, cancelled
    from (
      select *, sum(minor) over (partition by currency order by ${ORDER} rows between unbounded preceding and current row) as running
      from lines
    ) w
    where ${inWindow(bounds)}
    order by ${ORDER}
    limit ${limit}`);
  return rowsOf<LineRow>(result);
}

/**
 * Per currency: the balance brought forward, the period's charges and net payments, the closing
 * balance, and what is overdue today. Overdue is the dashboard's rule: the unpaid part of each
 * admission fee and instalment of an active record due before today.
 */
export async function readTotals(db: Db, userId: string, tz: string, bounds: Bounds, today: string) {
  const before = paren(bounds.from ? sql`day < ${bounds.from}::date` : sql`false`);
  const upTo = paren(bounds.to ? sql`day <= ${bounds.to}::date` : sql`true`);
  const window = inWindow(bounds);
  const result = await db.execute(sql`
    ${linesOf(userId, tz)}, owed as (
      select en.currency, en.admission_fee_minor - en.admission_fee_paid_minor as minor
      from ${enrollments} en
      where en.user_id = ${userId} and en.status = 'active' and en.admission_fee_paid_minor < en.admission_fee_minor
        and en.enrolled_on < ${today}::date
      union all
      select en.currency, i.amount_minor - i.amount_paid_minor
      from ${enrollmentInstallments} i join ${enrollments} en on en.id = i.enrollment_id
      where en.user_id = ${userId} and en.status = 'active' and i.amount_paid_minor < i.amount_minor
        and i.due_date < ${today}::date
      union all
      select bk.currency, i.amount_minor - i.amount_paid_minor
      from ${bookingInstallments} i join ${treatmentBookings} bk on bk.id = i.booking_id
      where bk.user_id = ${userId} and bk.status = 'active' and i.amount_paid_minor < i.amount_minor
        and i.due_date < ${today}::date
    ), sums as (
      select currency,
        count(*) filter (where ${before}) as before_n,
        coalesce(sum(minor) filter (where ${before}), 0) as opening,
        coalesce(sum(minor) filter (where rank = 0 and ${window}), 0) as charged,
        coalesce(-sum(minor) filter (where rank > 0 and ${window}), 0) as paid,
        coalesce(sum(minor) filter (where ${upTo}), 0) as balance,
        count(*) filter (where ${upTo}) as upto_n
      from lines group by currency
    ), overdue as (
      select currency, sum(minor) as overdue from owed group by currency
    )
    select coalesce(s.currency, o.currency) as currency, coalesce(s.before_n, 0) as before_n,
      coalesce(s.opening, 0) as opening, coalesce(s.charged, 0) as charged, coalesce(s.paid, 0) as paid,
      coalesce(s.balance, 0) as balance, coalesce(s.upto_n, 0) as upto_n, coalesce(o.overdue, 0) as overdue
    from sums s full join overdue o on o.currency = s.currency
    order by 1`);
  return rowsOf<TotalRow>(result);
}

/** A condition in parentheses, so it stays one inside `filter (where …)`. */
const paren = (cond: SQL): SQL => sql`(${cond})`;
