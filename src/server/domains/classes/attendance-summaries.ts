/**
 * The kept attendance summary of each enrolment (docs/classes.md#falling-behind): its counts of
 * present, late, absent and excused marks, its last attendance and its run of absences, so the
 * falling-behind list reads one row a student instead of recomputing every mark.
 *
 * The rate and the run depend only on the enrolment's present, late and absent marks on
 * scheduled sessions: such a mark is only taken once its session has started (the register
 * refuses it earlier), and a started session or one holding a mark is never cancelled nor moved,
 * so "held" adds nothing the marks do not already say, and a roster move changes nothing (the
 * marks stay with the enrolment). Every write of marks or of a marked session's status or time
 * calls refreshAttendanceSummaries in its own transaction.
 */
import { eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { attendanceMarks } from '../../db/schema';

/** Recomputes the summaries of the enrolments `ids` selects (a query answering `id`), in one statement. */
function summarise(ids: SQL): SQL {
  return sql`
    with e as (select en.id from enrollments en where en.id in (${ids})),
    m as (
      select a.enrollment_id, a.status, cs.start_at,
             max(cs.start_at) filter (where a.status in ('present', 'late'))
               over (partition by a.enrollment_id) as last_attended
        from attendance_marks a
        join class_sessions cs on cs.id = a.session_id
       where a.enrollment_id in (select id from e) and cs.status = 'scheduled'
    )
    insert into attendance_summaries
      (enrollment_id, present, late, absent, excused, last_attended_at, absent_in_a_row, updated_at)
    select e.id,
           count(*) filter (where m.status = 'present')::int,
           count(*) filter (where m.status = 'late')::int,
           count(*) filter (where m.status = 'absent')::int,
           count(*) filter (where m.status = 'excused')::int,
           max(m.last_attended),
           count(*) filter (where m.status = 'absent' and m.start_at > coalesce(m.last_attended, '-infinity'))::int,
           now()
      from e left join m on m.enrollment_id = e.id
     group by e.id
    -- An enrolment whose marks are gone keeps a row of zeros, which lists it nowhere.
    on conflict (enrollment_id) do update set
      present = excluded.present, late = excluded.late, absent = excluded.absent,
      excused = excluded.excused, last_attended_at = excluded.last_attended_at,
      absent_in_a_row = excluded.absent_in_a_row, updated_at = excluded.updated_at`;
}

/**
 * Brings the given enrolments' summaries in line with their marks, inside the caller's
 * transaction. Each enrolment's lock is taken first (ascending ids, so two writers never wait on
 * each other in a circle): a second writer's recount then starts after the first has committed
 * and sees its marks, instead of overwriting its row with a count taken before them.
 */
export async function refreshAttendanceSummaries(tx: Db, enrollmentIds: readonly string[]): Promise<void> {
  const ids = [...new Set(enrollmentIds)].sort();
  if (!ids.length) return;
  for (const id of ids) await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${'attendance:' + id}, 0))`);
  await tx.execute(
    summarise(
      sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      ),
    ),
  );
}

/** Every enrolment's summary at once, after marks were loaded in bulk (the benchmark's seed). */
export async function refreshEveryAttendanceSummary(db: Db): Promise<void> {
  await db.execute(summarise(sql`select id from enrollments`));
}

/**
 * After a session's status or time changed: the summaries of everyone marked on it. Today a
 * session holding marks is never cancelled and one moved holds at most excused marks, so this
 * changes no rate; it keeps the rows right should either rule ever loosen.
 */
export async function refreshSummariesOfSession(tx: Db, sessionId: string): Promise<void> {
  const marked = await tx
    .select({ id: attendanceMarks.enrollmentId })
    .from(attendanceMarks)
    .where(eq(attendanceMarks.sessionId, sessionId));
  await refreshAttendanceSummaries(
    tx,
    marked.map((m) => m.id),
  );
}
