import { sql, type SQL } from 'drizzle-orm';
import {
  bookingInstallments,
  enrollmentInstallments,
  enrollments,
  payments,
  refunds,
  treatmentBookings,
  users,
} from '../../db/schema';
import type { ServiceContext } from '../context';
import { AppError } from '../../errors';
import { fromMinor, toMinor } from '../../../shared/money';
import { branchScopeOf } from '../branch-scope';
import { isUuid } from '../ids';
import { todayIn } from '../enrollments/dates';
import type { TDashboardInput } from '@shared/schemas/payments';
import type { TDashboard } from '@shared/schemas/payments.output';
import { reusedRead } from '../read-cache';

/** A sum and a count per currency, as the contract has it. */
type CurrencyAmount = TDashboard['outstanding'][number];
type Overdue = TDashboard['mostOverdue'][number];

const rowsOf = <T>(r: unknown): T[] => (Array.isArray(r) ? (r as T[]) : ((r as { rows: T[] }).rows ?? []));

/**
 * Money at a glance (docs/payments.md#dashboard), for one branch or all: every figure is one SQL
 * aggregate over the ledger and the installments, reused for a few seconds (read-cache.ts). Typed
 * with its output contract, so a field one has and the other lacks fails the build.
 */
export async function dashboard(ctx: ServiceContext, input: TDashboardInput): Promise<TDashboard> {
  const scope = await branchScopeOf(ctx);
  const branchId = scope ? scope.branchId : (input.branchId ?? null);
  if (!scope && input.branchId && !isUuid(input.branchId)) throw new AppError('BAD_REQUEST', 'Branch is not valid.');
  // The key says what the figures cover: a limited manager without a branch gets the empty view,
  // and "today" and "overdue" turn over at midnight in TIME_ZONE, so the day is part of it too.
  const today = todayIn(ctx.deps.config.TIME_ZONE);
  const key = `${today}:${scope ? 'scoped' : 'all'}:${branchId ?? '-'}`;
  return reusedRead(ctx.deps, key, () => computeDashboard(ctx, scope !== null, branchId, today));
}

async function computeDashboard(
  ctx: ServiceContext,
  scoped: boolean,
  branchId: string | null,
  today: string,
): Promise<TDashboard> {
  const tz = ctx.deps.config.TIME_ZONE;
  // A limited manager without a branch sees nothing; "all branches" is only for those not limited.
  const none = scoped && branchId === null;
  const payBranch: SQL = none ? sql`false` : branchId ? sql`${payments.branchId} = ${branchId}` : sql`true`;
  const userBranch = (userId: SQL): SQL =>
    none
      ? sql`false`
      : branchId
        ? sql`${userId} in (select ${users.id} from ${users} where ${users.branchId} = ${branchId})`
        : sql`true`;
  const dayStart = (d: SQL | string) => sql`((${d})::date)::timestamp at time zone ${tz}`;
  const monthStart = sql`date_trunc('month', ${today}::date)`;

  const collected = async (from: SQL, to: SQL): Promise<CurrencyAmount[]> => {
    const r = await ctx.db.execute(sql`
      select ${payments.currency} as currency, sum(${payments.amount})::bigint as minor, count(*)::int as n
      from ${payments}
      where ${payments.status} = 'valid' and ${payBranch}
        and ${payments.receivedAt} >= ${from} and ${payments.receivedAt} < ${to}
      group by 1 order by 1`);
    return rowsOf<{ currency: string; minor: string | number; n: number }>(r).map((x): CurrencyAmount => ({
      currency: x.currency,
      amount: fromMinor(Number(x.minor)),
      count: Number(x.n),
    }));
  };

  /** Money given back in the window, by when it was refunded (docs/payments.md#refunds). */
  const refunded = async (from: SQL, to: SQL): Promise<CurrencyAmount[]> => {
    const refundBranch: SQL = none ? sql`false` : branchId ? sql`${refunds.branchId} = ${branchId}` : sql`true`;
    const r = await ctx.db.execute(sql`
      select ${refunds.currency} as currency, sum(${refunds.amount})::bigint as minor, count(*)::int as n
      from ${refunds}
      where ${refundBranch} and ${refunds.refundedAt} >= ${from} and ${refunds.refundedAt} < ${to}
      group by 1 order by 1`);
    return rowsOf<{ currency: string; minor: string | number; n: number }>(r).map((x): CurrencyAmount => ({
      currency: x.currency,
      amount: fromMinor(Number(x.minor)),
      count: Number(x.n),
    }));
  };
  /** Collected less refunded, per currency (in minor units, so the difference is exact). */
  const netOf = (inn: CurrencyAmount[], out: CurrencyAmount[]) =>
    [...new Set([...inn, ...out].map((c) => c.currency))].sort().map((currency) => ({
      currency,
      amount: fromMinor(
        toMinor(inn.find((c) => c.currency === currency)?.amount ?? 0) -
          toMinor(out.find((c) => c.currency === currency)?.amount ?? 0),
      ),
    }));

  // Unpaid parts of installments and admission fees of active records, with their due dates.
  const owed = sql`
    select e.currency, i.amount_minor - i.amount_paid_minor as minor, i.due_date, 'enrollment' as kind, e.id as record_id,
      e.user_id, coalesce(u.username, e.deleted_username) as payer, u.full_name as payer_full_name,
      coalesce(c.course_name, e.deleted_course_name) as subject
    from ${enrollmentInstallments} i join ${enrollments} e on e.id = i.enrollment_id
      left join ${users} u on u.id = e.user_id left join courses c on c.id = e.course_id
    where e.status = 'active' and i.amount_paid_minor < i.amount_minor and ${userBranch(sql`e.user_id`)}
    union all
    select e.currency, e.admission_fee_minor - e.admission_fee_paid_minor, e.enrolled_on, 'enrollment', e.id,
      e.user_id, coalesce(u.username, e.deleted_username), u.full_name, coalesce(c.course_name, e.deleted_course_name)
    from ${enrollments} e left join ${users} u on u.id = e.user_id left join courses c on c.id = e.course_id
    where e.status = 'active' and e.admission_fee_paid_minor < e.admission_fee_minor and ${userBranch(sql`e.user_id`)}
    union all
    select b.currency, i.amount_minor - i.amount_paid_minor, i.due_date, 'booking', b.id,
      b.user_id, coalesce(u.username, b.deleted_username), u.full_name, coalesce(t.treatment_name, b.treatment_name)
    from ${bookingInstallments} i join ${treatmentBookings} b on b.id = i.booking_id
      left join ${users} u on u.id = b.user_id left join treatments t on t.id = b.treatment_id
    where b.status = 'active' and i.amount_paid_minor < i.amount_minor and ${userBranch(sql`b.user_id`)}`;

  const todayWindow = [dayStart(today), sql`${dayStart(today)} + interval '1 day'`] as const;
  const monthWindow = [
    sql`(${monthStart})::timestamp at time zone ${tz}`,
    sql`${dayStart(today)} + interval '1 day'`,
  ] as const;
  const [todayRows, monthRows, owedRows, monthly, top, refundedToday, refundedThisMonth] = await Promise.all([
    collected(...todayWindow),
    collected(...monthWindow),
    ctx.db.execute(sql`
      select currency,
        sum(minor)::bigint as outstanding, count(*)::int as outstanding_n,
        coalesce(sum(minor) filter (where due_date < ${today}::date), 0)::bigint as overdue,
        count(*) filter (where due_date < ${today}::date)::int as overdue_n,
        coalesce(sum(minor) filter (where due_date >= ${today}::date and due_date < ${today}::date + 7), 0)::bigint as due7,
        count(*) filter (where due_date >= ${today}::date and due_date < ${today}::date + 7)::int as due7_n
      from (${owed}) o group by currency order by currency`),
    ctx.db.execute(sql`
      select to_char(${payments.receivedAt} at time zone ${tz}, 'YYYY-MM') as month, ${payments.currency} as currency,
        sum(${payments.amount})::bigint as minor
      from ${payments}
      where ${payments.status} = 'valid' and ${payBranch}
        and ${payments.receivedAt} >= ((${monthStart} - interval '11 months')::timestamp at time zone ${tz})
      group by 1, 2 order by 1, 2`),
    ctx.db.execute(sql`
      select kind, record_id, payer, payer_full_name, subject, currency, sum(minor)::bigint as overdue,
        min(due_date)::text as oldest
      from (${owed}) o where due_date < ${today}::date
      group by kind, record_id, payer, payer_full_name, subject, currency
      order by min(due_date), sum(minor) desc limit 5`),
    refunded(...todayWindow),
    refunded(...monthWindow),
  ]);

  type Owed = {
    currency: string;
    outstanding: string;
    outstanding_n: number;
    overdue: string;
    overdue_n: number;
    due7: string;
    due7_n: number;
  };
  const owedList = rowsOf<Owed>(owedRows);
  const months: string[] = [];
  for (let i = 11; i >= 0; i--) {
    const d = new Date(`${today.slice(0, 7)}-01T00:00:00Z`);
    d.setUTCMonth(d.getUTCMonth() - i);
    months.push(d.toISOString().slice(0, 7));
  }
  const monthlyRows = rowsOf<{ month: string; currency: string; minor: string }>(monthly);
  const currencies = [...new Set(monthlyRows.map((m) => m.currency))].sort();
  return {
    branchId,
    today,
    collectedToday: todayRows,
    collectedThisMonth: monthRows,
    refundedToday,
    refundedThisMonth,
    netToday: netOf(todayRows, refundedToday),
    netThisMonth: netOf(monthRows, refundedThisMonth),
    outstanding: owedList.map((o): CurrencyAmount => ({
      currency: o.currency,
      amount: fromMinor(Number(o.outstanding)),
      count: Number(o.outstanding_n),
    })),
    overdue: owedList.map((o): CurrencyAmount => ({
      currency: o.currency,
      amount: fromMinor(Number(o.overdue)),
      count: Number(o.overdue_n),
    })),
    dueNext7Days: owedList.map((o): CurrencyAmount => ({
      currency: o.currency,
      amount: fromMinor(Number(o.due7)),
      count: Number(o.due7_n),
    })),
    monthly: months.map((month): TDashboard['monthly'][number] => ({
      month,
      amounts: currencies.map((currency): TDashboard['monthly'][number]['amounts'][number] => ({
        currency,
        amount: fromMinor(Number(monthlyRows.find((m) => m.month === month && m.currency === currency)?.minor ?? 0)),
      })),
    })),
    mostOverdue: rowsOf<{
      kind: 'enrollment' | 'booking';
      record_id: string;
      payer: string | null;
      payer_full_name: string | null;
      subject: string | null;
      currency: string;
      overdue: string;
      oldest: string;
    }>(top).map((t): Overdue => ({
      kind: t.kind,
      id: t.record_id,
      payer: t.payer ?? 'Unknown',
      payerFullName: t.payer_full_name || null,
      subject: t.subject ?? 'Unknown',
      currency: t.currency,
      overdue: fromMinor(Number(t.overdue)),
      oldestDueDate: t.oldest,
    })),
  };
}
