/**
 * A batch's class sessions from its timetable (docs/classes.md#sessions): every slot's weekday
 * between the batch's dates but the branch's closed days, rewritten when the timetable changes
 * while keeping what has started, been cancelled or holds attendance.
 */
import { and, eq, gt, lte, ne, not, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { branchClosures, classSessions } from '../../db/schema';
import { minutesOf, type TBatchValues } from '@shared/schemas/classes';
import type { ServiceContext } from '../context';
import { assertNoClash, lockClassResources, possibleClashes } from './class-clashes';
import { eachDay, instantAt, weekdayOfDay } from '../../../shared/zoned-time';
import { weekdayNumber } from './class-time';
import { hasMarks } from './classes.read';

interface Candidate {
  day: string;
  startAt: Date;
  endAt: Date;
  roomId: string | null;
}

/** The sessions a timetable names: every slot's weekday from start to end, but the branch's closed days. */
async function candidateSessions(tx: Db, v: TBatchValues, timeZone: string): Promise<Candidate[]> {
  if (!v.timetable.length) return [];
  const closed = new Set(
    (
      await tx
        .select({ day: branchClosures.day })
        .from(branchClosures)
        .where(
          and(
            eq(branchClosures.branchId, v.branchId),
            sql`${branchClosures.day} between ${v.startDate} and ${v.endDate}`,
          ),
        )
    ).map((c) => c.day),
  );
  const out: Candidate[] = [];
  for (const day of eachDay(v.startDate, v.endDate)) {
    if (closed.has(day)) continue;
    const weekday = weekdayOfDay(day);
    for (const slot of v.timetable) {
      if (weekdayNumber(slot.weekday) !== weekday) continue;
      out.push({
        day,
        startAt: instantAt(timeZone, day, minutesOf(slot.start)),
        endAt: instantAt(timeZone, day, minutesOf(slot.end)),
        roomId: slot.roomId ?? null,
      });
    }
  }
  return out.sort((a, b) => a.startAt.getTime() - b.startAt.getTime());
}

/**
 * (Re)writes a batch's sessions from its values (docs/classes.md#sessions): the sessions that have
 * not started, are scheduled and hold no attendance are replaced by the timetable's; the others
 * (started, cancelled, or with marks) are kept, and no new session is made at a kept one's start.
 * On a new batch every date is generated, past ones included (a batch entered after it began).
 * The resource locks are taken before anything is checked.
 */
export async function writeSessions(
  tx: Db,
  ctx: ServiceContext,
  batchId: string,
  v: TBatchValues,
  isNew: boolean,
): Promise<{ added: number; removed: number }> {
  const timeZone = ctx.deps.config.TIME_ZONE;
  const now = new Date();
  const kept = isNew
    ? []
    : await tx
        .select()
        .from(classSessions)
        .where(
          and(
            eq(classSessions.batchId, batchId),
            or(lte(classSessions.startAt, now), ne(classSessions.status, 'scheduled'), hasMarks),
          ),
        );
  const keptUnstarted = kept.filter((s) => s.startAt > now && s.status === 'scheduled');
  await lockClassResources(tx, {
    roomIds: [...v.timetable.map((s) => s.roomId), ...keptUnstarted.map((s) => s.roomId)],
    userIds: [v.instructorId],
  });
  let removed = 0;
  if (!isNew) {
    const gone = await tx
      .delete(classSessions)
      .where(
        and(
          eq(classSessions.batchId, batchId),
          gt(classSessions.startAt, now),
          eq(classSessions.status, 'scheduled'),
          not(hasMarks),
        ),
      )
      .returning({ id: classSessions.id });
    removed = gone.length;
    // A kept session still to come moves with the batch's instructor: checked like a new one.
    for (const s of keptUnstarted.filter((k) => k.instructorId !== v.instructorId)) {
      await assertNoClash(tx, {
        instructorUserId: v.instructorId,
        start: s.startAt,
        end: s.endAt,
        excludeSessionId: s.id,
        timeZone,
      });
      await tx.update(classSessions).set({ instructorId: v.instructorId }).where(eq(classSessions.id, s.id));
    }
  }
  const keptStarts = new Set(kept.map((s) => s.startAt.getTime()));
  const fresh = (await candidateSessions(tx, v, timeZone)).filter(
    (c) => (isNew || c.startAt > now) && !keptStarts.has(c.startAt.getTime()),
  );
  // The slots of one batch never overlap each other (ZBatchValues), so the new sessions can only
  // clash with what is already written: checked all at once, then exactly where something overlaps.
  const suspects = await possibleClashes(
    tx,
    v.instructorId,
    fresh.map((c) => ({ start: c.startAt, end: c.endAt, roomId: c.roomId })),
  );
  for (const i of suspects) {
    const c = fresh[i]!;
    await assertNoClash(tx, {
      roomId: c.roomId,
      instructorUserId: v.instructorId,
      start: c.startAt,
      end: c.endAt,
      timeZone,
    });
  }
  for (let i = 0; i < fresh.length; i += 500) {
    await tx
      .insert(classSessions)
      .values(fresh.slice(i, i + 500).map((c) => ({ batchId, instructorId: v.instructorId, ...c })));
  }
  return { added: fresh.length, removed };
}
