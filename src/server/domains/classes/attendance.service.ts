/**
 * The register (docs/classes.md#attendance): one mark per session and student, taken by staff or
 * the batch's instructor once the session has started (excused may be set ahead), none on a
 * cancelled session; every mark is in the audit trail with who took it. Then the figures: an
 * enrolment's rate, and who is falling behind with what they still owe.
 */
import { planAbsenceMessage } from '../messages/hooks';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  attendanceMarks,
  attendanceSummaries,
  batches,
  batchMembers,
  classSessions,
  enrollments,
  users,
} from '../../db/schema';
import { AppError } from '../../errors';
import type {
  AttendanceMark,
  TEnrollmentAttendance,
  TFallingBehind,
  TFallingBehindInput,
  TSessionAttendance,
  TTakeAttendanceInput,
} from '@shared/schemas/classes';
import { fieldChanges, recordAudit } from '../audit/audit.service';
import { assertRecordInScope, branchCondition, branchScopeOf } from '../branch-scope';
import type { ServiceContext } from '../context';
import { selectEnrollments, toEnrollmentDto } from '../enrollments/enrollments.dto';
import { assertId, isUuid } from '../ids';
import { afterWrite } from '../read-cache';
import { refreshAttendanceSummaries } from './attendance-summaries';
import { attendanceStats, heldSessionsOf, NO_FIGURES, rateOf } from './attendance.stats';
import { formatWhen } from '../../../shared/zoned-time';
import { sessionDto, sessionForClass, type SessionRow } from './classes.read';
import { ROSTER_MESSAGES, studentOf } from './roster.service';
import { todayIn } from '../../../shared/calendar';

export const ATTENDANCE_MESSAGES = {
  cancelled: 'This session is cancelled: it takes no attendance.',
  notStarted: 'This session has not started yet: only excused can be marked ahead.',
  notOnRoster: (name: string) => `${name} is not on this session's roster.`,
} as const;

/**
 * A session's roster: the batch's students who joined on or before its day, and anyone already
 * marked on it (a student who has since moved batches keeps the mark).
 */
async function sessionRoster(db: Db, s: SessionRow) {
  const rows = await db
    .select({
      enrollmentId: enrollments.id,
      userId: users.id,
      fullName: users.fullName,
      keptName: enrollments.deletedUsername,
      status: attendanceMarks.status,
      note: attendanceMarks.note,
    })
    .from(enrollments)
    .leftJoin(users, eq(users.id, enrollments.userId))
    .leftJoin(
      attendanceMarks,
      and(eq(attendanceMarks.enrollmentId, enrollments.id), eq(attendanceMarks.sessionId, s.id)),
    )
    // One list of ids (the roster of its day, and anyone marked on it), so the enrolments are
    // reached through their key; an OR across the join would read every enrolment there is.
    .where(
      sql`${enrollments.id} in (
        select ${batchMembers.enrollmentId} from ${batchMembers}
         where ${batchMembers.batchId} = ${s.batchId} and ${batchMembers.status} = 'member'
           and ${batchMembers.joinedOn} <= ${s.day}
        union
        select ${attendanceMarks.enrollmentId} from ${attendanceMarks} where ${attendanceMarks.sessionId} = ${s.id})`,
    );
  return rows
    .map((r) => ({ enrollmentId: r.enrollmentId, student: studentOf(r), status: r.status, note: r.note }))
    .sort(
      (a, b) => a.student.fullName.localeCompare(b.student.fullName) || a.enrollmentId.localeCompare(b.enrollmentId),
    );
}

/** GET /api/class-sessions/{id}/attendance: the session and one line per student on its roster. */
export async function getSessionAttendance(ctx: ServiceContext, id: string): Promise<TSessionAttendance> {
  const { session } = await sessionForClass(ctx, id);
  const [dto, marks] = await Promise.all([sessionDto(ctx.db, session.id), sessionRoster(ctx.db, session)]);
  return { session: dto, marks };
}

/**
 * PUT /api/class-sessions/{id}/attendance: the given marks (or present for every student not yet
 * marked). The session's row is held FOR UPDATE, so a cancel and a register never cross.
 */
export async function takeAttendance(ctx: ServiceContext, input: TTakeAttendanceInput): Promise<TSessionAttendance> {
  const { batch } = await sessionForClass(ctx, input.id);
  const timeZone = ctx.deps.config.TIME_ZONE;
  await afterWrite(
    ctx.deps,
    ctx.db.transaction(async (tx) => {
      const [s] = await tx.select().from(classSessions).where(eq(classSessions.id, input.id)).for('update').limit(1);
      if (!s) throw new AppError('NOT_FOUND', 'Class session not found.');
      if (s.status === 'cancelled') throw new AppError('CONFLICT', ATTENDANCE_MESSAGES.cancelled);
      const started = s.startAt <= new Date();
      const roster = await sessionRoster(tx, s);
      const byId = new Map(roster.map((r) => [r.enrollmentId, r]));
      const wanted: Array<{ enrollmentId: string; status: AttendanceMark; note?: string }> = input.marks
        ? input.marks
        : roster.filter((r) => r.status === null).map((r) => ({ enrollmentId: r.enrollmentId, status: 'present' }));
      for (const m of wanted) {
        if (!byId.has(m.enrollmentId)) {
          const name = isUuid(m.enrollmentId) ? await nameOf(tx, m.enrollmentId) : null;
          if (!name) throw new AppError('NOT_FOUND', ROSTER_MESSAGES.enrollmentNotFound);
          throw new AppError('CONFLICT', ATTENDANCE_MESSAGES.notOnRoster(name));
        }
        if (!started && m.status !== 'excused') throw new AppError('CONFLICT', ATTENDANCE_MESSAGES.notStarted);
      }
      const when = formatWhen(s.startAt, s.endAt, timeZone);
      const now = new Date();
      const recount: string[] = [];
      for (const m of wanted) {
        const before = byId.get(m.enrollmentId)!;
        const note = m.note ?? null;
        if (before.status === m.status && before.note === note) continue;
        if (before.status !== m.status) recount.push(m.enrollmentId);
        await tx
          .insert(attendanceMarks)
          .values({
            sessionId: s.id,
            enrollmentId: m.enrollmentId,
            status: m.status,
            note,
            markedById: ctx.actor.id,
            markedAt: now,
          })
          .onConflictDoUpdate({
            target: [attendanceMarks.sessionId, attendanceMarks.enrollmentId],
            set: { status: m.status, note, markedById: ctx.actor.id, markedAt: now },
          });
        await recordAudit(tx, ctx, {
          action: before.status ? 'update' : 'create',
          entityType: 'attendance',
          entityId: s.id,
          parent: { type: 'enrollment', id: m.enrollmentId },
          summary: `Marked ${before.student.fullName} ${m.status} at ${batch.name}, ${when}`,
          changes: fieldChanges({ status: before.status, note: before.note }, { status: m.status, note }),
        });
        if (m.status === 'absent') await planAbsenceMessage(tx, ctx.deps, s.id, m.enrollmentId);
      }
      await refreshAttendanceSummaries(tx, recount);
    }),
  );
  return getSessionAttendance(ctx, input.id);
}

async function nameOf(db: Db, enrollmentId: string): Promise<string | null> {
  const [r] = await db
    .select({ fullName: users.fullName, kept: enrollments.deletedUsername })
    .from(enrollments)
    .leftJoin(users, eq(users.id, enrollments.userId))
    .where(eq(enrollments.id, enrollmentId))
    .limit(1);
  return r ? (r.fullName ?? r.kept ?? 'Unknown') : null;
}

/** GET /api/enrollments/{id}/attendance: the rate, the counts and every held session with its mark. */
export async function enrollmentAttendance(ctx: ServiceContext, id: string): Promise<TEnrollmentAttendance> {
  assertId(id, 'Enrollment');
  await assertRecordInScope(ctx, 'enrollment', id, ROSTER_MESSAGES.enrollmentNotFound);
  const [e] = await ctx.db.select({ id: enrollments.id }).from(enrollments).where(eq(enrollments.id, id)).limit(1);
  if (!e) throw new AppError('NOT_FOUND', ROSTER_MESSAGES.enrollmentNotFound);
  const now = new Date();
  const [stats, sessions] = await Promise.all([attendanceStats(ctx.db, [id], now), heldSessionsOf(ctx.db, id, now)]);
  const { absentInARow: _streak, ...f } = stats.get(id) ?? NO_FIGURES;
  return { ...f, sessions };
}

/**
 * GET /api/attendance/falling-behind: students of open batches under ATTENDANCE_THRESHOLD or
 * absent three times in a row, each with what is still owed on the same enrolment (the
 * enrolment's own outstanding figure, enrollments.dto.ts). The figures are the kept summaries
 * (attendance-summaries.ts), so the list reads one row a student whatever the marks.
 */
export async function fallingBehind(ctx: ServiceContext, input: TFallingBehindInput): Promise<TFallingBehind> {
  const threshold = ctx.deps.config.ATTENDANCE_THRESHOLD;
  const bad = (x?: string) => x !== undefined && !isUuid(x);
  if (bad(input.branchId) || bad(input.batchId)) return { threshold, data: [] };
  const scope = branchCondition(await branchScopeOf(ctx), batches.branchId);
  const t = attendanceSummaries;
  const places = await ctx.db
    .select({
      enrollmentId: batchMembers.enrollmentId,
      batchId: batches.id,
      batchName: batches.name,
      present: t.present,
      late: t.late,
      absent: t.absent,
      absentInARow: t.absentInARow,
    })
    .from(batchMembers)
    .innerJoin(batches, eq(batches.id, batchMembers.batchId))
    .innerJoin(t, eq(t.enrollmentId, batchMembers.enrollmentId))
    .where(
      and(
        eq(batchMembers.status, 'member'),
        eq(batches.status, 'open'),
        input.branchId ? eq(batches.branchId, input.branchId) : undefined,
        input.batchId ? eq(batches.id, input.batchId) : undefined,
        scope,
        // Only the candidates leave the database: a rate that one decimal can round under the
        // threshold, or a run of three; the rule itself is applied below on the rounded rate.
        sql`(${t.absentInARow} >= 3 or (${t.present} + ${t.late}) * 100.0 < (${threshold}::numeric + 0.05) * (${t.present} + ${t.late} + ${t.absent}))`,
      ),
    );
  const stats = new Map(places.map((p) => [p.enrollmentId, { rate: rateOf(p), absentInARow: p.absentInARow }]));
  const behind = places.filter((p) => {
    const f = stats.get(p.enrollmentId)!;
    return (f.rate !== null && f.rate < threshold) || f.absentInARow >= 3;
  });
  if (!behind.length) return { threshold, data: [] };
  const today = todayIn(ctx.deps.config.TIME_ZONE);
  const behindIds = behind.map((b) => b.enrollmentId);
  // One statement for both: what is owed comes with the enrolment's student.
  const rows = await selectEnrollments(ctx.db).where(inArray(enrollments.id, behindIds));
  const owed = new Map(rows.map((row) => [row.e.id, toEnrollmentDto(row, today)]));
  const students = new Map(
    rows.map((row) => [
      row.e.id,
      studentOf({
        userId: row.user?.id ?? null,
        fullName: row.user?.fullName ?? null,
        keptName: row.e.deletedUsername,
      }),
    ]),
  );
  const data = behind
    .map((p) => {
      const f = stats.get(p.enrollmentId)!;
      const o = owed.get(p.enrollmentId);
      const amount = o?.outstandingAmount ?? 0;
      return {
        enrollmentId: p.enrollmentId,
        student: students.get(p.enrollmentId) ?? { _id: null, fullName: 'Unknown' },
        batch: { _id: p.batchId, name: p.batchName },
        rate: f.rate,
        absentInARow: f.absentInARow,
        outstanding: amount > 0 && o ? [{ currency: o.currency, amount }] : [],
      };
    })
    .sort(
      (a, b) =>
        (a.rate ?? 0) - (b.rate ?? 0) ||
        b.absentInARow - a.absentInARow ||
        a.student.fullName.localeCompare(b.student.fullName),
    );
  return { threshold, data };
}
