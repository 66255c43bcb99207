import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../src/server/db/schema';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeBranch, makeUser, type MadeUser } from '../helpers/factories';
import {
  at,
  dayFromToday,
  iso,
  makeBooking,
  makePractitioner,
  makeTimedTreatment,
  TZ,
} from '../helpers/appointment-factories';
import { dayText } from '../helpers/day-text';

/**
 * An appointment after it is booked (docs/appointments.md#status): status moves and their time
 * rules, completing and the booking's session progress, rescheduling with its audit trail, the
 * front desk's Today, roles and the branch scope.
 */
let t: TestApp;
let admin: MadeUser & { token: string };

beforeAll(async () => {
  t = await startTestApp();
  expect(t.deps.config.TIME_ZONE).toBe(TZ);
  admin = await t.userWithSession('admin');
});
afterAll(() => t.close());

/** A branch whose practitioner works round the clock every day (so any time of the test's day fits). */
async function clinic(o: Partial<{ maxSessions: number; sessionMinutes: number }> = {}, customerBranch?: string) {
  const branch = await makeBranch(t.deps.db);
  const treatment = await makeTimedTreatment(t.deps.db, o);
  const practitioner = await makePractitioner(t.deps.db, {
    branchIds: [branch.id],
    treatmentIds: [treatment.id],
    periods: [['00:00', '24:00']],
  });
  const customer = await makeUser(t.deps.db, { role: 'customer', branchId: customerBranch ?? branch.id });
  const booking = await makeBooking(t, admin.token, treatment.id, customer);
  return { branch, treatment, practitioner, booking };
}
type Clinic = Awaited<ReturnType<typeof clinic>>;

const bookIn = (c: Clinic, start: string, token = admin.token) =>
  t.api('POST', '/api/appointments', {
    token,
    body: { bookingId: c.booking.id, practitionerId: c.practitioner.id, branchId: c.branch.id, start },
  });
const setStatus = (id: string, body: Record<string, unknown>, token = admin.token) =>
  t.api('POST', `/api/appointments/${id}/status`, { token, body });
const bookingOf = async (id: string) =>
  (await t.api('GET', `/api/bookings/booking/${id}`, { token: admin.token })).body;

/** The next whole half hour at least 30 minutes from now: within two hours, not yet started. */
function soon(): string {
  const half = 30 * 60_000;
  return new Date(Math.ceil((Date.now() + half) / half) * half).toISOString();
}

describe('status', () => {
  it('moves scheduled → confirmed → arrived → completed, and refuses the moves there are not', async () => {
    const c = await clinic();
    const a = await bookIn(c, at(dayFromToday(-1), '10:00'));
    expect(a.status).toBe(201);
    const id = a.body._id as string;
    const refusals: Array<[Record<string, unknown>, number, string]> = [
      [{ status: 'late' }, 400, 'Status must be one of scheduled, confirmed, arrived, completed, cancelled, no_show.'],
      [{ status: 'cancelled' }, 400, 'Give a reason for cancelling the appointment.'],
      [{ status: 'completed' }, 409, 'An appointment that is scheduled cannot be marked completed.'],
      [{ status: 'scheduled' }, 409, 'This appointment is already scheduled.'],
    ];
    for (const [body, status, message] of refusals) {
      const res = await setStatus(id, body);
      expect([res.status, res.body.message], JSON.stringify(body)).toEqual([status, message]);
    }
    expect((await setStatus(id, { status: 'confirmed' })).body.status).toBe('confirmed');
    expect((await setStatus(id, { status: 'arrived' })).body.status).toBe('arrived');
    const cancel = await setStatus(id, { status: 'cancelled', reason: 'Changed mind' });
    expect([cancel.status, cancel.body.message]).toEqual([
      409,
      'An appointment that is arrived cannot be marked cancelled.',
    ]);
    const done = await setStatus(id, { status: 'completed' });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ _id: id, status: 'completed', sessionNumber: 1 });
    const again = await setStatus(id, { status: 'no_show' });
    expect([again.status, again.body.message]).toEqual([
      409,
      'An appointment that is completed cannot be marked a no-show.',
    ]);
    const audit = await t.deps.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'appointment'), eq(auditLog.entityId, id)))
      .orderBy(asc(auditLog.createdAt));
    expect(audit.map((e) => e.action)).toEqual(['create', 'status_change', 'status_change', 'complete']);
  });

  it('arrived only from two hours before the start; completed and no-show only once it has started', async () => {
    const c = await clinic({ sessionMinutes: 15 });
    const later = await bookIn(c, at(dayFromToday(3), '10:00'));
    const early = await setStatus(later.body._id, { status: 'arrived' });
    expect(early.status).toBe(409);
    expect(early.body.message).toMatch(/^Arrival can be marked from 2 hours before the start/);
    const next = await bookIn(c, soon());
    expect(next.status).toBe(201);
    expect((await setStatus(next.body._id, { status: 'arrived' })).status).toBe(200);
    for (const status of ['completed', 'no_show']) {
      const res = await setStatus(next.body._id, { status });
      expect(res.status).toBe(409);
      expect(res.body.message).toMatch(/^The appointment has not started yet/);
    }
    // A no-show keeps the appointment and frees its time; a reason is kept when given.
    const missed = await bookIn(c, at(dayFromToday(-2), '11:00'));
    const noShow = await setStatus(missed.body._id, { status: 'no_show', reason: 'No answer' });
    expect(noShow.body).toMatchObject({ status: 'no_show', statusReason: 'No answer' });
    const other = await makeBooking(t, admin.token, c.treatment.id);
    expect((await bookIn({ ...c, booking: other }, at(dayFromToday(-2), '11:00'))).status).toBe(201);
  });

  it('completing adds one to the booking’s sessions and never goes past its maximum', async () => {
    const c = await clinic({ maxSessions: 2 });
    const first = await bookIn(c, at(dayFromToday(-3), '09:00'));
    const second = await bookIn(c, at(dayFromToday(-2), '09:00'));
    expect([first.status, second.status]).toEqual([201, 201]);
    for (const s of ['arrived', 'completed']) expect((await setStatus(first.body._id, { status: s })).status).toBe(200);
    expect((await bookingOf(c.booking.id)).sessionsCompleted).toBe(1);
    // Someone counts the second session by hand on the booking: the appointment cannot count it again.
    const customerId = c.booking.customerId;
    const progress = await t.api('PUT', `/api/bookings/progress/${customerId}/${c.treatment.id}`, {
      token: admin.token,
      body: { sessionsCompleted: 2 },
    });
    expect(progress.status).toBe(200);
    expect((await setStatus(second.body._id, { status: 'arrived' })).status).toBe(200);
    const over = await setStatus(second.body._id, { status: 'completed' });
    expect([over.status, over.body.message]).toEqual([
      409,
      'All 2 sessions of this booking are already completed; this one cannot be counted.',
    ]);
    expect((await bookingOf(c.booking.id)).sessionsCompleted).toBe(2);
    const got = await t.api('GET', `/api/appointments/${second.body._id}`, { token: admin.token });
    expect(got.body).toMatchObject({ status: 'arrived', sessionNumber: null });
  });

  it('two appointments completed at once take sessions 1 and 2', async () => {
    const c = await clinic({ maxSessions: 3 });
    const ids: string[] = [];
    for (const d of [-3, -2]) {
      const a = await bookIn(c, at(dayFromToday(d), '09:00'));
      ids.push(a.body._id);
      await setStatus(a.body._id, { status: 'arrived' });
    }
    const done = await Promise.all(ids.map((id) => setStatus(id, { status: 'completed' })));
    expect(done.map((d) => d.status)).toEqual([200, 200]);
    expect(done.map((d) => d.body.sessionNumber).sort()).toEqual([1, 2]);
    expect((await bookingOf(c.booking.id)).sessionsCompleted).toBe(2);
  });
});

describe('reschedule', () => {
  it('keeps the appointment and its id, and the audit trail shows the old and the new times', async () => {
    const c = await clinic();
    const day = dayFromToday(9);
    const a = await bookIn(c, at(day, '10:00'));
    // Half an hour later overlaps only itself, which is no clash.
    const moved = await t.api('PUT', `/api/appointments/${a.body._id}`, {
      token: admin.token,
      body: { start: at(day, '10:30') },
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ _id: a.body._id, start: iso(day, '10:30'), end: iso(day, '11:30') });
    const [entry] = await t.deps.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, a.body._id), eq(auditLog.action, 'reschedule')));
    expect(entry!.changes).toEqual(
      expect.arrayContaining([
        { field: 'start', before: iso(day, '10:00'), after: iso(day, '10:30') },
        { field: 'end', before: iso(day, '11:00'), after: iso(day, '11:30') },
      ]),
    );
    expect(entry!.parentId).toBe(c.booking.id);
    const list = await t.api('GET', `/api/appointments?from=${day}&to=${day}&bookingId=${c.booking.id}`, {
      token: admin.token,
    });
    expect(list.body.data).toHaveLength(1);
  });

  it('runs the same checks, and refuses a completed, cancelled or no-show appointment', async () => {
    const c = await clinic();
    const day = dayFromToday(9);
    const other = await makeBooking(t, admin.token, c.treatment.id);
    const a = await bookIn(c, at(day, '09:00'));
    expect((await bookIn({ ...c, booking: other }, at(day, '12:00'))).status).toBe(201);
    const busy = await t.api('PUT', `/api/appointments/${a.body._id}`, {
      token: admin.token,
      body: { start: at(day, '11:30') },
    });
    expect([busy.status, busy.body.message]).toEqual([
      409,
      `${c.practitioner.fullName} already has an appointment then (${dayText(day)}, 12:00–13:00), counting the time kept free after each session.`,
    ]);
    const empty = await t.api('PUT', `/api/appointments/${a.body._id}`, { token: admin.token, body: {} });
    expect([empty.status, empty.body.message]).toEqual([
      400,
      'Say what to change: start, practitioner, room or branch.',
    ]);
    const p2 = await makePractitioner(t.deps.db, { branchIds: [c.branch.id], treatmentIds: [c.treatment.id] });
    const toP2 = await t.api('PUT', `/api/appointments/${a.body._id}`, {
      token: admin.token,
      body: { practitionerId: p2.id },
    });
    expect(toP2.body.practitioner).toMatchObject({ _id: p2.id, fullName: p2.fullName });
    await setStatus(a.body._id, { status: 'cancelled', reason: 'Moved away' });
    const late = await t.api('PUT', `/api/appointments/${a.body._id}`, {
      token: admin.token,
      body: { start: at(day, '15:00') },
    });
    expect([late.status, late.body.message]).toEqual([409, 'This appointment is cancelled; it cannot be rescheduled.']);
    const missing = await t.api('PUT', '/api/appointments/00000000-0000-4000-8000-000000000000', {
      token: admin.token,
      body: { start: at(day, '15:00') },
    });
    expect([missing.status, missing.body.message]).toEqual([404, 'Appointment not found.']);
  });
});

describe('today', () => {
  it('lists the day’s appointments of the branch with what each customer still owes', async () => {
    const c = await clinic({ sessionMinutes: 15 });
    const today = dayFromToday(0);
    const a = await bookIn(c, at(today, '00:15'));
    expect(a.status).toBe(201);
    expect((await bookIn(c, at(dayFromToday(1), '00:15'))).status).toBe(201);
    const res = await t.api('GET', `/api/appointments/today?branchId=${c.branch.id}`, { token: admin.token });
    expect(res.status).toBe(200);
    const booking = await bookingOf(c.booking.id);
    const owed = booking.installments.reduce(
      (s: number, i: { amount: number; amountPaid: number }) => s + i.amount - i.amountPaid,
      0,
    );
    expect(owed).toBe(10000);
    expect(res.body.data).toEqual([{ ...a.body, outstanding: owed, currency: booking.currency }]);
    const trpc = await t.trpc(admin.token).appointments.today.query({ branchId: c.branch.id });
    expect(trpc.data.map((x) => x._id)).toEqual([a.body._id]);
  });
});

describe('roles and branch scope', () => {
  it('lets staff in and answers 403 to students, customers and users', async () => {
    const c = await clinic();
    const day = dayFromToday(8);
    const manager = await t.userWithSession('manager');
    expect((await bookIn(c, at(day, '09:00'), manager.token)).status).toBe(201);
    for (const role of ['student', 'customer', 'user'] as const) {
      const u = await t.userWithSession(role);
      const paths: Array<[string, string]> = [
        ['POST', '/api/appointments'],
        ['GET', `/api/appointments?from=${day}&to=${day}`],
        ['GET', '/api/appointments/today'],
        [
          'GET',
          `/api/appointments/availability?treatmentId=${c.treatment.id}&branchId=${c.branch.id}&from=${day}&to=${day}`,
        ],
        ['POST', '/api/appointments/series'],
      ];
      for (const [method, path] of paths) {
        const res = await t.api(method, path, { token: u.token, body: method === 'POST' ? {} : undefined });
        expect([res.status, role, path]).toEqual([403, role, path]);
      }
      await expect(t.trpc(u.token).appointments.list.query({ from: day, to: day })).rejects.toMatchObject({
        data: { httpStatus: 403 },
      });
    }
  });

  it('limits a manager to their own branch when the setting is on', async () => {
    const mine = await clinic();
    const theirs = await clinic();
    const day = dayFromToday(8);
    const there = await bookIn(theirs, at(day, '10:00'));
    const manager = await t.userWithSession('manager', { branchId: mine.branch.id });
    await t.trpc(admin.token).settings.updateAccess.mutate({ managersOwnBranchOnly: true });
    try {
      const here = await bookIn(mine, at(day, '10:00'), manager.token);
      expect(here.status).toBe(201);
      const elsewhere = await t.api('POST', '/api/appointments', {
        token: manager.token,
        body: {
          bookingId: mine.booking.id,
          practitionerId: theirs.practitioner.id,
          branchId: theirs.branch.id,
          start: at(day, '12:00'),
        },
      });
      expect([elsewhere.status, elsewhere.body.message]).toEqual([
        403,
        'You can only work with appointments at your own branch.',
      ]);
      const otherBooking = await bookIn({ ...theirs, branch: mine.branch }, at(day, '14:00'), manager.token);
      expect([otherBooking.status, otherBooking.body.message]).toEqual([404, 'Booking not found.']);
      const list = await t.api('GET', `/api/appointments?from=${day}&to=${day}`, { token: manager.token });
      expect(list.body.data.map((a: { _id: string }) => a._id)).toEqual([here.body._id]);
      const hidden = await t.api('GET', `/api/appointments/${there.body._id}`, { token: manager.token });
      expect([hidden.status, hidden.body.message]).toEqual([404, 'Appointment not found.']);
      const status = await setStatus(there.body._id, { status: 'confirmed' }, manager.token);
      expect(status.status).toBe(404);
      // Off again, the manager sees every branch.
      await t.trpc(admin.token).settings.updateAccess.mutate({ managersOwnBranchOnly: false });
      const all = await t.api('GET', `/api/appointments/${there.body._id}`, { token: manager.token });
      expect(all.status).toBe(200);
    } finally {
      await t.trpc(admin.token).settings.updateAccess.mutate({ managersOwnBranchOnly: false });
    }
  });
});

describe('cancelling the booking', () => {
  it('cancels its appointments still to come, keeps them with the reason and frees their slots', async () => {
    const c = await clinic();
    const past = await bookIn(c, at(dayFromToday(-1), '10:00'));
    const next = await bookIn(c, at(dayFromToday(2), '10:00'));
    const confirmed = await bookIn(c, at(dayFromToday(3), '10:00'));
    const ownReason = await bookIn(c, at(dayFromToday(4), '10:00'));
    for (const a of [past, next, confirmed, ownReason]) expect(a.status).toBe(201);
    expect((await setStatus(confirmed.body._id, { status: 'confirmed' })).status).toBe(200);
    expect((await setStatus(ownReason.body._id, { status: 'cancelled', reason: 'Travelling' })).status).toBe(200);

    const cancel = await t.api('PUT', `/api/bookings/bookings/${c.booking.id}/cancel`, { token: admin.token });
    expect(cancel.status).toBe(200);

    const list = await t.api(
      'GET',
      `/api/appointments?from=${dayFromToday(-1)}&to=${dayFromToday(4)}&bookingId=${c.booking.id}`,
      { token: admin.token },
    );
    expect(list.status).toBe(200);
    const seen = (list.body.data as Array<{ _id: string; status: string; statusReason: string | null }>).map((a) => [
      a._id,
      a.status,
      a.statusReason,
    ]);
    expect(seen).toEqual([
      [past.body._id, 'scheduled', null],
      [next.body._id, 'cancelled', 'The booking was cancelled.'],
      [confirmed.body._id, 'cancelled', 'The booking was cancelled.'],
      [ownReason.body._id, 'cancelled', 'Travelling'],
    ]);
    // Each went through the appointment's own status change, so each has its own audit entry.
    const entries = await t.deps.db
      .select()
      .from(auditLog)
      .where(
        and(eq(auditLog.entityType, 'appointment'), eq(auditLog.action, 'cancel'), eq(auditLog.parentId, c.booking.id)),
      )
      .orderBy(asc(auditLog.createdAt));
    expect(entries.map((e) => e.entityId).sort()).toEqual(
      [next.body._id, confirmed.body._id, ownReason.body._id].sort(),
    );

    // The freed slot books for another customer's booking with the same practitioner.
    const other = await makeUser(t.deps.db, { role: 'customer', branchId: c.branch.id });
    const otherBooking = await makeBooking(t, admin.token, c.treatment.id, other);
    const again = await t.api('POST', '/api/appointments', {
      token: admin.token,
      body: {
        bookingId: otherBooking.id,
        practitionerId: c.practitioner.id,
        branchId: c.branch.id,
        start: at(dayFromToday(2), '10:00'),
      },
    });
    expect(again.status).toBe(201);

    // Cancelling the booking again changes nothing.
    expect((await t.api('PUT', `/api/bookings/bookings/${c.booking.id}/cancel`, { token: admin.token })).status).toBe(
      200,
    );
  });
});
