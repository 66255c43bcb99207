/**
 * Batches and their timetable (docs/classes.md#batches): admins create, change and delete them;
 * saving one generates its class sessions, checked for room and instructor clashes under the
 * resource locks (class-clashes.ts).
 */
import { and, asc, count, desc, eq, gt, inArray, not } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { firstRow } from '../../db/rows';
import {
  attendanceMarks,
  batches,
  batchMembers,
  batchSlots,
  branches,
  classSessions,
  courses,
  rooms,
  users,
} from '../../db/schema';
import { AppError, fromZodError } from '../../errors';
import {
  minutesOf,
  ZBatchValues,
  type TBatch,
  type TBatchValues,
  type TCreateBatchInput,
  type TListBatchesInput,
  type TUpdateBatchInput,
} from '@shared/schemas/classes';
import { fieldChanges, recordAudit } from '../audit/audit.service';
import type { ServiceContext, SystemContext } from '../context';
import { assertId, isUuid } from '../ids';
import { afterWrite } from '../read-cache';
import { clashFromConstraint } from './class-clashes';
import { weekdayName, weekdayNumber } from './class-time';
import { batchForStaff, batchScope, BATCH_NOT_FOUND, hasMarks, toBatchDtos, type BatchRow } from './classes.read';
import { promoteWaitlist } from './roster.service';
import { writeSessions } from './batch-sessions';

export const CLASS_WRITE_MESSAGES = {
  courseNotFound: 'Course not found.',
  branchNotFound: 'Branch not found.',
  instructorNotFound: 'Instructor not found.',
  roomNotFound: 'Room not found.',
  roomElsewhere: (name: string) => `Room ${name} is at another branch than the batch.`,
  rosterBelow: (n: number) =>
    `${n} ${n === 1 ? 'student is' : 'students are'} on the roster: the capacity cannot go below that.`,
  courseFixed: 'Students are on this batch: its course cannot change.',
  branchFixed: 'Students are on this batch: its branch cannot change.',
} as const;

export async function listBatches(ctx: SystemContext, input: TListBatchesInput): Promise<{ data: TBatch[] }> {
  // A malformed id matches nothing, as a filter on an unknown course would.
  const bad = (id?: string) => id !== undefined && !isUuid(id);
  if (bad(input.courseId) || bad(input.branchId)) return { data: [] };
  const rows = await ctx.db
    .select()
    .from(batches)
    .where(
      and(
        input.courseId ? eq(batches.courseId, input.courseId) : undefined,
        input.branchId ? eq(batches.branchId, input.branchId) : undefined,
        await batchScope(ctx),
      ),
    )
    .orderBy(desc(batches.startDate), asc(batches.name), asc(batches.id))
    .limit(1000);
  return { data: await toBatchDtos(ctx.db, rows) };
}

export async function getBatch(ctx: SystemContext, id: string): Promise<TBatch> {
  const row = await batchForStaff(ctx, id);
  return firstRow(await toBatchDtos(ctx.db, [row]));
}

/** The references of a batch's values: they exist, and every room is at the batch's branch. */
async function assertReferences(db: Db, v: TBatchValues): Promise<void> {
  assertId(v.courseId, 'Course');
  assertId(v.branchId, 'Branch');
  assertId(v.instructorId, 'Instructor');
  const [[course], [branch], [instructor]] = await Promise.all([
    db.select({ id: courses.id }).from(courses).where(eq(courses.id, v.courseId)).limit(1),
    db.select({ id: branches.id }).from(branches).where(eq(branches.id, v.branchId)).limit(1),
    db.select({ id: users.id }).from(users).where(eq(users.id, v.instructorId)).limit(1),
  ]);
  if (!course) throw new AppError('NOT_FOUND', CLASS_WRITE_MESSAGES.courseNotFound);
  if (!branch) throw new AppError('NOT_FOUND', CLASS_WRITE_MESSAGES.branchNotFound);
  if (!instructor) throw new AppError('NOT_FOUND', CLASS_WRITE_MESSAGES.instructorNotFound);
  const roomIds = [...new Set(v.timetable.map((s) => s.roomId).filter((x): x is string => !!x))];
  for (const id of roomIds) assertId(id, 'Room');
  if (!roomIds.length) return;
  const found = await db.select().from(rooms).where(inArray(rooms.id, roomIds));
  if (found.length !== roomIds.length) throw new AppError('NOT_FOUND', CLASS_WRITE_MESSAGES.roomNotFound);
  const elsewhere = found.find((r) => r.branchId !== v.branchId);
  if (elsewhere) throw new AppError('BAD_REQUEST', CLASS_WRITE_MESSAGES.roomElsewhere(elsewhere.name));
}

const auditView = (b: BatchRow, v: TBatchValues) => ({
  name: b.name,
  courseId: b.courseId,
  branchId: b.branchId,
  instructorId: b.instructorId,
  startDate: b.startDate,
  endDate: b.endDate,
  capacity: b.capacity,
  status: b.status,
  timetable: v.timetable
    .map((s) => `${s.weekday} ${s.start}–${s.end}${s.roomId ? ` room ${s.roomId}` : ''}`)
    .join('; '),
});

/** A write that may meet the instructor exclusion constraint: its refusal is a 409. */
async function guarded<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (err) {
    throw clashFromConstraint(err) ?? err;
  }
}

export async function createBatch(ctx: ServiceContext, input: TCreateBatchInput): Promise<TBatch> {
  await assertReferences(ctx.db, input);
  const row = await afterWrite(
    ctx.deps,
    guarded(
      ctx.db.transaction(async (tx) => {
        const b = firstRow(
          await tx
            .insert(batches)
            .values({
              name: input.name,
              courseId: input.courseId,
              branchId: input.branchId,
              instructorId: input.instructorId,
              startDate: input.startDate,
              endDate: input.endDate,
              capacity: input.capacity,
            })
            .returning(),
        );
        // The slots reference their rooms (a key-share lock on each room's row), so they are
        // written after writeSessions has taken the resource locks: the appointment writer holding
        // a room's advisory lock then locks that room's row, and must not find it held here.
        const { added } = await writeSessions(tx, ctx, b.id, input, true);
        await insertSlots(tx, b.id, input);
        await recordAudit(tx, ctx, {
          action: 'create',
          entityType: 'batch',
          entityId: b.id,
          summary: `Created batch ${b.name} with ${added} ${added === 1 ? 'session' : 'sessions'}`,
          changes: fieldChanges(null, auditView(b, input)),
        });
        return b;
      }),
    ),
  );
  return firstRow(await toBatchDtos(ctx.db, [row]));
}

async function insertSlots(tx: Db, batchId: string, v: TBatchValues) {
  if (!v.timetable.length) return;
  await tx.insert(batchSlots).values(
    v.timetable.map((s) => ({
      batchId,
      weekday: weekdayNumber(s.weekday),
      startMinute: minutesOf(s.start),
      endMinute: minutesOf(s.end),
      roomId: s.roomId ?? null,
    })),
  );
}

/** A stored batch as the values its input names (the timetable read back from its slots). */
async function valuesOf(tx: Db, b: BatchRow): Promise<TBatchValues> {
  const slots = await tx
    .select()
    .from(batchSlots)
    .where(eq(batchSlots.batchId, b.id))
    .orderBy(asc(batchSlots.weekday), asc(batchSlots.startMinute));
  const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  return {
    name: b.name,
    courseId: b.courseId ?? '',
    branchId: b.branchId ?? '',
    instructorId: b.instructorId ?? '',
    startDate: b.startDate,
    endDate: b.endDate,
    capacity: b.capacity,
    timetable: slots.map((s) => ({
      weekday: weekdayName(s.weekday),
      start: hhmm(s.startMinute),
      end: hhmm(s.endMinute),
      roomId: s.roomId,
    })),
  };
}

/**
 * PUT takes any of the fields: they are laid over the stored batch and the whole is checked as a
 * create would be. A change of timetable, dates, branch or instructor rewrites the sessions to
 * come; a larger capacity lets the waiting list in.
 */
export async function updateBatch(ctx: ServiceContext, input: TUpdateBatchInput): Promise<TBatch> {
  assertId(input.id, 'Batch');
  const row = await afterWrite(
    ctx.deps,
    guarded(
      ctx.db.transaction(async (tx) => {
        const [before] = await tx.select().from(batches).where(eq(batches.id, input.id)).for('update').limit(1);
        if (!before) throw new AppError('NOT_FOUND', BATCH_NOT_FOUND);
        const old = await valuesOf(tx, before);
        const { id: _id, ...changes } = input;
        const given = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
        const parsed = ZBatchValues.safeParse({ ...old, ...given });
        if (!parsed.success) throw fromZodError(parsed.error);
        const v = parsed.data;
        await assertReferences(tx, v);
        const [members] = await tx
          .select({ n: count() })
          .from(batchMembers)
          .where(and(eq(batchMembers.batchId, before.id), eq(batchMembers.status, 'member')));
        const seated = members?.n ?? 0;
        if (seated > 0 && v.courseId !== old.courseId) throw new AppError('CONFLICT', CLASS_WRITE_MESSAGES.courseFixed);
        if (seated > 0 && v.branchId !== old.branchId) throw new AppError('CONFLICT', CLASS_WRITE_MESSAGES.branchFixed);
        if (v.capacity < seated) throw new AppError('CONFLICT', CLASS_WRITE_MESSAGES.rosterBelow(seated));
        const after = firstRow(
          await tx
            .update(batches)
            .set({
              name: v.name,
              courseId: v.courseId,
              branchId: v.branchId,
              instructorId: v.instructorId,
              startDate: v.startDate,
              endDate: v.endDate,
              capacity: v.capacity,
            })
            .where(eq(batches.id, before.id))
            .returning(),
        );
        const timetableChanged = JSON.stringify(old.timetable) !== JSON.stringify(sortSlots(v.timetable));
        const reschedule =
          timetableChanged ||
          v.startDate !== old.startDate ||
          v.endDate !== old.endDate ||
          v.branchId !== old.branchId ||
          v.instructorId !== old.instructorId;
        let summary = `Updated batch ${after.name}`;
        if (reschedule && before.status === 'open') {
          // Slots after the resource locks, as on create.
          const { added, removed } = await writeSessions(tx, ctx, before.id, v, false);
          if (timetableChanged) {
            await tx.delete(batchSlots).where(eq(batchSlots.batchId, before.id));
            await insertSlots(tx, before.id, v);
          }
          summary += `: ${removed} sessions to come replaced by ${added}`;
        }
        if (v.capacity > before.capacity) await promoteWaitlist(tx, ctx, after);
        const fields = fieldChanges(auditView(before, old), auditView(after, v));
        if (fields.length)
          await recordAudit(tx, ctx, {
            action: 'update',
            entityType: 'batch',
            entityId: after.id,
            summary,
            changes: fields,
          });
        return after;
      }),
    ),
  );
  return firstRow(await toBatchDtos(ctx.db, [row]));
}

/** Slots in the order valuesOf reads them, so an unchanged timetable compares equal. */
function sortSlots(slots: TBatchValues['timetable']) {
  return [...slots]
    .map((s) => ({ weekday: s.weekday, start: s.start, end: s.end, roomId: s.roomId ?? null }))
    .sort((a, b) => weekdayNumber(a.weekday) - weekdayNumber(b.weekday) || minutesOf(a.start) - minutesOf(b.start));
}

export const BATCH_DELETED = 'Batch deleted.';
export const BATCH_CLOSED =
  'The batch has attendance, so it was closed instead of deleted: its sessions to come are removed and its register is kept.';

/**
 * Deleting a batch without attendance removes it with its sessions and roster. One with attendance
 * is closed instead (200): its register stays, the sessions to come without marks go (freeing
 * their rooms), and it takes no new students.
 */
export async function deleteBatch(ctx: ServiceContext, id: string): Promise<{ message: string }> {
  assertId(id, 'Batch');
  return afterWrite(
    ctx.deps,
    ctx.db.transaction(async (tx) => {
      const [b] = await tx.select().from(batches).where(eq(batches.id, id)).for('update').limit(1);
      if (!b) throw new AppError('NOT_FOUND', BATCH_NOT_FOUND);
      const [marks] = await tx
        .select({ n: count() })
        .from(attendanceMarks)
        .innerJoin(classSessions, eq(classSessions.id, attendanceMarks.sessionId))
        .where(eq(classSessions.batchId, id));
      if ((marks?.n ?? 0) === 0) {
        await tx.delete(batches).where(eq(batches.id, id));
        await recordAudit(tx, ctx, {
          action: 'delete',
          entityType: 'batch',
          entityId: id,
          summary: `Deleted batch ${b.name}`,
        });
        return { message: BATCH_DELETED };
      }
      const now = new Date();
      await tx
        .delete(classSessions)
        .where(and(eq(classSessions.batchId, id), gt(classSessions.startAt, now), not(hasMarks)));
      await tx.delete(batchMembers).where(and(eq(batchMembers.batchId, id), eq(batchMembers.status, 'waitlist')));
      await tx.update(batches).set({ status: 'closed' }).where(eq(batches.id, id));
      await recordAudit(tx, ctx, {
        action: 'update',
        entityType: 'batch',
        entityId: id,
        summary: `Closed batch ${b.name} (it has attendance)`,
        changes: [{ field: 'status', before: b.status, after: 'closed' }],
      });
      return { message: BATCH_CLOSED };
    }),
  );
}
