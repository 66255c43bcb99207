/**
 * Reading batches and sessions, and who may (docs/classes.md#who-may-do-what): staff read every
 * batch of their branch scope; the batch's instructor, whatever their role, reaches its sessions
 * and register. The role middleware lets any signed-in caller through to those paths, so the
 * check is here, in the service.
 */
import { and, asc, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { batches, batchMembers, batchSlots, branches, classSessions, courses, rooms, users } from '../../db/schema';
import { AppError } from '../../errors';
import { FORBIDDEN_MESSAGE } from '../../http/access';
import { isStaff } from '../../../shared/roles';
import { timeOfMinutes, type TBatch, type TClassSession } from '@shared/schemas/classes';
import { branchCondition, branchScopeOf } from '../branch-scope';
import type { ServiceContext, SystemContext } from '../context';
import { assertId } from '../ids';
import { weekdayName } from './class-time';

export const BATCH_NOT_FOUND = 'Batch not found.';
export const SESSION_NOT_FOUND = 'Class session not found.';

export type BatchRow = typeof batches.$inferSelect;
export type SessionRow = typeof classSessions.$inferSelect;

/** A limited manager's batches are those of their branch (docs/security.md#branch-scope). */
export async function batchScope(ctx: Pick<SystemContext, 'db' | 'actor'>): Promise<SQL | undefined> {
  return branchCondition(await branchScopeOf(ctx), batches.branchId);
}

/** A batch a member of staff may read: out of scope answers like a missing one. */
export async function batchForStaff(ctx: SystemContext, id: string, db: Db = ctx.db): Promise<BatchRow> {
  assertId(id, 'Batch');
  const [row] = await db
    .select()
    .from(batches)
    .where(and(eq(batches.id, id), await batchScope(ctx)))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', BATCH_NOT_FOUND);
  return row;
}

/**
 * Staff (within their branch scope) and the batch's own instructor may read its sessions and take
 * its attendance; anyone else is refused 403, and staff outside the scope get 404.
 */
export async function assertClassAccess(ctx: ServiceContext, batch: Pick<BatchRow, 'instructorId' | 'branchId'>) {
  if (batch.instructorId === ctx.actor.id) return;
  if (!isStaff(ctx.actor.role)) throw new AppError('FORBIDDEN', FORBIDDEN_MESSAGE);
  const scope = await branchScopeOf(ctx);
  if (scope && (!scope.branchId || batch.branchId !== scope.branchId)) throw new AppError('NOT_FOUND', BATCH_NOT_FOUND);
}

/** A session and its batch, for a caller who may reach that batch's sessions. */
export async function sessionForClass(
  ctx: ServiceContext,
  id: string,
  db: Db = ctx.db,
): Promise<{ session: SessionRow; batch: BatchRow }> {
  assertId(id, 'Class session');
  const [row] = await db
    .select({ session: classSessions, batch: batches })
    .from(classSessions)
    .innerJoin(batches, eq(batches.id, classSessions.batchId))
    .where(eq(classSessions.id, id))
    .limit(1);
  // Someone outside the staff learns nothing of sessions that are not theirs, not even that they exist.
  if (!row && !isStaff(ctx.actor.role)) throw new AppError('FORBIDDEN', FORBIDDEN_MESSAGE);
  if (!row) throw new AppError('NOT_FOUND', SESSION_NOT_FOUND);
  try {
    await assertClassAccess(ctx, row.batch);
  } catch (err) {
    if (err instanceof AppError && err.code === 'NOT_FOUND') throw new AppError('NOT_FOUND', SESSION_NOT_FOUND);
    throw err;
  }
  return row;
}

/** Batches as the API answers them, with their timetable and how many seats are taken. */
export async function toBatchDtos(db: Db, rows: BatchRow[]): Promise<TBatch[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const [slots, places, names] = await Promise.all([
    db
      .select({ slot: batchSlots, roomName: rooms.name })
      .from(batchSlots)
      .leftJoin(rooms, eq(rooms.id, batchSlots.roomId))
      .where(inArray(batchSlots.batchId, ids))
      .orderBy(asc(batchSlots.weekday), asc(batchSlots.startMinute)),
    db
      .select({ batchId: batchMembers.batchId, status: batchMembers.status, n: count() })
      .from(batchMembers)
      .where(inArray(batchMembers.batchId, ids))
      .groupBy(batchMembers.batchId, batchMembers.status),
    db
      .select({ id: batches.id, course: courses.courseName, branch: branches.name, instructor: users.fullName })
      .from(batches)
      .leftJoin(courses, eq(courses.id, batches.courseId))
      .leftJoin(branches, eq(branches.id, batches.branchId))
      .leftJoin(users, eq(users.id, batches.instructorId))
      .where(inArray(batches.id, ids)),
  ]);
  const nameOf = new Map(names.map((n) => [n.id, n]));
  const placesOf = (id: string, status: 'member' | 'waitlist') =>
    places.find((p) => p.batchId === id && p.status === status)?.n ?? 0;
  return rows.map((b) => {
    const n = nameOf.get(b.id);
    return {
      _id: b.id,
      name: b.name,
      course: b.courseId && n?.course != null ? { _id: b.courseId, courseName: n.course } : null,
      branch: b.branchId && n?.branch != null ? { _id: b.branchId, name: n.branch } : null,
      instructor: b.instructorId && n?.instructor != null ? { _id: b.instructorId, fullName: n.instructor } : null,
      startDate: b.startDate,
      endDate: b.endDate,
      capacity: b.capacity,
      timetable: slots
        .filter((s) => s.slot.batchId === b.id)
        .map(({ slot, roomName }) => ({
          weekday: weekdayName(slot.weekday),
          start: timeOfMinutes(slot.startMinute),
          end: timeOfMinutes(slot.endMinute),
          roomId: slot.roomId,
          room: slot.roomId && roomName != null ? { _id: slot.roomId, name: roomName } : null,
        })),
      status: b.status,
      seatsTaken: placesOf(b.id, 'member'),
      waitlisted: placesOf(b.id, 'waitlist'),
      createdAt: b.createdAt.toISOString(),
      updatedAt: b.updatedAt.toISOString(),
    };
  });
}

const sessionRoom = alias(rooms, 'session_room');
const sessionInstructor = alias(users, 'session_instructor');

/** Sessions (with their batch's name, room and instructor) matching `where`, in start order. */
export async function selectSessionDtos(db: Db, where: SQL | undefined, limit = 2000): Promise<TClassSession[]> {
  const rows = await db
    .select({
      s: classSessions,
      batchName: batches.name,
      roomName: sessionRoom.name,
      instructorName: sessionInstructor.fullName,
    })
    .from(classSessions)
    .innerJoin(batches, eq(batches.id, classSessions.batchId))
    .leftJoin(sessionRoom, eq(sessionRoom.id, classSessions.roomId))
    .leftJoin(sessionInstructor, eq(sessionInstructor.id, classSessions.instructorId))
    .where(where)
    .orderBy(asc(classSessions.startAt), asc(classSessions.id))
    .limit(limit);
  return rows.map((r) => ({
    _id: r.s.id,
    batch: { _id: r.s.batchId, name: r.batchName },
    instructor:
      r.s.instructorId && r.instructorName != null ? { _id: r.s.instructorId, fullName: r.instructorName } : null,
    start: r.s.startAt.toISOString(),
    end: r.s.endAt.toISOString(),
    day: r.s.day,
    room: r.s.roomId && r.roomName != null ? { _id: r.s.roomId, name: r.roomName } : null,
    status: r.s.status,
    reason: r.s.reason,
  }));
}

export async function sessionDto(db: Db, id: string): Promise<TClassSession> {
  const [dto] = await selectSessionDtos(db, eq(classSessions.id, id), 1);
  if (!dto) throw new AppError('NOT_FOUND', SESSION_NOT_FOUND);
  return dto;
}

/** Sessions of a batch that hold at least one attendance mark. */
export const hasMarks = sql`exists (select 1 from attendance_marks m where m.session_id = ${classSessions.id})`;
