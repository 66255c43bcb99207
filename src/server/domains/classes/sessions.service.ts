/**
 * Class sessions one at a time (docs/classes.md#sessions): a batch's list, a day's list for the
 * register, and an admin's cancel or move of one session (a move passes the same clash checks).
 */
import { planClassSessionMessages } from '../messages/hooks';
import { and, count, eq, gte, inArray, lte } from 'drizzle-orm';
import { attendanceMarks, batches, classSessions, rooms } from '../../db/schema';
import { AppError, fromZodError } from '../../errors';
import { FORBIDDEN_MESSAGE } from '../../http/access';
import { todayIn } from '../../../shared/calendar';
import { isStaff } from '../../../shared/roles';
import type {
  TBranchSessionsInput,
  TBatchSessionsInput,
  TCancelSessionInput,
  TClassSession,
  TDaySessionsInput,
  TMoveSessionInput,
} from '@shared/schemas/classes';
import { fieldChanges, recordAudit } from '../audit/audit.service';
import { branchScopeOf, branchCondition } from '../branch-scope';
import type { ServiceContext } from '../context';
import { assertId } from '../ids';
import { afterWrite } from '../read-cache';
import { refreshSummariesOfSession } from './attendance-summaries';
import { assertNoClash, clashFromConstraint, lockClassResources } from './class-clashes';
import { dayOf, formatWhen } from '../../../shared/zoned-time';
import { assertClassAccess, BATCH_NOT_FOUND, selectSessionDtos, sessionDto, SESSION_NOT_FOUND } from './classes.read';
import { CLASS_WRITE_MESSAGES } from './batches.service';
import { ZSessionRange } from '@shared/schemas/classes';

export const SESSION_MESSAGES = {
  alreadyCancelled: 'This session is already cancelled.',
  hasMarks: 'This session has attendance: it cannot be cancelled.',
  started: 'This session has started: it cannot be moved.',
  cancelled: 'This session is cancelled: it cannot be moved.',
  order: 'The session must end after it starts.',
  past: 'A session can only be moved to a time still to come.',
  tooLong: 'A session can last at most 24 hours.',
} as const;

/** GET /api/batches/{id}/sessions: staff and the batch's instructor; `from`/`to` are days in TIME_ZONE. */
export async function listBatchSessions(
  ctx: ServiceContext,
  input: TBatchSessionsInput,
): Promise<{ data: TClassSession[] }> {
  const range = ZSessionRange.safeParse({ from: input.from, to: input.to });
  if (!range.success) throw fromZodError(range.error);
  assertId(input.id, 'Batch');
  const [batch] = await ctx.db.select().from(batches).where(eq(batches.id, input.id)).limit(1);
  if (!batch && !isStaff(ctx.actor.role)) throw new AppError('FORBIDDEN', FORBIDDEN_MESSAGE);
  if (!batch) throw new AppError('NOT_FOUND', BATCH_NOT_FOUND);
  await assertClassAccess(ctx, batch);
  const data = await selectSessionDtos(
    ctx.db,
    and(
      eq(classSessions.batchId, batch.id),
      input.from ? gte(classSessions.day, input.from) : undefined,
      input.to ? lte(classSessions.day, input.to) : undefined,
    ),
    5000,
  );
  return { data };
}

/**
 * The sessions of one day (today by default) for the register screen: staff see every batch's in
 * their branch scope; an instructor outside the staff sees the sessions they teach; anyone else 403.
 */
export async function daySessions(ctx: ServiceContext, input: TDaySessionsInput): Promise<{ data: TClassSession[] }> {
  const day = input.day ?? todayIn(ctx.deps.config.TIME_ZONE);
  if (!isStaff(ctx.actor.role)) {
    // Outside the staff, only an instructor (of some batch) has a register to take.
    const [teaches] = await ctx.db
      .select({ id: batches.id })
      .from(batches)
      .where(eq(batches.instructorId, ctx.actor.id))
      .limit(1);
    if (!teaches) throw new AppError('FORBIDDEN', FORBIDDEN_MESSAGE);
  }
  const whose = isStaff(ctx.actor.role)
    ? branchCondition(await branchScopeOf(ctx), batches.branchId)
    : eq(classSessions.instructorId, ctx.actor.id);
  const data = await selectSessionDtos(ctx.db, and(eq(classSessions.day, day), whose));
  return { data };
}

/**
 * The calendar's class sessions (docs/classes.md#screens): a branch's scheduled sessions over a few
 * days, for staff within their branch scope (another branch's answer is empty, as its
 * appointments are). Cancelled sessions hold no room or person and are left out.
 */
export async function branchSessions(
  ctx: ServiceContext,
  input: TBranchSessionsInput,
): Promise<{ data: TClassSession[] }> {
  const data = await selectSessionDtos(
    ctx.db,
    and(
      eq(batches.branchId, input.branchId),
      branchCondition(await branchScopeOf(ctx), batches.branchId),
      eq(classSessions.status, 'scheduled'),
      gte(classSessions.day, input.from),
      lte(classSessions.day, input.to),
    ),
  );
  return { data };
}

/** An admin cancels a session with a reason; one that holds attendance cannot be. */
export async function cancelSession(ctx: ServiceContext, input: TCancelSessionInput): Promise<TClassSession> {
  assertId(input.id, 'Class session');
  await afterWrite(
    ctx.deps,
    ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .select({ s: classSessions, batchName: batches.name })
        .from(classSessions)
        .innerJoin(batches, eq(batches.id, classSessions.batchId))
        .where(eq(classSessions.id, input.id))
        .for('update', { of: classSessions })
        .limit(1);
      if (!row) throw new AppError('NOT_FOUND', SESSION_NOT_FOUND);
      if (row.s.status === 'cancelled') throw new AppError('CONFLICT', SESSION_MESSAGES.alreadyCancelled);
      const [marks] = await tx
        .select({ n: count() })
        .from(attendanceMarks)
        .where(eq(attendanceMarks.sessionId, row.s.id));
      if ((marks?.n ?? 0) > 0) throw new AppError('CONFLICT', SESSION_MESSAGES.hasMarks);
      await tx
        .update(classSessions)
        .set({ status: 'cancelled', reason: input.reason })
        .where(eq(classSessions.id, row.s.id));
      await refreshSummariesOfSession(tx, row.s.id);
      await recordAudit(tx, ctx, {
        action: 'cancel',
        entityType: 'class_session',
        entityId: row.s.id,
        summary: `Cancelled the ${row.batchName} session of ${formatWhen(row.s.startAt, row.s.endAt, ctx.deps.config.TIME_ZONE)}: ${input.reason}`,
        changes: [
          { field: 'status', before: 'scheduled', after: 'cancelled' },
          { field: 'reason', before: null, after: input.reason },
        ],
      });
      await planClassSessionMessages(tx, ctx.deps, row.s.id, { change: 'cancelled' });
    }),
  );
  return sessionDto(ctx.db, input.id);
}

/**
 * An admin moves a session still to come to a new time or room (null: no room), with the checks
 * a new session passes: the room at the batch's branch, no room or instructor clash.
 */
export async function moveSession(ctx: ServiceContext, input: TMoveSessionInput): Promise<TClassSession> {
  assertId(input.id, 'Class session');
  const timeZone = ctx.deps.config.TIME_ZONE;
  try {
    await afterWrite(
      ctx.deps,
      ctx.db.transaction(async (tx) => {
        const [peek] = await tx
          .select({ s: classSessions, batch: batches })
          .from(classSessions)
          .innerJoin(batches, eq(batches.id, classSessions.batchId))
          .where(eq(classSessions.id, input.id))
          .limit(1);
        if (!peek) throw new AppError('NOT_FOUND', SESSION_NOT_FOUND);
        const roomId = input.roomId === undefined ? peek.s.roomId : input.roomId;
        if (roomId) {
          assertId(roomId, 'Room');
          const [room] = await tx.select().from(rooms).where(eq(rooms.id, roomId)).limit(1);
          if (!room) throw new AppError('NOT_FOUND', CLASS_WRITE_MESSAGES.roomNotFound);
          if (room.branchId !== peek.batch.branchId)
            throw new AppError('BAD_REQUEST', CLASS_WRITE_MESSAGES.roomElsewhere(room.name));
        }
        // The locks before the session's row, in the order every writer takes them.
        await lockClassResources(tx, { roomIds: [roomId], userIds: [peek.s.instructorId] });
        const [s] = await tx
          .select()
          .from(classSessions)
          .where(inArray(classSessions.id, [input.id]))
          .for('update')
          .limit(1);
        if (!s) throw new AppError('NOT_FOUND', SESSION_NOT_FOUND);
        if (s.status === 'cancelled') throw new AppError('CONFLICT', SESSION_MESSAGES.cancelled);
        const now = new Date();
        if (s.startAt <= now) throw new AppError('CONFLICT', SESSION_MESSAGES.started);
        const start = input.start ? new Date(input.start) : s.startAt;
        const end = input.end ? new Date(input.end) : s.endAt;
        if (end <= start) throw new AppError('BAD_REQUEST', SESSION_MESSAGES.order);
        if (end.getTime() - start.getTime() > 86_400_000) throw new AppError('BAD_REQUEST', SESSION_MESSAGES.tooLong);
        if (start <= now) throw new AppError('BAD_REQUEST', SESSION_MESSAGES.past);
        await assertNoClash(tx, {
          roomId,
          instructorUserId: s.instructorId,
          start,
          end,
          excludeSessionId: s.id,
          timeZone,
        });
        await tx
          .update(classSessions)
          .set({ startAt: start, endAt: end, roomId, day: dayOf(start, timeZone) })
          .where(eq(classSessions.id, s.id));
        await refreshSummariesOfSession(tx, s.id);
        await recordAudit(tx, ctx, {
          action: 'update',
          entityType: 'class_session',
          entityId: s.id,
          summary: `Moved the ${peek.batch.name} session of ${formatWhen(s.startAt, s.endAt, timeZone)} to ${formatWhen(start, end, timeZone)}`,
          changes: fieldChanges(
            { start: s.startAt.toISOString(), end: s.endAt.toISOString(), roomId: s.roomId },
            { start: start.toISOString(), end: end.toISOString(), roomId },
          ),
        });
        if (start.getTime() !== s.startAt.getTime())
          await planClassSessionMessages(tx, ctx.deps, s.id, { change: 'moved', oldStartAt: s.startAt });
      }),
    );
  } catch (err) {
    throw clashFromConstraint(err) ?? err;
  }
  return sessionDto(ctx.db, input.id);
}
