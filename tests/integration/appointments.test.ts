import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments, auditLog } from '../../src/server/db/schema';
import { answerFor, isExclusionViolation } from '../../src/server/errors';
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
  TZ,
} from '../helpers/appointment-factories';
import { dayText } from '../helpers/day-text';

/**
 * Appointments (docs/appointments.md) on a real PostgreSQL: booking a session, every refusal with
 * the message naming the clash, buffers on both sides, the 20-way race, the booking's sessions,
 * listing, rescheduling with its audit trail, status moves and session progress, roles and the
 * branch scope.
 */
let t: TestApp;
let admin: MadeUser & { token: string };

beforeAll(async () => {
  t = await startTestApp();
  expect(t.deps.config.TIME_ZONE).toBe(TZ);
  admin = await t.userWithSession('admin');
});
afterAll(() => t.close());

/** A branch with a practitioner working 09:00–13:00 and 14:00–18:00 every day, for a treatment. */
async function clinic(
  o: Partial<{ sessionMinutes: number; bufferMinutes: number; requiresRoom: boolean; maxSessions: number }> = {},
) {
  const branch = await makeBranch(t.deps.db);
  const treatment = await makeTimedTreatment(t.deps.db, o);
  const practitioner = await makePractitioner(t.deps.db, { branchIds: [branch.id], treatmentIds: [treatment.id] });
  const booking = await makeBooking(t, admin.token, treatment.id);
  return { branch, treatment, practitioner, booking };
}

type Clinic = Awaited<ReturnType<typeof clinic>>;

const book = (token: string, body: Record<string, unknown>) => t.api('POST', '/api/appointments', { token, body });
const bookIn = (c: Clinic, start: string, extra: Record<string, unknown> = {}, token = admin.token) =>
  book(token, {
    bookingId: c.booking.id,
    practitionerId: c.practitioner.id,
    branchId: c.branch.id,
    start,
    ...extra,
  });
const setStatus = (id: string, body: Record<string, unknown>, token = admin.token) =>
  t.api('POST', `/api/appointments/${id}/status`, { token, body });

describe('booking an appointment', () => {
  it('answers 201 with the appointment, its end from the session length, and GET reads it back', async () => {
    const c = await clinic({ sessionMinutes: 45 });
    const day = dayFromToday(10);
    const res = await bookIn(c, at(day, '09:00'), { note: 'First visit' });
    expect(res.status).toBe(201);
    const customer = await t.api('GET', `/api/users/${c.booking.customerId}`, { token: admin.token });
    expect(res.body).toEqual({
      _id: expect.any(String),
      booking: { _id: c.booking.id },
      customer: {
        _id: c.booking.customerId,
        username: customer.body.username,
        email: customer.body.email,
        fullName: customer.body.fullName,
      },
      treatment: { _id: c.treatment.id, treatmentName: c.treatment.treatmentName },
      practitioner: { _id: c.practitioner.id, fullName: c.practitioner.fullName, color: expect.any(String) },
      room: null,
      branch: { _id: c.branch.id, name: c.branch.name },
      start: iso(day, '09:00'),
      end: iso(day, '09:45'),
      status: 'scheduled',
      sessionNumber: null,
      statusReason: null,
      note: 'First visit',
    });
    const got = await t.api('GET', `/api/appointments/${res.body._id}`, { token: admin.token });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
    const audit = await t.deps.db.select().from(auditLog).where(eq(auditLog.entityId, res.body._id));
    expect(audit).toMatchObject([{ action: 'create', entityType: 'appointment', parentId: c.booking.id }]);
  });

  it('lists appointments of a range ordered by start, with the filters, and refuses bad ranges', async () => {
    const c = await clinic();
    const day = dayFromToday(11);
    const late = await bookIn(c, at(day, '15:00'));
    const early = await bookIn(c, at(day, '09:00'));
    expect([late.status, early.status]).toEqual([201, 201]);
    const list = await t.api('GET', `/api/appointments?from=${day}&to=${day}&branchId=${c.branch.id}`, {
      token: admin.token,
    });
    expect(list.status).toBe(200);
    expect(list.body.data.map((a: { _id: string }) => a._id)).toEqual([early.body._id, late.body._id]);
    const byInstant = await t.api(
      'GET',
      `/api/appointments?from=${encodeURIComponent(at(day, '12:00'))}&to=${encodeURIComponent(at(day, '18:00'))}&practitionerId=${c.practitioner.id}`,
      { token: admin.token },
    );
    expect(byInstant.body.data.map((a: { _id: string }) => a._id)).toEqual([late.body._id]);
    const none = await t.api(
      'GET',
      `/api/appointments?from=${day}&to=${day}&branchId=${c.branch.id}&status=cancelled`,
      {
        token: admin.token,
      },
    );
    expect(none.body.data).toEqual([]);
    const trpc = await t.trpc(admin.token).appointments.list.query({ from: day, to: day, bookingId: c.booking.id });
    expect(trpc.data.map((a) => a._id)).toEqual([early.body._id, late.body._id]);

    const bad: Array<[string, string]> = [
      [`to=${day}`, 'From is required: a date (YYYY-MM-DD) or an ISO date-time.'],
      [`from=${day}&to=tomorrow`, 'To must be a date (YYYY-MM-DD) or an ISO date-time.'],
      [`from=${day}&to=${dayFromToday(5)}`, 'To must not be before From.'],
      [`from=${day}&to=${dayFromToday(11 + 63)}`, 'From and To can be at most 62 days apart.'],
      [
        `from=${day}&to=${day}&status=late`,
        'Status must be one of scheduled, confirmed, arrived, completed, cancelled, no_show.',
      ],
    ];
    for (const [query, message] of bad) {
      const res = await t.api('GET', `/api/appointments?${query}`, { token: admin.token });
      expect([res.status, res.body.message], query).toEqual([400, message]);
    }
    const sixtyTwo = await t.api('GET', `/api/appointments?from=${day}&to=${dayFromToday(11 + 62)}`, {
      token: admin.token,
    });
    expect(sixtyTwo.status).toBe(200);
  });
});

describe('refusals: 409 naming the clash, nothing stored', () => {
  /** The answer is a 409 with exactly this message, and the booking has no more appointments than before. */
  async function refused(res: { status: number; body: { message: string } }, message: string) {
    expect([res.status, res.body.message]).toEqual([409, message]);
  }

  it('the practitioner already has an appointment then', async () => {
    const c = await clinic();
    const day = dayFromToday(12);
    expect((await bookIn(c, at(day, '10:00'))).status).toBe(201);
    const other = await makeBooking(t, admin.token, c.treatment.id);
    await refused(
      await bookIn({ ...c, booking: other }, at(day, '10:30')),
      `${c.practitioner.fullName} already has an appointment then (${dayText(day)}, 10:00–11:00), counting the time kept free after each session.`,
    );
    expect(await countOf(other.id)).toBe(0);
  });

  it('buffers count on both sides: the earlier one’s after it, the new one’s before the next', async () => {
    const c = await clinic({ bufferMinutes: 15 });
    const day = dayFromToday(13);
    const other = () => makeBooking(t, admin.token, c.treatment.id);
    expect((await bookIn(c, at(day, '11:00'))).status).toBe(201); // 11:00–12:00, free again at 12:15
    // After it: 12:00 falls in its buffer, 12:15 is free.
    const b1 = await other();
    const inBuffer = await bookIn({ ...c, booking: b1 }, at(day, '12:00'));
    expect(inBuffer.status).toBe(409);
    expect(inBuffer.body.message).toContain('(' + dayText(day) + ', 11:00–12:00)');
    // The session 12:15–13:15 would run past the period's end at 13:00: refused by the plan, not the buffer.
    expect((await bookIn({ ...c, booking: b1 }, at(day, '12:15'))).body.message).toContain('outside');
    // Before it: 10:00–11:00 plus its own 15 minutes reaches into 11:00; 09:45 ends its buffer at 11:00.
    const b2 = await other();
    expect((await bookIn({ ...c, booking: b2 }, at(day, '10:00'))).status).toBe(409);
    expect((await bookIn({ ...c, booking: b2 }, at(day, '09:45'))).status).toBe(201);
    // The buffer may run past the period's end: 17:00–18:00 with 15 minutes after.
    expect((await bookIn({ ...c, booking: b1 }, at(day, '17:00'))).status).toBe(201);
  });

  it('the room is full then, at capacity 1 and at capacity 2', async () => {
    const c = await clinic({ requiresRoom: true });
    const single = await makeRoom(t.deps.db, c.branch.id, { name: 'Blue', capacity: 1 });
    const double = await makeRoom(t.deps.db, c.branch.id, { name: 'Gym', capacity: 2 });
    const p2 = await makePractitioner(t.deps.db, { branchIds: [c.branch.id], treatmentIds: [c.treatment.id] });
    const p3 = await makePractitioner(t.deps.db, { branchIds: [c.branch.id], treatmentIds: [c.treatment.id] });
    const day = dayFromToday(14);
    expect((await bookIn(c, at(day, '09:00'), { roomId: single.id })).status).toBe(201);
    const b2 = await makeBooking(t, admin.token, c.treatment.id);
    await refused(
      await bookIn({ ...c, practitioner: p2, booking: b2 }, at(day, '09:30'), { roomId: single.id }),
      `Room Blue is full then (${dayText(day)}, 09:30–10:30): it holds one session at a time.`,
    );
    expect((await bookIn(c, at(day, '11:00'), { roomId: double.id })).status).toBe(201);
    expect(
      (await bookIn({ ...c, practitioner: p2, booking: b2 }, at(day, '11:00'), { roomId: double.id })).status,
    ).toBe(201);
    const b3 = await makeBooking(t, admin.token, c.treatment.id);
    await refused(
      await bookIn({ ...c, practitioner: p3, booking: b3 }, at(day, '11:30'), { roomId: double.id }),
      `Room Gym is full then (${dayText(day)}, 11:30–12:30): it holds 2 sessions at a time.`,
    );
  });

  it('a room counts the most sessions in it at once: two back-to-back beside a third fit in a room of two', async () => {
    const c = await clinic({ requiresRoom: true });
    const pair = await makeRoom(t.deps.db, c.branch.id, { name: 'Pair', capacity: 2 });
    const more = async () => ({
      ...c,
      practitioner: await makePractitioner(t.deps.db, { branchIds: [c.branch.id], treatmentIds: [c.treatment.id] }),
      booking: await makeBooking(t, admin.token, c.treatment.id),
    });
    const day = dayFromToday(16);
    // 09:00–10:00 and 10:00–11:00 do not overlap each other; 09:30–10:30 overlaps both, one at a time.
    expect((await bookIn(c, at(day, '09:00'), { roomId: pair.id })).status).toBe(201);
    expect((await bookIn(await more(), at(day, '10:00'), { roomId: pair.id })).status).toBe(201);
    expect((await bookIn(await more(), at(day, '09:30'), { roomId: pair.id })).status).toBe(201);
    // 09:40–10:40 would make three at once (09:40–10:00 with the first two, 10:00–10:30 with the last two).
    await refused(
      await bookIn(await more(), at(day, '09:40'), { roomId: pair.id }),
      `Room Pair is full then (${dayText(day)}, 09:40–10:40): it holds 2 sessions at a time.`,
    );
    // After 10:30 only the 10:00 session is left in the room: 10:30–11:30 fits.
    expect((await bookIn(await more(), at(day, '10:30'), { roomId: pair.id })).status).toBe(201);
  });

  it('the customer has another appointment then', async () => {
    const c = await clinic();
    const p2 = await makePractitioner(t.deps.db, { branchIds: [c.branch.id], treatmentIds: [c.treatment.id] });
    const second = await makeBooking(t, admin.token, c.treatment.id, { id: c.booking.customerId });
    const day = dayFromToday(15);
    expect((await bookIn(c, at(day, '14:00'))).status).toBe(201);
    const customer = await t.api('GET', `/api/users/${c.booking.customerId}`, { token: admin.token });
    await refused(
      await bookIn({ ...c, practitioner: p2, booking: second }, at(day, '14:30')),
      `${customer.body.username} already has another appointment then (${dayText(day)}, 14:00–15:00).`,
    );
  });

  it('outside the working plan, in time off, on a branch closure', async () => {
    const c = await clinic();
    const day = dayFromToday(16);
    const weekday = weekdayName(day);
    const off = `The time is outside ${c.practitioner.fullName}'s working plan at ${c.branch.name}: on ${weekday}s they work 09:00–13:00, 14:00–18:00.`;
    await refused(await bookIn(c, at(day, '12:30')), off); // runs into the break
    await refused(await bookIn(c, at(day, '13:15')), off); // in the break
    await refused(await bookIn(c, at(day, '07:00')), off);
    await refused(await bookIn(c, at(day, '17:30')), off); // past the end
    const elsewhere = await makePractitioner(t.deps.db, {
      branchIds: [c.branch.id],
      treatmentIds: [c.treatment.id],
      weekdays: [],
    });
    await refused(
      await bookIn({ ...c, practitioner: elsewhere }, at(day, '09:00')),
      `The time is outside ${elsewhere.fullName}'s working plan: they do not work at ${c.branch.name} on ${weekday}s.`,
    );
    await addTimeOff(t.deps.db, c.practitioner.id, at(day, '15:00'), at(day, '16:30'), 'Dentist');
    await refused(
      await bookIn(c, at(day, '14:30')),
      `${c.practitioner.fullName} has time off then (${dayText(day)}, 15:00–16:30: Dentist).`,
    );
    expect((await bookIn(c, at(day, '16:30'))).status).toBe(201);
    const holiday = dayFromToday(17);
    await addClosure(t.deps.db, c.branch.id, holiday, 'Poya day');
    await refused(
      await bookIn(c, at(holiday, '10:00')),
      `${c.branch.name} is closed on ${dayText(holiday)} (Poya day).`,
    );
  });

  it('the practitioner does not deliver the treatment, does not work at the branch, or is inactive', async () => {
    const c = await clinic();
    const day = dayFromToday(18);
    const other = await makeTimedTreatment(t.deps.db);
    const noTreatment = await makePractitioner(t.deps.db, { branchIds: [c.branch.id], treatmentIds: [other.id] });
    await refused(
      await bookIn({ ...c, practitioner: noTreatment }, at(day, '09:00')),
      `${noTreatment.fullName} does not deliver ${c.treatment.treatmentName}.`,
    );
    const far = await makeBranch(t.deps.db);
    const notHere = await makePractitioner(t.deps.db, { branchIds: [far.id], treatmentIds: [c.treatment.id] });
    await refused(
      await bookIn({ ...c, practitioner: notHere }, at(day, '09:00')),
      `${notHere.fullName} does not work at ${c.branch.name}.`,
    );
    const inactive = await makePractitioner(t.deps.db, {
      branchIds: [c.branch.id],
      treatmentIds: [c.treatment.id],
      active: false,
    });
    await refused(
      await bookIn({ ...c, practitioner: inactive }, at(day, '09:00')),
      `${inactive.fullName} is inactive and cannot take appointments.`,
    );
  });

  it('the booking is cancelled, has no session left, or the treatment needs a room', async () => {
    const c = await clinic({ maxSessions: 2 });
    const day = dayFromToday(19);
    expect((await bookIn(c, at(day, '09:00'))).status).toBe(201);
    expect((await bookIn(c, at(day, '10:00'))).status).toBe(201);
    await refused(
      await bookIn(c, at(day, '11:00')),
      'No session is left on this booking: 2 in all, 0 completed and 2 booked.',
    );
    // A cancelled appointment gives its session back.
    const [first] = (
      await t.api('GET', `/api/appointments?from=${day}&to=${day}&bookingId=${c.booking.id}`, {
        token: admin.token,
      })
    ).body.data;
    expect((await setStatus(first._id, { status: 'cancelled', reason: 'Ill' })).status).toBe(200);
    expect((await bookIn(c, at(day, '11:00'))).status).toBe(201);

    const cancelled = await makeBooking(t, admin.token, c.treatment.id);
    expect((await t.api('PUT', `/api/bookings/bookings/${cancelled.id}/cancel`, { token: admin.token })).status).toBe(
      200,
    );
    await refused(
      await bookIn({ ...c, booking: cancelled }, at(day, '14:00')),
      'This booking is cancelled; no appointment can be made for it.',
    );

    const roomy = await clinic({ requiresRoom: true });
    await refused(await bookIn(roomy, at(day, '09:00')), `${roomy.treatment.treatmentName} needs a room: choose one.`);
  });

  it('two parallel bookings of the last session: exactly one is stored', async () => {
    const c = await clinic({ maxSessions: 1 });
    const day = dayFromToday(20);
    const answers = await Promise.all([bookIn(c, at(day, '09:00')), bookIn(c, at(day, '15:00'))]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    expect(answers.find((a) => a.status === 409)!.body.message).toBe(
      'No session is left on this booking: 1 in all, 0 completed and 1 booked.',
    );
    expect(await countOf(c.booking.id)).toBe(1);
  });

  it('20 simultaneous requests for the same practitioner and slot: exactly one 201, the rest 409', async () => {
    const c = await clinic();
    const day = dayFromToday(21);
    const bookings = await Promise.all(Array.from({ length: 20 }, () => makeBooking(t, admin.token, c.treatment.id)));
    const answers = await Promise.all(bookings.map((b) => bookIn({ ...c, booking: b }, at(day, '10:00'))));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(19);
    for (const a of answers.filter((x) => x.status === 409))
      expect(a.body.message).toMatch(new RegExp(`^${c.practitioner.fullName} already has an appointment`));
    const stored = await t.deps.db
      .select()
      .from(appointments)
      .where(eq(appointments.practitionerId, c.practitioner.id));
    expect(stored).toHaveLength(1);
  });
});

describe('the database itself', () => {
  it('refuses an overlapping row written past the service, and that refusal answers 409', async () => {
    const c = await clinic({ bufferMinutes: 10 });
    const day = dayFromToday(23);
    const made = await bookIn(c, at(day, '10:00'));
    expect(made.status).toBe(201);
    const [row] = await t.deps.db.select().from(appointments).where(eq(appointments.id, made.body._id));
    const other = await makeBooking(t, admin.token, c.treatment.id);
    // Starts inside the first one's buffer (11:00–11:10).
    const write = t.deps.db.insert(appointments).values({
      ...row!,
      id: undefined,
      bookingId: other.id,
      customerId: other.customerId,
      startAt: new Date(at(day, '11:05')),
      endAt: new Date(at(day, '12:05')),
      blockedUntil: new Date(at(day, '12:15')),
    });
    const err = await write.then(
      () => null,
      (e: unknown) => e,
    );
    expect(isExclusionViolation(err)).toBe(true);
    expect(answerFor(err)).toMatchObject({ status: 409, error: { message: 'That time overlaps another record.' } });
  });
});

describe('bad input: 400 or 404, nothing stored', () => {
  it('refuses unknown ids, malformed times, seconds, an end before the start and a start too far back', async () => {
    const c = await clinic();
    const day = dayFromToday(22);
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ bookingId: '00000000-0000-4000-8000-000000000000' }, 404, 'Booking not found.'],
      [{ bookingId: 'nope' }, 404, 'Booking not found.'],
      [{ practitionerId: '00000000-0000-4000-8000-000000000000' }, 404, 'Practitioner not found.'],
      [{ branchId: '00000000-0000-4000-8000-000000000000' }, 404, 'Branch not found.'],
      [{ roomId: '00000000-0000-4000-8000-000000000000' }, 404, 'Room not found.'],
      [{ start: 'tomorrow at ten' }, 400, 'Start must be an ISO date-time.'],
      [{ start: `${day}T10:00:00` }, 400, 'Start must be an ISO date-time.'],
      [{ start: `${day}T10:00:30+05:30` }, 400, 'Start must be on a whole minute (no seconds).'],
      [{ end: at(day, '09:00') }, 400, 'End must be after start.'],
      [{ end: at(day, '10:30') }, 400, 'A session of this treatment lasts 60 minutes; leave End out or match it.'],
      [{ start: at(dayFromToday(-8), '10:00') }, 400, 'An appointment can be recorded at most 7 days in the past.'],
    ];
    for (const [change, status, message] of cases) {
      const res = await bookIn(c, at(day, '10:00'), change);
      expect([res.status, res.body.message], JSON.stringify(change)).toEqual([status, message]);
    }
    expect(await countOf(c.booking.id)).toBe(0);
    // A matching end is accepted, and a walk-in six days back is recorded under the same rules.
    expect((await bookIn(c, at(day, '10:00'), { end: at(day, '11:00') })).status).toBe(201);
    expect((await bookIn(c, at(dayFromToday(-6), '10:00'))).status).toBe(201);
  });
});

const countOf = async (bookingId: string) =>
  (await t.deps.db.select().from(appointments).where(eq(appointments.bookingId, bookingId))).length;

function weekdayName(day: string) {
  return new Intl.DateTimeFormat('en-GB', { weekday: 'long', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));
}
