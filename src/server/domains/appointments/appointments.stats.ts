/**
 * The dashboard's appointment figures (docs/appointments.md#dashboard): today's appointments,
 * arrivals and no-shows, and the utilisation of the week (booked minutes ÷ working minutes), as
 * SQL aggregates so a branch with a year of appointments costs a couple of index scans.
 */
import { and, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { appointments } from '../../db/schema';
import { addToDate, todayIn } from '../../../shared/calendar';
import { OCCUPYING_STATUSES } from '@shared/schemas/appointments';
import type {
  TAppointmentFigures,
  TAppointmentFiguresInput,
  TCalendarClock,
} from '@shared/schemas/appointment-figures';
import type { ServiceContext } from '../context';
import { isUuid } from '../ids';
import { rowsOf } from '../statements/statement-lines';
import { appointmentScope, assertBranchAllowed } from './appointments.read';
import { instantAt, weekdayOfDay } from '../../../shared/zoned-time';

/** The zone the calendar reads its days in, so the screens draw the same hours the server checks. */
export function calendarClock(ctx: ServiceContext): TCalendarClock {
  const tz = ctx.deps.config.TIME_ZONE;
  return { timeZone: tz, today: todayIn(tz), slotStepMinutes: ctx.deps.config.SLOT_STEP_MINUTES };
}

export async function appointmentFigures(
  ctx: ServiceContext,
  input: TAppointmentFiguresInput,
): Promise<TAppointmentFigures> {
  const tz = ctx.deps.config.TIME_ZONE;
  const today = todayIn(tz);
  const monday = addToDate(today, { days: 1 - weekdayOfDay(today) });
  const sunday = addToDate(monday, { days: 6 });
  const zero: TAppointmentFigures = {
    day: today,
    weekFrom: monday,
    weekTo: sunday,
    today: { total: 0, arrived: 0, noShows: 0, cancelled: 0, completed: 0 },
    week: { bookedMinutes: 0, workingMinutes: 0, utilisation: null },
  };
  if (input.branchId) {
    await assertBranchAllowed(ctx, input.branchId);
    if (!isUuid(input.branchId)) return zero;
  }
  // The branch scope (docs/security.md#branch-scope): a limited manager counts their branch only.
  const scope = await appointmentScope(ctx);
  if (scope && !scope.branchId) return zero;
  const branchId = input.branchId ?? scope?.branchId ?? undefined;
  const atBranch: SQL | undefined = branchId ? eq(appointments.branchId, branchId) : undefined;

  const [day] = await ctx.db
    .select({
      // Cancelled ones are kept but are no longer part of the day's work.
      total: sql<number>`count(*) filter (where ${appointments.status} <> 'cancelled')::int`,
      // Checked in: arrived, or arrived and already completed.
      arrived: sql<number>`count(*) filter (where ${appointments.status} in ('arrived', 'completed'))::int`,
      completed: sql<number>`count(*) filter (where ${appointments.status} = 'completed')::int`,
      noShows: sql<number>`count(*) filter (where ${appointments.status} = 'no_show')::int`,
      cancelled: sql<number>`count(*) filter (where ${appointments.status} = 'cancelled')::int`,
    })
    .from(appointments)
    .where(
      and(
        atBranch,
        gte(appointments.startAt, instantAt(tz, today, 0)),
        lt(appointments.startAt, instantAt(tz, addToDate(today, { days: 1 }), 0)),
      ),
    );

  const [booked] = await ctx.db
    .select({
      minutes: sql<number>`coalesce(sum(extract(epoch from (${appointments.endAt} - ${appointments.startAt})) / 60), 0)::int`,
    })
    .from(appointments)
    .where(
      and(
        atBranch,
        inArray(appointments.status, [...OCCUPYING_STATUSES]),
        gte(appointments.startAt, instantAt(tz, monday, 0)),
        lt(appointments.startAt, instantAt(tz, addToDate(sunday, { days: 1 }), 0)),
      ),
    );

  // Each day of the week counts the active practitioners' periods of its weekday, except at a
  // branch closed that day. Time off is not taken away: the figure reads against the plan.
  const working = await ctx.db.execute(sql`
    select coalesce(sum(wp.end_minute - wp.start_minute), 0)::int as minutes
    from generate_series(${monday}::date, ${sunday}::date, interval '1 day') as d(day)
    join working_periods wp on wp.weekday = extract(isodow from d.day)
    join practitioners p on p.id = wp.practitioner_id and p.active
    join practitioner_branches pb on pb.practitioner_id = wp.practitioner_id and pb.branch_id = wp.branch_id
    where ${branchId ? sql`wp.branch_id = ${branchId}` : sql`true`}
      and not exists (
        select 1 from branch_closures c where c.branch_id = wp.branch_id and c.day = d.day::date
      )`);
  const workingMinutes = Number(rowsOf<{ minutes: number | string }>(working)[0]?.minutes ?? 0);
  const bookedMinutes = Number(booked?.minutes ?? 0);
  return {
    ...zero,
    today: day ?? zero.today,
    week: {
      bookedMinutes,
      workingMinutes,
      utilisation: workingMinutes > 0 ? Math.round((bookedMinutes / workingMinutes) * 1000) / 1000 : null,
    },
  };
}
