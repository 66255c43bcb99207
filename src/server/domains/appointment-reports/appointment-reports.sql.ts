import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';

/*
 * The appointments report's aggregates (docs/reports.md#appointments). Every figure is a GROUP BY
 * in PostgreSQL; the service only renames the columns. Days are days in TIME_ZONE: a day's
 * instants run from its midnight there to the next.
 */

/** What one report covers; the branch id is checked (uuid) and the manager's scope applied by the service. */
export interface AppointmentReportScope {
  from: string;
  to: string;
  timeZone: string;
  /** One branch, or every branch when null. */
  branchId: string | null;
  /** A limited manager without a branch: nothing at all. */
  none: boolean;
}

const rowsOf = <T>(r: unknown): T[] => (Array.isArray(r) ? (r as T[]) : ((r as { rows: T[] }).rows ?? []));

/** The range's first instant and the instant after its last day, in TIME_ZONE. */
const bounds = (s: AppointmentReportScope) => ({
  start: sql`(${s.from}::date::timestamp at time zone ${s.timeZone})`,
  end: sql`((${s.to}::date + 1)::timestamp at time zone ${s.timeZone})`,
});

const branchIs = (column: SQL, s: AppointmentReportScope): SQL =>
  s.none ? sql`false` : s.branchId ? sql`${column} = ${s.branchId}::uuid` : sql`true`;

/** Appointments that hold the practitioner's time (docs/appointments.md#status). */
const OCCUPYING = sql`('scheduled', 'confirmed', 'arrived', 'completed')`;

export interface UtilisationRow {
  practitionerId: string;
  practitionerName: string;
  branchId: string;
  branchName: string;
  bookedMinutes: number;
  workingMinutes: number;
  rate: number | null;
}

/**
 * Per practitioner and branch: working minutes are the weekly plan's periods laid on every day of
 * the range (ISO weekday 1 = Monday), skipping the branch's closure days and taking off the part
 * of each period that falls in the practitioner's time off; booked minutes are end − start of the
 * occupying appointments that start in the range. A pair with either figure is listed.
 */
export async function utilisation(db: Db, s: AppointmentReportScope): Promise<UtilisationRow[]> {
  const { start, end } = bounds(s);
  const result = await db.execute(sql`
    with days as (
      select d::date as day from generate_series(${s.from}::date, ${s.to}::date, interval '1 day') d
    ),
    periods as (
      select wp.practitioner_id, wp.branch_id, wp.id as period_id, days.day,
             (days.day + make_interval(mins => wp.start_minute))::timestamp at time zone ${s.timeZone} as p_start,
             (days.day + make_interval(mins => wp.end_minute))::timestamp at time zone ${s.timeZone} as p_end,
             wp.end_minute - wp.start_minute as minutes
      from working_periods wp
      join days on extract(isodow from days.day) = wp.weekday
      where ${branchIs(sql`wp.branch_id`, s)}
        and not exists (select 1 from branch_closures c where c.branch_id = wp.branch_id and c.day = days.day)
    ),
    away as (
      select p.period_id, p.day,
             sum(extract(epoch from least(p.p_end, t.end_at) - greatest(p.p_start, t.start_at)) / 60) as minutes
      from periods p
      join practitioner_time_off t
        on t.practitioner_id = p.practitioner_id and t.start_at < p.p_end and t.end_at > p.p_start
      group by p.period_id, p.day
    ),
    working as (
      select p.practitioner_id, p.branch_id,
             sum(greatest(p.minutes - coalesce(a.minutes, 0), 0)) as minutes
      from periods p
      left join away a on a.period_id = p.period_id and a.day = p.day
      group by p.practitioner_id, p.branch_id
    ),
    booked as (
      select ap.practitioner_id, ap.branch_id, sum(extract(epoch from ap.end_at - ap.start_at) / 60) as minutes
      from appointments ap
      where ap.start_at >= ${start} and ap.start_at < ${end}
        and ap.status in ${OCCUPYING}
        and ${branchIs(sql`ap.branch_id`, s)}
      group by ap.practitioner_id, ap.branch_id
    ),
    pairs as (
      select coalesce(w.practitioner_id, b.practitioner_id) as practitioner_id,
             coalesce(w.branch_id, b.branch_id) as branch_id,
             coalesce(w.minutes, 0) as working, coalesce(b.minutes, 0) as booked
      from working w
      full join booked b on b.practitioner_id = w.practitioner_id and b.branch_id = w.branch_id
    )
    select pr.id as "practitionerId", u.full_name as "practitionerName",
           br.id as "branchId", br.name as "branchName",
           round(pairs.booked)::int as "bookedMinutes", round(pairs.working)::int as "workingMinutes",
           case when pairs.working > 0 then round((pairs.booked / pairs.working)::numeric, 4)::float8 end as "rate"
    from pairs
    join practitioners pr on pr.id = pairs.practitioner_id
    join users u on u.id = pr.user_id
    join branches br on br.id = pairs.branch_id
    where pairs.working > 0 or pairs.booked > 0
    order by br.name, u.full_name, pr.id
  `);
  return rowsOf<UtilisationRow>(result);
}

export interface NoShowRow {
  id: string | null;
  name: string | null;
  appointments: number;
  noShows: number;
  rate: number;
}

/**
 * No-shows over the appointments whose outcome is known (arrived, completed, no-show) that start
 * in the range, per practitioner or per customer; the highest count first.
 */
export async function noShows(
  db: Db,
  s: AppointmentReportScope,
  by: 'practitioner' | 'customer',
): Promise<NoShowRow[]> {
  const { start, end } = bounds(s);
  const who =
    by === 'practitioner'
      ? {
          key: sql`ap.practitioner_id`,
          join: sql`join practitioners pr on pr.id = ap.practitioner_id join users u on u.id = pr.user_id`,
        }
      : { key: sql`ap.customer_id`, join: sql`left join users u on u.id = ap.customer_id` };
  const result = await db.execute(sql`
    select ${who.key} as "id", min(u.full_name) as "name",
           count(*)::int as "appointments",
           count(*) filter (where ap.status = 'no_show')::int as "noShows",
           round(count(*) filter (where ap.status = 'no_show')::numeric / count(*), 4)::float8 as "rate"
    from appointments ap
    ${who.join}
    where ap.start_at >= ${start} and ap.start_at < ${end}
      and ap.status in ('arrived', 'completed', 'no_show')
      and ${branchIs(sql`ap.branch_id`, s)}
    group by ${who.key}
    order by "noShows" desc, "rate" desc, "name", "id"
  `);
  return rowsOf<NoShowRow>(result);
}

export interface StatusDayRow {
  day: string;
  scheduled: number;
  confirmed: number;
  arrived: number;
  completed: number;
  cancelled: number;
  no_show: number;
}

/** Every day of the range (days without appointments too), with its appointments counted by status. */
export async function statusByDay(db: Db, s: AppointmentReportScope): Promise<StatusDayRow[]> {
  const { start, end } = bounds(s);
  const count = (status: string) => sql`count(ap.id) filter (where ap.status = ${status})::int`;
  const result = await db.execute(sql`
    with counted as (
      select (ap.start_at at time zone ${s.timeZone})::date as day, ap.id, ap.status
      from appointments ap
      where ap.start_at >= ${start} and ap.start_at < ${end} and ${branchIs(sql`ap.branch_id`, s)}
    )
    select to_char(d::date, 'YYYY-MM-DD') as "day",
           ${count('scheduled')} as "scheduled", ${count('confirmed')} as "confirmed",
           ${count('arrived')} as "arrived", ${count('completed')} as "completed",
           ${count('cancelled')} as "cancelled", ${count('no_show')} as "no_show"
    from generate_series(${s.from}::date, ${s.to}::date, interval '1 day') d
    left join counted ap on ap.day = d::date
    group by d
    order by d
  `);
  return rowsOf<StatusDayRow>(result);
}
