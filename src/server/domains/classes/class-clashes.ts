/**
 * Room and instructor clashes of class sessions (docs/classes.md#clashes), checked against other
 * class sessions and against live appointments. Callers take `lockClassResources` first, in the
 * same transaction, so two writers of one room or one person check and write one after the other.
 */
import { and, asc, eq, gt, inArray, lt, ne, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { appointments, batches, classSessions, practitioners, rooms, users } from '../../db/schema';
import { AppError, dbErrorText } from '../../errors';
import { formatWhen } from '../../../shared/zoned-time';
import { mostAtOnce } from '../rooms/occupancy';

/** The appointment statuses that occupy a room and a practitioner (the rest free their time). */
export const LIVE_APPOINTMENT_STATUSES = ['scheduled', 'confirmed', 'arrived', 'completed'] as const;

const lockKey = (kind: 'room' | 'person', id: string) => sql`hashtextextended(${`${kind}:${id}`}, 0)`;

/**
 * The lock order (docs/classes.md#locks): every room first, in ascending id order, then every
 * person (an instructor's or a practitioner's user id), in ascending id order; transaction-level
 * advisory locks, released at commit or rollback. Anyone writing class sessions or appointments
 * takes them the same way, so two writers never wait on each other in a circle.
 */
export async function lockClassResources(
  tx: Db,
  p: { roomIds?: ReadonlyArray<string | null | undefined>; userIds?: ReadonlyArray<string | null | undefined> },
): Promise<void> {
  const sorted = (ids: ReadonlyArray<string | null | undefined> = []) =>
    [...new Set(ids.filter((x): x is string => !!x))].sort();
  for (const id of sorted(p.roomIds)) await tx.execute(sql`select pg_advisory_xact_lock(${lockKey('room', id)})`);
  for (const id of sorted(p.userIds)) await tx.execute(sql`select pg_advisory_xact_lock(${lockKey('person', id)})`);
}

export interface ClashQuery {
  roomId?: string | null;
  instructorUserId?: string | null;
  start: Date;
  end: Date;
  /** The session being moved or re-checked, which does not clash with itself. */
  excludeSessionId?: string;
  /** The appointment being moved, which does not fill its own room. */
  excludeAppointmentId?: string;
  /**
   * Whether the instructor's own appointments count (true by default). An appointment's check
   * leaves them out: the appointments' own rules have already weighed them, buffers included.
   */
  instructorAppointments?: boolean;
  /** Names the times in the messages on this zone's clock (TIME_ZONE); ISO instants without it. */
  timeZone?: string;
}

/** The scheduled class sessions in `whose` (a room or an instructor) that overlap q's time, earliest first. */
const classesOverlapping = (tx: Db, whose: SQL, q: ClashQuery) =>
  tx
    .select({ start: classSessions.startAt, end: classSessions.endAt, name: batches.name })
    .from(classSessions)
    .innerJoin(batches, eq(batches.id, classSessions.batchId))
    .where(
      and(
        whose,
        eq(classSessions.status, 'scheduled'),
        lt(classSessions.startAt, q.end),
        gt(classSessions.endAt, q.start),
        // The session being moved or re-checked does not clash with itself.
        q.excludeSessionId ? ne(classSessions.id, q.excludeSessionId) : undefined,
      ),
    )
    .orderBy(asc(classSessions.startAt));

/**
 * What a class session (or an appointment) from `start` to `end` would clash with: the room past
 * its capacity counting scheduled class sessions and live appointments in it, the instructor in
 * another scheduled class session, or in a live appointment where they are the practitioner (up to
 * its `blockedUntil`). One message per clash, naming it; empty when there is none.
 */
export async function classClashes(tx: Db, q: ClashQuery): Promise<string[]> {
  const messages: string[] = [];
  const when = (s: Date, e: Date) => formatWhen(s, e, q.timeZone);
  const notThisVisit = q.excludeAppointmentId ? ne(appointments.id, q.excludeAppointmentId) : undefined;
  if (q.roomId) {
    const [room] = await tx
      .select({ name: rooms.name, capacity: rooms.capacity })
      .from(rooms)
      .where(eq(rooms.id, q.roomId))
      .limit(1);
    if (room) {
      const classes = await classesOverlapping(tx, eq(classSessions.roomId, q.roomId), q);
      const visits = await tx
        .select({ start: appointments.startAt, end: appointments.endAt })
        .from(appointments)
        .where(
          and(
            eq(appointments.roomId, q.roomId),
            inArray(appointments.status, [...LIVE_APPOINTMENT_STATUSES]),
            lt(appointments.startAt, q.end),
            gt(appointments.endAt, q.start),
            notThisVisit,
          ),
        );
      if (mostAtOnce([...classes, ...visits], q.start, q.end) + 1 > room.capacity) {
        const what = [
          ...classes.slice(0, 3).map((c) => `class "${c.name}" (${when(c.start, c.end)})`),
          ...(visits.length ? [`${visits.length === 1 ? 'an appointment' : `${visits.length} appointments`}`] : []),
        ].join(', ');
        messages.push(
          `Room ${room.name} holds ${room.capacity} at a time and is taken ${when(q.start, q.end)} by ${what}.`,
        );
      }
    }
  }
  if (q.instructorUserId) {
    const [person] = await tx
      .select({ name: users.fullName })
      .from(users)
      .where(eq(users.id, q.instructorUserId))
      .limit(1);
    const who = person?.name ?? 'The instructor';
    const [other] = await classesOverlapping(tx, eq(classSessions.instructorId, q.instructorUserId), q).limit(1);
    if (other) messages.push(`${who} already teaches "${other.name}" ${when(other.start, other.end)}.`);
    if (q.instructorAppointments === false) return messages;
    const [visit] = await tx
      .select({ start: appointments.startAt, end: appointments.endAt })
      .from(appointments)
      .innerJoin(practitioners, eq(practitioners.id, appointments.practitionerId))
      .where(
        and(
          eq(practitioners.userId, q.instructorUserId),
          inArray(appointments.status, [...LIVE_APPOINTMENT_STATUSES]),
          lt(appointments.startAt, q.end),
          gt(appointments.blockedUntil, q.start),
          notThisVisit,
        ),
      )
      .orderBy(asc(appointments.startAt))
      .limit(1);
    if (visit) messages.push(`${who} has an appointment ${when(visit.start, visit.end)}.`);
  }
  return messages;
}

const rowsOf = <T>(r: unknown): T[] => (Array.isArray(r) ? (r as T[]) : ((r as { rows?: T[] }).rows ?? []));

/**
 * Of many would-be sessions of one instructor (a timetable's dates), the indexes of those that
 * overlap anything in their room or of their instructor at all: one statement instead of one
 * check per date. Only these go through `classClashes`, which decides exactly (a room of two holds
 * two at once). Call it under the same locks.
 */
export async function possibleClashes(
  tx: Db,
  instructorUserId: string,
  items: ReadonlyArray<{ start: Date; end: Date; roomId: string | null }>,
): Promise<number[]> {
  if (!items.length) return [];
  const json = JSON.stringify(
    items.map((x, i) => ({ i, s: x.start.toISOString(), e: x.end.toISOString(), room: x.roomId })),
  );
  const live = sql.join(
    LIVE_APPOINTMENT_STATUSES.map((st) => sql`${st}`),
    sql`, `,
  );
  const result = await tx.execute(sql`
    select c.i from jsonb_to_recordset(${json}::jsonb) as c(i int, s timestamptz, e timestamptz, room uuid)
     where exists (
             select 1 from class_sessions cs
              where cs.status = 'scheduled' and cs.start_at < c.e and cs.end_at > c.s
                -- a class session lasts at most a day: the bound lets the (room|instructor, start) indexes answer
                and cs.start_at > c.s - interval '1 day'
                and (cs.room_id = c.room or cs.instructor_id = ${instructorUserId}::uuid))
        or exists (
             select 1 from appointments a
              where a.status in (${live}) and a.start_at < c.e
                and ((a.room_id = c.room and a.end_at > c.s)
                  or (a.blocked_until > c.s
                      and a.practitioner_id in (select p.id from practitioners p where p.user_id = ${instructorUserId}::uuid))))
     order by c.i`);
  return rowsOf<{ i: number | string }>(result).map((r) => Number(r.i));
}

/** Refuses (409) a session that clashes, naming the first clash (and how many more there are). */
export async function assertNoClash(tx: Db, q: ClashQuery): Promise<void> {
  const clashes = await classClashes(tx, q);
  if (clashes.length) throw new AppError('CONFLICT', clashes.join(' '), { clashes });
}

/** Who and where an appointment occupies, and when: its room to `end`, its practitioner to `blockedUntil`. */
export interface AppointmentPlace {
  roomId: string | null;
  practitionerId: string;
  start: Date;
  end: Date;
  blockedUntil: Date;
  /** The appointment being moved. */
  excludeAppointmentId?: string;
}

/**
 * The appointments' side of the lock order: the appointment's room, then its practitioner's user
 * (the key an instructor is locked by), before any check. Answers the practitioner's user id (null
 * for a practitioner without a user, who can teach no class). The caller may already hold its
 * booking's row: no writer of class sessions locks bookings, so that cannot wait in a circle.
 */
export async function lockAppointmentResources(tx: Db, place: Pick<AppointmentPlace, 'roomId' | 'practitionerId'>) {
  const [p] = await tx
    .select({ userId: practitioners.userId })
    .from(practitioners)
    .where(eq(practitioners.id, place.practitionerId))
    .limit(1);
  const userId = p?.userId ?? null;
  await lockClassResources(tx, { roomIds: [place.roomId], userIds: [userId] });
  return userId;
}

/**
 * Refuses (409, naming the class) an appointment whose room would pass its capacity counting the
 * scheduled class sessions in it, or whose practitioner teaches a class from its start to the end
 * of its buffer. Call it under lockAppointmentResources.
 */
export async function assertAppointmentClearOfClasses(
  tx: Db,
  timeZone: string,
  practitionerUserId: string | null,
  place: AppointmentPlace,
): Promise<void> {
  const clashes = [
    ...(place.roomId
      ? await classClashes(tx, {
          roomId: place.roomId,
          start: place.start,
          end: place.end,
          excludeAppointmentId: place.excludeAppointmentId,
          timeZone,
        })
      : []),
    ...(practitionerUserId
      ? await classClashes(tx, {
          instructorUserId: practitionerUserId,
          start: place.start,
          end: place.blockedUntil,
          instructorAppointments: false,
          timeZone,
        })
      : []),
  ];
  if (clashes.length) throw new AppError('CONFLICT', clashes.join(' '), { clashes });
}

export const INSTRUCTOR_BUSY = 'The instructor already teaches another class at that time.';

/**
 * The exclusion constraint (migration 0022) refused an instructor's overlapping session that the
 * locked check could not see (a writer that does not take the locks): 409, not 500.
 */
export function clashFromConstraint(err: unknown): AppError | null {
  return dbErrorText(err, 'code') === '23P01' ? new AppError('CONFLICT', INSTRUCTOR_BUSY) : null;
}
