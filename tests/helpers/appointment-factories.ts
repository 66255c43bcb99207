/**
 * The calendar's resources for appointment tests, written straight into the database: treatments
 * with their timing, practitioners with branches, treatments and weekly plans, rooms, time off
 * and closures. Bookings go through the API (POST /api/bookings/book), so they carry their
 * instalments as a real booking does.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { Db } from '../../src/server/db/client';
import {
  branchClosures,
  practitionerBranches,
  practitioners,
  practitionerTimeOff,
  practitionerTreatments,
  rooms,
  treatments,
  workingPeriods,
} from '../../src/server/db/schema';
import { addToDate, todayIn } from '../../src/shared/calendar';
import type { TestApp } from './app';
import { makeUser } from './factories';

export const TZ = 'Asia/Colombo';

/** `2027-01-04T09:00:00+05:30`: a wall-clock time of a day in Asia/Colombo. */
export const at = (day: string, hhmm: string) => `${day}T${hhmm}:00+05:30`;
/** The same instant as the API answers it (UTC). */
export const iso = (day: string, hhmm: string) => new Date(at(day, hhmm)).toISOString();

/** The day `n` days from today in Asia/Colombo. */
export const dayFromToday = (n: number) => addToDate(todayIn(TZ), { days: n });

/** The first day at least `n` days ahead that falls on `weekday` (1 = Monday … 7 = Sunday). */
export function nextWeekday(weekday: number, n = 7): string {
  let day = dayFromToday(n);
  while (((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7) + 1 !== weekday) day = addToDate(day, { days: 1 });
  return day;
}

export async function makeTimedTreatment(
  db: Db,
  o: Partial<{ sessionMinutes: number; bufferMinutes: number; requiresRoom: boolean; maxSessions: number }> = {},
) {
  const [row] = await db
    .insert(treatments)
    .values({
      treatmentName: `Therapy ${randomBytes(3).toString('hex')}`,
      localPrice: 1_000_000,
      foreignPrice: 20_000,
      maxSessions: o.maxSessions ?? 10,
      installments: 2,
      sessionMinutes: o.sessionMinutes ?? 60,
      bufferMinutes: o.bufferMinutes ?? 0,
      requiresRoom: o.requiresRoom ?? false,
    })
    .returning();
  return row!;
}

/** A booking of the treatment for a new customer (or the given one), made through the API. */
export async function makeBooking(
  t: TestApp,
  token: string,
  treatmentId: string,
  customer?: { id: string },
): Promise<{ id: string; customerId: string }> {
  const who = customer ?? (await makeUser(t.deps.db, { role: 'customer' }));
  const res = await t.api('POST', '/api/bookings/book', {
    token,
    body: { treatmentId, userId: who.id, userType: 'local', paymentType: 'installment' },
  });
  expect(res.status).toBe(201);
  return { id: res.body._id as string, customerId: who.id };
}

/** Minutes after midnight of `09:00`. */
export const minuteOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * A practitioner (a user of their own) delivering the treatments at the branches, with the same
 * working periods at each branch on each of `weekdays` (every day by default).
 */
export async function makePractitioner(
  db: Db,
  o: {
    branchIds: string[];
    treatmentIds: string[];
    periods?: Array<[string, string]>;
    weekdays?: number[];
    active?: boolean;
    fullName?: string;
  },
) {
  const fullName = o.fullName ?? `Therapist ${randomBytes(3).toString('hex')}`;
  const user = await makeUser(db, { role: 'user', fullName });
  const [p] = await db
    .insert(practitioners)
    .values({ userId: user.id, active: o.active ?? true })
    .returning();
  const id = p!.id;
  if (o.branchIds.length)
    await db.insert(practitionerBranches).values(o.branchIds.map((branchId) => ({ practitionerId: id, branchId })));
  if (o.treatmentIds.length)
    await db
      .insert(practitionerTreatments)
      .values(o.treatmentIds.map((treatmentId) => ({ practitionerId: id, treatmentId })));
  const periods = o.periods ?? [
    ['09:00', '13:00'],
    ['14:00', '18:00'],
  ];
  const weekdays = o.weekdays ?? [1, 2, 3, 4, 5, 6, 7];
  const rows = o.branchIds.flatMap((branchId) =>
    weekdays.flatMap((weekday) =>
      periods.map(([s, e]) => ({
        practitionerId: id,
        branchId,
        weekday,
        startMinute: minuteOf(s),
        endMinute: minuteOf(e),
      })),
    ),
  );
  if (rows.length) await db.insert(workingPeriods).values(rows);
  return { id, userId: user.id, fullName };
}

export async function makeRoom(db: Db, branchId: string, o: Partial<{ name: string; capacity: number }> = {}) {
  const [r] = await db
    .insert(rooms)
    .values({ branchId, name: o.name ?? `Room ${randomBytes(2).toString('hex')}`, capacity: o.capacity ?? 1 })
    .returning();
  return r!;
}

export async function addTimeOff(db: Db, practitionerId: string, start: string, end: string, reason = 'Leave') {
  await db
    .insert(practitionerTimeOff)
    .values({ practitionerId, startAt: new Date(start), endAt: new Date(end), reason });
}

export async function addClosure(db: Db, branchId: string, day: string, reason = 'Holiday') {
  await db.insert(branchClosures).values({ branchId, day, reason });
}
