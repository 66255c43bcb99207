import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments } from '../../src/server/db/schema';
import { addToDate } from '../../src/shared/calendar';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeBranch, type MadeUser } from '../helpers/factories';
import {
  addClosure,
  addTimeOff,
  at,
  dayFromToday,
  iso,
  makeBooking,
  makePractitioner,
  makeRoom,
  makeTimedTreatment,
  nextWeekday,
  TZ,
} from '../helpers/appointment-factories';
import { dayText } from '../helpers/day-text';

/**
 * Series and availability (docs/appointments.md#series, #availability): a weekly series skips
 * and names the dates it cannot book, allOrNothing stores nothing on a conflict, and availability
 * offers exactly what can be booked (a property checked slot by slot over a whole day).
 */
let t: TestApp;
let admin: MadeUser & { token: string };

beforeAll(async () => {
  t = await startTestApp();
  expect(t.deps.config.TIME_ZONE).toBe(TZ);
  expect(t.deps.config.SLOT_STEP_MINUTES).toBe(15);
  admin = await t.userWithSession('admin');
});
afterAll(() => t.close());

const series = (body: Record<string, unknown>) =>
  t.api('POST', '/api/appointments/series', { token: admin.token, body });

async function clinic(maxSessions = 10) {
  const branch = await makeBranch(t.deps.db);
  const treatment = await makeTimedTreatment(t.deps.db, { maxSessions });
  const practitioner = await makePractitioner(t.deps.db, { branchIds: [branch.id], treatmentIds: [treatment.id] });
  const booking = await makeBooking(t, admin.token, treatment.id);
  return {
    branch,
    treatment,
    practitioner,
    booking,
    base: { bookingId: booking.id, practitionerId: practitioner.id, branchId: branch.id },
  };
}

describe('series', () => {
  it('books weekly, skips and names the dates it cannot book, and goes on until count are booked', async () => {
    const c = await clinic();
    const monday = nextWeekday(1);
    const week = (n: number) => addToDate(monday, { weeks: n });
    await addClosure(t.deps.db, c.branch.id, week(1), 'Poya day');
    await addTimeOff(t.deps.db, c.practitioner.id, at(week(2), '00:00'), at(week(2), '23:59'), 'Course');
    const res = await series({ ...c.base, start: at(monday, '10:00'), everyWeeks: 1, count: 4 });
    expect(res.status).toBe(201);
    expect(res.body.created.map((a: { start: string }) => a.start)).toEqual(
      [0, 3, 4, 5].map((n) => iso(week(n), '10:00')),
    );
    expect(res.body.conflicts).toEqual([
      { start: iso(week(1), '10:00'), message: `${c.branch.name} is closed on ${dayText(week(1))} (Poya day).` },
      {
        start: iso(week(2), '10:00'),
        message: `${c.practitioner.fullName} has time off then (${dayText(week(2))}, 00:00–23:59: Course).`,
      },
    ]);
  });

  it('takes weekdays and every how many weeks, and stops when the booking’s sessions run out', async () => {
    const c = await clinic(3);
    const monday = nextWeekday(1);
    const res = await series({
      ...c.base,
      start: at(monday, '15:00'),
      everyWeeks: 2,
      weekdays: ['thursday', 'monday'],
      count: 5,
    });
    expect(res.status).toBe(201);
    expect(res.body.created.map((a: { start: string }) => a.start)).toEqual([
      iso(monday, '15:00'),
      iso(addToDate(monday, { days: 3 }), '15:00'),
      iso(addToDate(monday, { weeks: 2 }), '15:00'),
    ]);
    expect(res.body.conflicts).toEqual([]);
    const none = await series({
      ...c.base,
      start: at(addToDate(monday, { weeks: 8 }), '15:00'),
      everyWeeks: 1,
      count: 1,
    });
    expect([none.status, none.body.message]).toEqual([
      409,
      'No session is left on this booking: 3 in all, 0 completed and 3 booked.',
    ]);
  });

  it('with allOrNothing, a conflict answers 409 with the conflicts and stores nothing', async () => {
    const c = await clinic();
    const monday = nextWeekday(1);
    await addClosure(t.deps.db, c.branch.id, addToDate(monday, { weeks: 2 }), 'Vesak');
    const res = await series({ ...c.base, start: at(monday, '09:00'), everyWeeks: 1, count: 3, allOrNothing: true });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('One date of the series cannot be booked, so none was booked.');
    expect(res.body.details.conflicts).toEqual([
      {
        start: iso(addToDate(monday, { weeks: 2 }), '09:00'),
        message: `${c.branch.name} is closed on ${dayText(addToDate(monday, { weeks: 2 }))} (Vesak).`,
      },
    ]);
    expect(await t.deps.db.select().from(appointments).where(eq(appointments.bookingId, c.booking.id))).toEqual([]);
  });

  it('refuses bad input with 400', async () => {
    const c = await clinic();
    const start = at(nextWeekday(1), '09:00');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ everyWeeks: 5, count: 2 }, 'Every how many weeks must be a whole number from 1 to 4.'],
      [{ everyWeeks: 1, count: 0 }, 'Count must be a whole number from 1 to 100.'],
      [
        { everyWeeks: 1, count: 2, weekdays: ['monday', 'monday'] },
        'Weekdays must be a list of days (monday, tuesday, wednesday, thursday, friday, saturday, sunday), each at most once.',
      ],
    ];
    for (const [change, message] of cases) {
      const res = await series({ ...c.base, start, ...change });
      expect([res.status, res.body.message]).toEqual([400, message]);
    }
  });
});

describe('availability', () => {
  it('offers exactly the slots that can be booked: every offered one books, no other start of the day does', async () => {
    const branch = await makeBranch(t.deps.db);
    const treatment = await makeTimedTreatment(t.deps.db, {
      sessionMinutes: 45,
      bufferMinutes: 15,
      requiresRoom: true,
      maxSessions: 500,
    });
    const room = await makeRoom(t.deps.db, branch.id, { name: 'Only', capacity: 1 });
    const p1 = await makePractitioner(t.deps.db, {
      branchIds: [branch.id],
      treatmentIds: [treatment.id],
      periods: [
        ['09:00', '13:00'],
        ['14:00', '17:00'],
      ],
    });
    const p2 = await makePractitioner(t.deps.db, {
      branchIds: [branch.id],
      treatmentIds: [treatment.id],
      periods: [['10:00', '13:00']],
    });
    const day = dayFromToday(5);
    // P1 busy 10:00–10:45 (free again at 11:00) in the room; P2 off 11:00–11:30; the room taken
    // 15:00–16:00 by a practitioner of another treatment.
    const taken = await makeBooking(t, admin.token, treatment.id);
    const first = await t.api('POST', '/api/appointments', {
      token: admin.token,
      body: {
        bookingId: taken.id,
        practitionerId: p1.id,
        branchId: branch.id,
        roomId: room.id,
        start: at(day, '10:00'),
      },
    });
    expect(first.status).toBe(201);
    await addTimeOff(t.deps.db, p2.id, at(day, '11:00'), at(day, '11:30'));
    const otherTreatment = await makeTimedTreatment(t.deps.db);
    const p3 = await makePractitioner(t.deps.db, { branchIds: [branch.id], treatmentIds: [otherTreatment.id] });
    const otherBooking = await makeBooking(t, admin.token, otherTreatment.id);
    const roomUse = await t.api('POST', '/api/appointments', {
      token: admin.token,
      body: {
        bookingId: otherBooking.id,
        practitionerId: p3.id,
        branchId: branch.id,
        roomId: room.id,
        start: at(day, '15:00'),
      },
    });
    expect(roomUse.status).toBe(201);

    const res = await t.api(
      'GET',
      `/api/appointments/availability?treatmentId=${treatment.id}&branchId=${branch.id}&from=${day}&to=${day}`,
      { token: admin.token },
    );
    expect(res.status).toBe(200);
    const slots = res.body.data as Array<{ start: string; end: string; practitionerId: string; roomId: string | null }>;
    const startsOf = (id: string) => slots.filter((s) => s.practitionerId === id).map((s) => s.start);
    // By hand: P1's 09:00 ends its buffer at 10:00, 09:15 would not; 11:00 is free again; the
    // room is taken 15:00–16:00, so 14:15 (ending 15:00) fits and 14:30 does not; 16:15 ends at 17:00.
    expect(startsOf(p1.id)).toEqual(
      ['09:00', '11:00', '11:15', '11:30', '11:45', '12:00', '12:15', '14:00', '14:15', '16:00', '16:15'].map((h) =>
        iso(day, h),
      ),
    );
    // P2: the only room is P1's until 10:45, and P2 is off 11:00–11:30.
    expect(startsOf(p2.id)).toEqual(['11:30', '11:45', '12:00', '12:15'].map((h) => iso(day, h)));
    for (const s of slots) expect(s.roomId).toBe(room.id);

    // Every offered slot books with 201 (and is cancelled again, which frees it).
    const booking = await makeBooking(t, admin.token, treatment.id);
    const tryAt = (practitionerId: string, start: string) =>
      t.api('POST', '/api/appointments', {
        token: admin.token,
        body: { bookingId: booking.id, practitionerId, branchId: branch.id, roomId: room.id, start },
      });
    const release = async (id: string) =>
      expect(
        (
          await t.api('POST', `/api/appointments/${id}/status`, {
            token: admin.token,
            body: { status: 'cancelled', reason: 'Probe' },
          })
        ).status,
      ).toBe(200);
    for (const s of slots) {
      const r = await tryAt(s.practitionerId, s.start);
      expect([r.status, s.start, r.body.message]).toEqual([201, s.start, undefined]);
      await release(r.body._id);
    }
    // No other start of the day, every 15 minutes, books for either practitioner.
    const unexpected: string[] = [];
    for (const p of [p1, p2]) {
      const offered = new Set(startsOf(p.id));
      for (let m = 0; m < 24 * 60; m += 15) {
        const hh = `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
        const start = iso(day, hh);
        if (offered.has(start)) continue;
        const r = await tryAt(p.id, start);
        if (r.status === 201) {
          unexpected.push(`${p.fullName} ${hh}`);
          await release(r.body._id);
        } else expect(r.status).toBe(409);
      }
    }
    expect(unexpected).toEqual([]);
  });

  it('offers nothing on a closure, nothing in the past, and refuses more than 31 days', async () => {
    const c = await clinic();
    const q = (from: string, to: string) =>
      t.api(
        'GET',
        `/api/appointments/availability?treatmentId=${c.treatment.id}&branchId=${c.branch.id}&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
        { token: admin.token },
      );
    const closed = dayFromToday(4);
    await addClosure(t.deps.db, c.branch.id, closed);
    expect((await q(closed, closed)).body.data).toEqual([]);
    const open = await q(dayFromToday(3), dayFromToday(3));
    expect(open.body.data).toHaveLength(26); // 09:00–12:00 and 14:00–17:00 every 15 minutes, 13 each
    const past = await q(dayFromToday(-2), dayFromToday(0));
    for (const s of past.body.data) expect(Date.parse(s.start)).toBeGreaterThan(Date.now() - 60_000);
    const tooLong = await q(dayFromToday(1), dayFromToday(33));
    expect([tooLong.status, tooLong.body.message]).toEqual([400, 'From and To can be at most 31 days apart.']);
    const unknown = await t.api(
      'GET',
      `/api/appointments/availability?treatmentId=00000000-0000-4000-8000-000000000000&branchId=${c.branch.id}&from=${closed}&to=${closed}`,
      { token: admin.token },
    );
    expect([unknown.status, unknown.body.message]).toEqual([404, 'Treatment not found.']);
  });
});
