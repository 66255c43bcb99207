/**
 * The roster (docs/classes.md#roster): an enrolment takes a seat in a batch of its course, or a
 * place on its waiting list; when a seat frees, the first on the list joins. The batch's row is
 * locked (FOR UPDATE) while its seats are counted and given, so parallel joins never overfill it.
 */
import { and, asc, count, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { firstRow } from '../../db/rows';
import { batches, batchMembers, enrollments, users } from '../../db/schema';
import { AppError } from '../../errors';
import { todayIn } from '../../../shared/calendar';
import { formatDay } from '../../../shared/format';
import type { TJoinBatchInput, TRoster, TRosterPlace } from '@shared/schemas/classes';
import { recordAudit } from '../audit/audit.service';
import { assertRecordInScope } from '../branch-scope';
import type { ServiceContext } from '../context';
import { assertId } from '../ids';
import { afterWrite } from '../read-cache';
import { attendanceStats } from './attendance.stats';
import { batchForStaff, BATCH_NOT_FOUND, type BatchRow } from './classes.read';

export const ROSTER_MESSAGES = {
  enrollmentNotFound: 'Enrollment not found.',
  closed: 'This batch is closed: it takes no new students.',
  otherCourse: 'This enrolment is for another course than the batch.',
  completed: 'This enrolment is completed: it cannot join a batch.',
  otherBranch: "The batch is at another branch than the student's.",
  beforeStart: (day: string) => `Joined on cannot be before the batch starts (${formatDay(day)}).`,
  afterEnd: (day: string) => `Joined on cannot be after the batch ends (${formatDay(day)}).`,
  full: (n: number) =>
    `This batch is full: all ${n} ${n === 1 ? 'seat is' : 'seats are'} taken. Put the student on the waiting list instead.`,
  notInBatch: 'This enrolment is not in a batch.',
} as const;

type Ctx = ServiceContext;

const later = (a: string, b: string) => (a > b ? a : b);

/** Who the roster entries name: the student's full name, or the name kept from a deleted one. */
export const studentOf = (r: { userId: string | null; fullName: string | null; keptName: string | null }) => ({
  _id: r.userId,
  fullName: r.fullName ?? r.keptName ?? 'Unknown',
});

async function studentName(db: Db, enrollmentId: string): Promise<string> {
  const [r] = await db
    .select({ fullName: users.fullName, kept: enrollments.deletedUsername })
    .from(enrollments)
    .leftJoin(users, eq(users.id, enrollments.userId))
    .where(eq(enrollments.id, enrollmentId))
    .limit(1);
  return r?.fullName ?? r?.kept ?? 'Unknown';
}

async function seatsTaken(tx: Db, batchId: string): Promise<number> {
  const [r] = await tx
    .select({ n: count() })
    .from(batchMembers)
    .where(and(eq(batchMembers.batchId, batchId), eq(batchMembers.status, 'member')));
  return r?.n ?? 0;
}

/**
 * While the batch (locked by the caller) has a free seat, the first on its waiting list (the
 * longest waiting) joins, from today or the batch's start if that is later. Each join is audited.
 */
export async function promoteWaitlist(tx: Db, ctx: Ctx, batch: BatchRow): Promise<void> {
  if (batch.status !== 'open') return;
  let free = batch.capacity - (await seatsTaken(tx, batch.id));
  if (free <= 0) return;
  const waiting = await tx
    .select()
    .from(batchMembers)
    .where(and(eq(batchMembers.batchId, batch.id), eq(batchMembers.status, 'waitlist')))
    .orderBy(asc(batchMembers.since), asc(batchMembers.id))
    .limit(free);
  const joinedOn = later(todayIn(ctx.deps.config.TIME_ZONE), batch.startDate);
  for (const w of waiting) {
    if (free-- <= 0) break;
    await tx.update(batchMembers).set({ status: 'member', joinedOn }).where(eq(batchMembers.id, w.id));
    await recordAudit(tx, ctx, {
      action: 'update',
      entityType: 'roster',
      entityId: w.enrollmentId,
      parent: { type: 'enrollment', id: w.enrollmentId },
      summary: `${await studentName(tx, w.enrollmentId)} joined batch ${batch.name} from its waiting list`,
      changes: [
        { field: 'status', before: 'waitlist', after: 'member' },
        { field: 'joinedOn', before: null, after: joinedOn },
      ],
    });
  }
}

/** Locks batch rows in id order (the same order everywhere, so two moves never deadlock). */
async function lockBatches(tx: Db, ids: string[]): Promise<Map<string, BatchRow>> {
  const unique = [...new Set(ids)].sort();
  const rows = await tx
    .select()
    .from(batches)
    .where(inArray(batches.id, unique))
    .orderBy(asc(batches.id))
    .for('update');
  return new Map(rows.map((r) => [r.id, r]));
}

const toPlace = (p: typeof batchMembers.$inferSelect): TRosterPlace => ({
  enrollmentId: p.enrollmentId,
  batchId: p.batchId,
  status: p.status,
  joinedOn: p.joinedOn,
  since: p.since.toISOString(),
});

/**
 * PUT /api/enrollments/{id}/batch: the enrolment joins the batch (or its waiting list), moving out
 * of the batch it was in; the marks it has stay with it. Same course, the student's branch (any
 * when the student has none), a free seat or `waitlist`, and `joinedOn` inside the batch's dates.
 */
export async function joinBatch(ctx: Ctx, input: TJoinBatchInput): Promise<TRosterPlace> {
  assertId(input.id, 'Enrollment');
  await assertRecordInScope(ctx, 'enrollment', input.id, ROSTER_MESSAGES.enrollmentNotFound);
  // The batch must be one the caller reads (a limited manager: their branch's).
  await batchForStaff(ctx, input.batchId);
  const [e] = await ctx.db
    .select({ e: enrollments, branchId: users.branchId, fullName: users.fullName })
    .from(enrollments)
    .leftJoin(users, eq(users.id, enrollments.userId))
    .where(eq(enrollments.id, input.id))
    .limit(1);
  if (!e) throw new AppError('NOT_FOUND', ROSTER_MESSAGES.enrollmentNotFound);
  const name = e.fullName ?? e.e.deletedUsername ?? 'Unknown';
  return afterWrite(
    ctx.deps,
    ctx.db.transaction(async (tx) => {
      const [current] = await tx
        .select()
        .from(batchMembers)
        .where(eq(batchMembers.enrollmentId, input.id))
        .for('update')
        .limit(1);
      const locked = await lockBatches(tx, [input.batchId, ...(current ? [current.batchId] : [])]);
      const batch = locked.get(input.batchId);
      if (!batch) throw new AppError('NOT_FOUND', BATCH_NOT_FOUND);
      if (batch.status !== 'open') throw new AppError('CONFLICT', ROSTER_MESSAGES.closed);
      if (e.e.status === 'completed') throw new AppError('CONFLICT', ROSTER_MESSAGES.completed);
      if (!e.e.courseId || e.e.courseId !== batch.courseId) throw new AppError('CONFLICT', ROSTER_MESSAGES.otherCourse);
      if (e.branchId && e.branchId !== batch.branchId) throw new AppError('CONFLICT', ROSTER_MESSAGES.otherBranch);
      const joinedOn = input.joinedOn ?? later(todayIn(ctx.deps.config.TIME_ZONE), batch.startDate);
      if (joinedOn < batch.startDate) throw new AppError('BAD_REQUEST', ROSTER_MESSAGES.beforeStart(batch.startDate));
      if (joinedOn > batch.endDate) throw new AppError('BAD_REQUEST', ROSTER_MESSAGES.afterEnd(batch.endDate));

      const same = current?.batchId === batch.id;
      const seated = same && current.status === 'member';
      const free = seated || (await seatsTaken(tx, batch.id)) < batch.capacity;
      if (!free && !input.waitlist) throw new AppError('CONFLICT', ROSTER_MESSAGES.full(batch.capacity));
      const status = free ? 'member' : 'waitlist';
      const values = {
        batchId: batch.id,
        status,
        joinedOn: status === 'member' ? joinedOn : null,
        // A place on the same batch's list keeps its turn.
        since: same && current.status === status ? current.since : new Date(),
      } as const;
      const place = current
        ? firstRow(await tx.update(batchMembers).set(values).where(eq(batchMembers.id, current.id)).returning())
        : firstRow(
            await tx
              .insert(batchMembers)
              .values({ enrollmentId: input.id, ...values })
              .returning(),
          );

      const from = current && !same ? locked.get(current.batchId) : undefined;
      const summary =
        status === 'waitlist'
          ? `Put ${name} on the waiting list of batch ${batch.name}`
          : from
            ? `Moved ${name} from batch ${from.name} to ${batch.name}`
            : seated
              ? `Changed when ${name} joined batch ${batch.name}`
              : `Added ${name} to batch ${batch.name}`;
      await recordAudit(tx, ctx, {
        action: current ? 'update' : 'create',
        entityType: 'roster',
        entityId: input.id,
        parent: { type: 'enrollment', id: input.id },
        summary,
        changes: [
          { field: 'batchId', before: current?.batchId ?? null, after: batch.id },
          { field: 'status', before: current?.status ?? null, after: status },
          { field: 'joinedOn', before: current?.joinedOn ?? null, after: place.joinedOn },
        ],
      });
      // The seat left behind goes to the first on that batch's waiting list.
      if (from && current?.status === 'member') await promoteWaitlist(tx, ctx, from);
      return toPlace(place);
    }),
  );
}

/** DELETE /api/enrollments/{id}/batch: the enrolment leaves its batch (or waiting list); its marks stay. */
export async function leaveBatch(ctx: Ctx, enrollmentId: string): Promise<{ message: string }> {
  assertId(enrollmentId, 'Enrollment');
  await assertRecordInScope(ctx, 'enrollment', enrollmentId, ROSTER_MESSAGES.enrollmentNotFound);
  return afterWrite(
    ctx.deps,
    ctx.db.transaction(async (tx) => {
      const [current] = await tx
        .select()
        .from(batchMembers)
        .where(eq(batchMembers.enrollmentId, enrollmentId))
        .for('update')
        .limit(1);
      if (!current) throw new AppError('NOT_FOUND', ROSTER_MESSAGES.notInBatch);
      const batch = firstRow([...(await lockBatches(tx, [current.batchId])).values()]);
      await tx.delete(batchMembers).where(eq(batchMembers.id, current.id));
      await recordAudit(tx, ctx, {
        action: 'delete',
        entityType: 'roster',
        entityId: enrollmentId,
        parent: { type: 'enrollment', id: enrollmentId },
        summary: `Removed ${await studentName(tx, enrollmentId)} from ${current.status === 'waitlist' ? 'the waiting list of ' : ''}batch ${batch.name}`,
        changes: [{ field: 'batchId', before: current.batchId, after: null }],
      });
      if (current.status === 'member') await promoteWaitlist(tx, ctx, batch);
      return { message: 'The student left the batch.' };
    }),
  );
}

/** GET /api/batches/{id}/roster: the students with their rate, then the waiting list in turn. */
export async function getRoster(ctx: Ctx, batchId: string): Promise<TRoster> {
  const batch = await batchForStaff(ctx, batchId);
  const rows = await ctx.db
    .select({
      p: batchMembers,
      userId: users.id,
      fullName: users.fullName,
      keptName: enrollments.deletedUsername,
    })
    .from(batchMembers)
    .innerJoin(enrollments, eq(enrollments.id, batchMembers.enrollmentId))
    .leftJoin(users, eq(users.id, enrollments.userId))
    .where(eq(batchMembers.batchId, batch.id))
    .orderBy(asc(batchMembers.since), asc(batchMembers.id));
  const members = rows.filter((r) => r.p.status === 'member');
  const stats = await attendanceStats(
    ctx.db,
    members.map((m) => m.p.enrollmentId),
  );
  return {
    data: members
      .map((m) => ({
        enrollmentId: m.p.enrollmentId,
        student: studentOf(m),
        joinedOn: m.p.joinedOn ?? batch.startDate,
        rate: stats.get(m.p.enrollmentId)?.rate ?? null,
      }))
      .sort((a, b) => a.student.fullName.localeCompare(b.student.fullName)),
    waitlist: rows
      .filter((r) => r.p.status === 'waitlist')
      .map((w) => ({ enrollmentId: w.p.enrollmentId, student: studentOf(w), since: w.p.since.toISOString() })),
  };
}
