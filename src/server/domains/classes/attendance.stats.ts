/**
 * Attendance figures per enrolment (docs/classes.md#rates), in one statement for any number of
 * enrolments. The sessions an enrolment is counted over are the held sessions (scheduled and
 * started) of its current batch from the day it joined, plus every held session it has a mark on
 * (a batch it moved from keeps counting what was taken there).
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { AttendanceMark } from '@shared/schemas/classes';

export interface AttendanceFigures {
  rate: number | null;
  held: number;
  present: number;
  late: number;
  absent: number;
  excused: number;
  unmarked: number;
  /** Absent marks since the last present or late one (excused and unmarked sessions skipped). */
  absentInARow: number;
}

const rowsOf = <T>(r: unknown): T[] => (Array.isArray(r) ? (r as T[]) : ((r as { rows?: T[] }).rows ?? []));

/** (present + late) ÷ (present + late + absent) as a percentage with one decimal; null with none. */
export function rateOf(f: Pick<AttendanceFigures, 'present' | 'late' | 'absent'>): number | null {
  const counted = f.present + f.late + f.absent;
  return counted === 0 ? null : Math.round(((f.present + f.late) * 1000) / counted) / 10;
}

/** Days in TIME_ZONE, both included: the held sessions counted are those whose `day` is in it. */
export interface DayRange {
  from: string;
  to: string;
}

/**
 * The held sessions of the enrolments `members` selects, with their marks: those of the current
 * batch from the day each joined (with the mark, if any), then, apart, the marks on held sessions
 * outside that stretch (a batch moved from). The two parts never hold the same session, so they
 * are simply appended (UNION ALL: no pass to remove duplicates over every row). With `days`, only
 * the sessions of that range (the attendance report, docs/reports.md#attendance).
 */
function heldSessions(members: SQL, now: Date, days?: DayRange): SQL {
  const inRange = days ? sql`and cs.day between ${days.from}::date and ${days.to}::date` : sql``;
  return sql`
    m as (${members}),
    s as (
      select m.enrollment_id, cs.id as session_id, cs.start_at, a.status
        from m
        join class_sessions cs on cs.batch_id = m.batch_id and cs.day >= m.joined_on
        left join attendance_marks a on a.session_id = cs.id and a.enrollment_id = m.enrollment_id
       where cs.status = 'scheduled' and cs.start_at <= ${now.toISOString()}::timestamptz ${inRange}
      union all
      select a.enrollment_id, cs.id, cs.start_at, a.status
        from m
        join attendance_marks a on a.enrollment_id = m.enrollment_id
        join class_sessions cs on cs.id = a.session_id
       where cs.status = 'scheduled' and cs.start_at <= ${now.toISOString()}::timestamptz ${inRange}
         and (cs.batch_id is distinct from m.batch_id or cs.day < m.joined_on)
    )`;
}

/** Every given enrolment with the batch it sits in (none for one outside any batch). */
const enrolmentsWithPlace = (ids: string[]) => sql`
  select e.id as enrollment_id, bm.batch_id, bm.joined_on
    from enrollments e
    left join batch_members bm on bm.enrollment_id = e.id and bm.status = 'member'
   where e.id in (${sql.join(
     ids.map((id) => sql`${id}::uuid`),
     sql`, `,
   )})`;

async function figures(db: Db, members: SQL, now: Date, days?: DayRange): Promise<Map<string, AttendanceFigures>> {
  const result = await db.execute(sql`
    with ${heldSessions(members, now, days)},
    -- Each row beside its enrolment's last present or late session: one pass, then one count.
    f as (
      select s.*, max(s.start_at) filter (where s.status in ('present', 'late'))
                    over (partition by s.enrollment_id) as last_attended
        from s
    )
    select f.enrollment_id::text as "enrollmentId",
           count(*)::int as held,
           count(*) filter (where f.status = 'present')::int as present,
           count(*) filter (where f.status = 'late')::int as late,
           count(*) filter (where f.status = 'absent')::int as absent,
           count(*) filter (where f.status = 'excused')::int as excused,
           count(*) filter (where f.status is null)::int as unmarked,
           count(*) filter (where f.status = 'absent' and f.start_at > coalesce(f.last_attended, '-infinity'))::int as "absentInARow"
      from f
     group by f.enrollment_id`);
  const out = new Map<string, AttendanceFigures>();
  for (const r of rowsOf<Record<string, string | number>>(result)) {
    const f = {
      held: Number(r.held),
      present: Number(r.present),
      late: Number(r.late),
      absent: Number(r.absent),
      excused: Number(r.excused),
      unmarked: Number(r.unmarked),
      absentInARow: Number(r.absentInARow),
    };
    out.set(String(r.enrollmentId), { ...f, rate: rateOf(f) });
  }
  return out;
}

export const NO_FIGURES: AttendanceFigures = {
  rate: null,
  held: 0,
  present: 0,
  late: 0,
  absent: 0,
  excused: 0,
  unmarked: 0,
  absentInARow: 0,
};

/** The figures of the given enrolments; one with no held session is absent from the map. */
export async function attendanceStats(
  db: Db,
  ids: string[],
  now = new Date(),
): Promise<Map<string, AttendanceFigures>> {
  if (!ids.length) return new Map();
  return figures(db, enrolmentsWithPlace(ids), now);
}

/**
 * The figures of the roster places `members` selects (enrollment_id, batch_id, joined_on), over
 * every held session, or over those of the range `days`.
 */
export function attendanceStatsOf(db: Db, members: SQL, now = new Date(), days?: DayRange) {
  return figures(db, members, now, days);
}

/** One enrolment's held sessions, in start order, with its mark on each. */
export async function heldSessionsOf(
  db: Db,
  enrollmentId: string,
  now = new Date(),
): Promise<Array<{ sessionId: string; start: string; status: AttendanceMark | null }>> {
  const result = await db.execute(sql`
    with ${heldSessions(enrolmentsWithPlace([enrollmentId]), now)}
    select session_id::text as "sessionId",
           to_char(start_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as start,
           status
      from s order by start_at, session_id`);
  return rowsOf<{ sessionId: string; start: string; status: AttendanceMark | null }>(result).map((r) => ({
    sessionId: String(r.sessionId),
    start: String(r.start),
    status: r.status ?? null,
  }));
}
