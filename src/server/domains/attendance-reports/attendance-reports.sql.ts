import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';

/*
 * The attendance report's aggregates (docs/reports.md#attendance). A session belongs to the range
 * by its `day` (its date in TIME_ZONE); it is held when scheduled and started. Every figure is a
 * GROUP BY in PostgreSQL; the service names the columns and works out the rates.
 */

/** What one report covers; the ids are checked (uuid) and the manager's scope applied by the service. */
export interface AttendanceReportScope {
  from: string;
  to: string;
  /** One branch, or every branch when null. */
  branchId: string | null;
  /** One batch, or every batch (of the branch) when null. */
  batchId: string | null;
  /** A limited manager without a branch: nothing at all. */
  none: boolean;
  /** Sessions that started by then are held. */
  now: Date;
}

const rowsOf = <T>(r: unknown): T[] => (Array.isArray(r) ? (r as T[]) : ((r as { rows: T[] }).rows ?? []));

/**
 * The batches a report covers: of the branch and batch asked, whose dates meet the range or that
 * have a session in it (a session moved past the batch's end, say).
 */
function batchesInScope(s: AttendanceReportScope): SQL {
  const branch = s.none ? sql`false` : s.branchId ? sql`b.branch_id = ${s.branchId}::uuid` : sql`true`;
  const batch = s.batchId ? sql`b.id = ${s.batchId}::uuid` : sql`true`;
  return sql`
    select b.id, b.name, b.status, b.branch_id
      from batches b
     where ${branch} and ${batch}
       and ((b.start_date <= ${s.to}::date and b.end_date >= ${s.from}::date)
            or exists (select 1 from class_sessions x
                        where x.batch_id = b.id and x.day between ${s.from}::date and ${s.to}::date))`;
}

export interface BatchFiguresRow {
  batchId: string;
  batchName: string;
  batchStatus: 'open' | 'closed';
  branchId: string;
  branchName: string;
  sessions: number;
  held: number;
  cancelled: number;
  upcoming: number;
  present: number;
  late: number;
  absent: number;
  excused: number;
  unmarked: number;
}

/**
 * Per batch: its sessions in the range by state, and the marks at the held ones. A held session's
 * roster is the batch's students who joined on or before its day, and anyone marked on it
 * (docs/classes.md#attendance); its unmarked places are those roster places without a mark, so
 * unmarked = (students joined by each held session's day, summed) − (their marks there). The
 * students are counted per joining day, so no session × student rows are made.
 */
export async function batchFigures(db: Db, s: AttendanceReportScope): Promise<BatchFiguresRow[]> {
  const now = s.now.toISOString();
  const count = (status: string) => sql`count(*) filter (where a.status = ${status})::int`;
  const result = await db.execute(sql`
    with bs as (${batchesInScope(s)}),
    rs as (
      select cs.id, cs.batch_id, cs.day, cs.status,
             (cs.status = 'scheduled' and cs.start_at <= ${now}::timestamptz) as held
        from class_sessions cs
        join bs on bs.id = cs.batch_id
       where cs.day between ${s.from}::date and ${s.to}::date
    ),
    sess as (
      select batch_id, count(*)::int as sessions,
             count(*) filter (where held)::int as held,
             count(*) filter (where status = 'cancelled')::int as cancelled,
             count(*) filter (where status = 'scheduled' and not held)::int as upcoming
        from rs group by batch_id
    ),
    marked as (
      select rs.batch_id,
             ${count('present')} as present, ${count('late')} as late,
             ${count('absent')} as absent, ${count('excused')} as excused,
             count(bm.enrollment_id)::int as by_members
        from rs
        join attendance_marks a on a.session_id = rs.id
        left join batch_members bm
          on bm.enrollment_id = a.enrollment_id and bm.batch_id = rs.batch_id
         and bm.status = 'member' and bm.joined_on <= rs.day
       where rs.held
       group by rs.batch_id
    ),
    joins as (
      select batch_id, joined_on, count(*)::int as n
        from batch_members
       where status = 'member' and batch_id in (select id from bs)
       group by batch_id, joined_on
    ),
    places as (
      select rs.batch_id, sum(j.n)::int as places
        from rs join joins j on j.batch_id = rs.batch_id and j.joined_on <= rs.day
       where rs.held
       group by rs.batch_id
    )
    select bs.id::text as "batchId", bs.name as "batchName", bs.status as "batchStatus",
           br.id::text as "branchId", br.name as "branchName",
           coalesce(sess.sessions, 0) as sessions, coalesce(sess.held, 0) as held,
           coalesce(sess.cancelled, 0) as cancelled, coalesce(sess.upcoming, 0) as upcoming,
           coalesce(marked.present, 0) as present, coalesce(marked.late, 0) as late,
           coalesce(marked.absent, 0) as absent, coalesce(marked.excused, 0) as excused,
           (coalesce(places.places, 0) - coalesce(marked.by_members, 0))::int as unmarked
      from bs
      join branches br on br.id = bs.branch_id
      left join sess on sess.batch_id = bs.id
      left join marked on marked.batch_id = bs.id
      left join places on places.batch_id = bs.id
     order by bs.name, bs.id`);
  return rowsOf<BatchFiguresRow>(result).map((r) => ({
    ...r,
    sessions: Number(r.sessions),
    held: Number(r.held),
    cancelled: Number(r.cancelled),
    upcoming: Number(r.upcoming),
    present: Number(r.present),
    late: Number(r.late),
    absent: Number(r.absent),
    excused: Number(r.excused),
    unmarked: Number(r.unmarked),
  }));
}

/** Where a page of students starts: after the row with this sort key. */
export interface StudentKey {
  batchName: string;
  batchId: string;
  sortName: string;
  enrollmentId: string;
}

export interface RosterPlaceRow extends StudentKey {
  userId: string | null;
  fullName: string | null;
  keptName: string | null;
}

/** A student's name as the rows sort by it: the account's, the kept one of a deleted account, or 'Unknown'. */
const SORT_NAME = sql`coalesce(u.full_name, e.deleted_username, 'Unknown')`;

/**
 * The roster places of the batches covered, in (batch name, batch, student name, enrolment)
 * order, `limit` of them after `after`: an index-friendly keyset walk, however many students.
 */
export async function rosterPlaces(
  db: Db,
  s: AttendanceReportScope,
  after: StudentKey | null,
  limit: number,
): Promise<RosterPlaceRow[]> {
  const from = after
    ? sql`and (b.name, b.id, ${SORT_NAME}, bm.enrollment_id) >
              (${after.batchName}, ${after.batchId}::uuid, ${after.sortName}, ${after.enrollmentId}::uuid)`
    : sql``;
  const result = await db.execute(sql`
    with bs as (${batchesInScope(s)})
    select bm.enrollment_id::text as "enrollmentId", b.id::text as "batchId", b.name as "batchName",
           u.id::text as "userId", u.full_name as "fullName", e.deleted_username as "keptName",
           ${SORT_NAME} as "sortName"
      from batch_members bm
      join bs b on b.id = bm.batch_id
      join enrollments e on e.id = bm.enrollment_id
      left join users u on u.id = e.user_id
     where bm.status = 'member' ${from}
     order by b.name, b.id, ${SORT_NAME}, bm.enrollment_id
     limit ${limit}`);
  return rowsOf<RosterPlaceRow>(result);
}

/** How many roster places the report covers (the PDF's size check). */
export async function rosterPlaceCount(db: Db, s: AttendanceReportScope): Promise<number> {
  const result = await db.execute(sql`
    with bs as (${batchesInScope(s)})
    select count(*)::int as n from batch_members bm join bs on bs.id = bm.batch_id where bm.status = 'member'`);
  return Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
}

/** The roster places (enrollment_id, batch_id, joined_on) of these enrolments, for attendanceStatsOf. */
export const placesOf = (enrollmentIds: string[]): SQL => sql`
  select enrollment_id, batch_id, joined_on from batch_members
   where status = 'member' and enrollment_id in (${sql.join(
     enrollmentIds.map((id) => sql`${id}::uuid`),
     sql`, `,
   )})`;
