import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Db } from '../../src/server/db/client';
import {
  appointments,
  branchClosures,
  practitioners,
  rooms,
  treatmentBookings,
  treatments,
} from '../../src/server/db/schema';
import { addToDate, todayIn } from '../../src/shared/calendar';
import type { TestApp } from './app';

/**
 * Rows the classes tests need from the appointments side (docs/classes.md): rooms, closures and
 * appointments are written directly, as their own paths are not part of this domain.
 */

export const TZ = 'Asia/Colombo';
const suffix = () => randomBytes(3).toString('hex');

/** A date `days` from today in Asia/Colombo. */
export const dayFromToday = (days: number) => addToDate(todayIn(TZ), { days });

/** The instant of `hh:mm` on `day` in Asia/Colombo (+05:30, no daylight saving), as ISO. */
export const colombo = (day: string, hhmm: string) => new Date(`${day}T${hhmm}:00+05:30`).toISOString();

const WEEKDAY_NAMES = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
/** The weekday name of a date, as the timetable names it. */
export const weekdayOf = (day: string) => WEEKDAY_NAMES[new Date(`${day}T00:00:00Z`).getUTCDay()]!;

export async function makeRoom(db: Db, branchId: string, o: { name?: string; capacity?: number } = {}) {
  const [r] = await db
    .insert(rooms)
    .values({ branchId, name: o.name ?? `Room ${suffix()}`, capacity: o.capacity ?? 1 })
    .returning();
  return r!;
}

export async function makeClosure(db: Db, branchId: string, day: string) {
  await db.insert(branchClosures).values({ branchId, day, reason: 'Holiday' });
}

/** A live appointment (a booking of a throwaway treatment underneath) of the practitioner user, maybe in a room. */
export async function makeAppointment(
  db: Db,
  o: {
    branchId: string;
    practitionerUserId: string;
    roomId?: string | null;
    start: string;
    end: string;
    status?: (typeof appointments.$inferInsert)['status'];
  },
) {
  const [treatment] = await db
    .insert(treatments)
    .values({
      treatmentName: `Therapy ${suffix()}`,
      localPrice: 100,
      foreignPrice: 100,
      maxSessions: 5,
      installments: 1,
    })
    .returning();
  const [booking] = await db
    .insert(treatmentBookings)
    .values({
      treatmentId: treatment!.id,
      treatmentName: treatment!.treatmentName,
      maxSessions: 5,
      userType: 'local',
      paymentType: 'full',
      price: 100,
      currency: 'LKR',
      bookedOn: todayIn(TZ),
    })
    .returning();
  const [existing] = await db
    .insert(practitioners)
    .values({ userId: o.practitionerUserId })
    .onConflictDoNothing()
    .returning();
  const practitionerId =
    existing?.id ??
    (await db.select().from(practitioners).where(eq(practitioners.userId, o.practitionerUserId)))[0]!.id;
  const [a] = await db
    .insert(appointments)
    .values({
      bookingId: booking!.id,
      treatmentId: treatment!.id,
      practitionerId,
      branchId: o.branchId,
      roomId: o.roomId ?? null,
      startAt: new Date(o.start),
      endAt: new Date(o.end),
      blockedUntil: new Date(o.end),
      status: o.status ?? 'scheduled',
    })
    .returning();
  return a!;
}

export interface BatchBody {
  name?: string;
  courseId: string;
  branchId: string;
  instructorId: string;
  startDate: string;
  endDate: string;
  capacity?: number;
  timetable: Array<{ weekday: string; start: string; end: string; roomId?: string | null }>;
}

/** POST /api/batches as the token's user; the test fails unless it answers 201. */
export async function postBatch(t: Pick<TestApp, 'api'>, token: string, body: BatchBody) {
  const res = await t.api('POST', '/api/batches', {
    token,
    body: { name: `Batch ${suffix()}`, capacity: 20, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { _id: string; name: string; [k: string]: unknown };
}

/** An enrolment of a new student (of the branch) on the course, through the API; answers its id and the student. */
export async function enrolStudent(
  t: TestApp,
  token: string,
  courseId: string,
  o: { branchId?: string | null; fullName?: string } = {},
) {
  const student = await t.userWithSession('student', { branchId: o.branchId ?? null, fullName: o.fullName });
  const res = await t.api('POST', '/api/enrollments', {
    token,
    body: { email: student.email, courseId, paymentType: 'installment' },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { enrollmentId: res.body._id as string, student };
}
