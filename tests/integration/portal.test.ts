import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, enrollmentInstallments, messages, users } from '../../src/server/db/schema';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeBranch, postCourse, type MadeUser } from '../helpers/factories';
import {
  at,
  dayFromToday,
  makeBooking,
  makePractitioner,
  makeTimedTreatment,
  TZ,
} from '../helpers/appointment-factories';
import { enrolStudent } from '../helpers/class-factories';

/**
 * The portal (docs/portal.md) on a real PostgreSQL: a person's own records only, from the
 * session; another person's answers 404 by any id over REST and tRPC; nothing internal leaks;
 * profile changes audited with the person as actor; the cancel cut-off and self-booking rules.
 */
let t: TestApp;
let admin: MadeUser & { token: string };
let branch: { id: string; name: string };
let treatment: { id: string };
let practitioner: { id: string };
let alice: MadeUser & { token: string };
let bob: MadeUser & { token: string };
let aliceBooking: string;
let bobBooking: string;
let bobAppointment: string;
let bobPayment: string;
let student: MadeUser & { token: string };
let enrollmentId: string;

const ORG_PHONE = '+94 11 234 5678';

async function setPortal(body: Record<string, unknown>) {
  const res = await t.api('PUT', '/api/settings/portal', {
    token: admin.token,
    body: { selfBooking: false, cancelHours: 24, minNoticeHours: 12, maxDaysAhead: 30, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function staffAppointment(bookingId: string, day: string, hhmm: string) {
  const res = await t.api('POST', '/api/appointments', {
    token: admin.token,
    body: {
      bookingId,
      practitionerId: practitioner.id,
      branchId: branch.id,
      start: at(day, hhmm),
      note: 'Internal: prefers the quiet room',
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body._id as string;
}

async function pay(body: Record<string, unknown>) {
  const res = await t.api('POST', '/api/payments', { token: admin.token, body: { method: 'cash', ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body._id as string;
}

beforeAll(async () => {
  t = await startTestApp();
  expect(t.deps.config.TIME_ZONE).toBe(TZ);
  admin = await t.userWithSession('admin');
  const b = await makeBranch(t.deps.db, { name: 'Kandy' });
  branch = { id: b.id, name: b.name };
  const org = await t.api('PUT', '/api/settings/organisation', {
    token: admin.token,
    body: {
      name: 'Lotus Institute',
      address: '1 Temple Road',
      phone: ORG_PHONE,
      email: 'desk@lotus.example',
      receiptFooter: 'Bank: BOC 123456',
    },
  });
  expect(org.status, JSON.stringify(org.body)).toBe(200);
  treatment = await makeTimedTreatment(t.deps.db, { maxSessions: 3 });
  practitioner = await makePractitioner(t.deps.db, { branchIds: [b.id], treatmentIds: [treatment.id] });
  alice = await t.userWithSession('customer', { branchId: b.id });
  bob = await t.userWithSession('customer', { branchId: b.id });
  aliceBooking = (await makeBooking(t, admin.token, treatment.id, alice)).id;
  bobBooking = (await makeBooking(t, admin.token, treatment.id, bob)).id;
  bobAppointment = await staffAppointment(bobBooking, dayFromToday(5), '10:00');
  bobPayment = await pay({ bookingId: bobBooking, amount: 100, note: 'Bob paid in the hallway' });
  const courseId = await postCourse(t, admin.token, 'Portal', { totalFee: 30000, admissionFee: 1000, installments: 3 });
  const enrolled = await enrolStudent(t, admin.token, courseId, { branchId: b.id });
  student = enrolled.student;
  enrollmentId = enrolled.enrollmentId;
});
afterAll(() => t.close());

describe('a person sees their own records', () => {
  it('answers me, home, bookings and payments for the session person, ignoring a person id sent', async () => {
    const payment = await pay({ bookingId: aliceBooking, amount: 250, note: 'Secret staff note' });
    const me = await t.api('GET', `/api/portal/me?userId=${bob.id}&id=${bob.id}`, { token: alice.token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ _id: alice.id, email: alice.email, language: 'en', branch: { _id: branch.id } });

    const bookings = await t.api('GET', `/api/portal/bookings?userId=${bob.id}`, { token: alice.token });
    expect(bookings.status).toBe(200);
    expect(bookings.body.data.map((x: { _id: string }) => x._id)).toEqual([aliceBooking]);
    expect(bookings.body.data[0]).toMatchObject({
      sessionsDone: 0,
      maxSessions: 3,
      sessionsRemaining: 3,
      paidAmount: 250,
    });
    expect(JSON.stringify(bookings.body)).not.toContain('sessionNotes');

    const payments = await t.api('GET', '/api/portal/payments', { token: alice.token });
    expect(payments.body.data.map((p: { _id: string }) => p._id)).toEqual([payment]);
    expect(payments.body.data[0].receiptUrl).toBe(`/api/portal/payments/${payment}/receipt`);
    expect(JSON.stringify(payments.body)).not.toContain('Secret staff note');

    // tRPC alike: the same person whatever is sent.
    const viaTrpc = await t.trpc(alice.token).portal.bookings.query();
    expect(viaTrpc.data.map((x) => x._id)).toEqual([aliceBooking]);
  });

  it('shows the home figures: outstanding per currency, next due, overdue', async () => {
    const home = await t.api('GET', '/api/portal/home', { token: student.token });
    expect(home.status).toBe(200);
    // 1,000 admission + 30,000 in three installments, nothing paid.
    expect(home.body.outstanding).toEqual([{ currency: 'LKR', amount: 31000 }]);
    expect(home.body.overdue).toEqual([]);
    expect(home.body.nextDue).toMatchObject({ currency: 'LKR', amount: 10000 });
    expect(home.body.nextAppointment).toBeNull();
  });

  it('lists the enrolment with its installments and an attendance figure', async () => {
    const list = await t.api('GET', '/api/portal/enrollments', { token: student.token });
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    const e = list.body.data[0];
    expect(e).toMatchObject({
      _id: enrollmentId,
      admissionFee: 1000,
      outstandingAmount: 31000,
      batch: null,
      attendanceRate: null,
    });
    expect(e.installments).toHaveLength(3);
    expect(e.installments[0]).toMatchObject({ installmentNumber: 1, amount: 10000, isPaid: false, partPaid: false });

    await pay({ enrollmentId, amount: 6000 });
    const one = await t.api('GET', `/api/portal/enrollments/${enrollmentId}`, { token: student.token });
    expect(one.status).toBe(200);
    // The admission fee first, then part of the first installment.
    expect(one.body.installments[0]).toMatchObject({ amountPaid: 5000, partPaid: true, isPaid: false });
    expect(one.body.paidAmount).toBe(6000);

    // The first installment falls due yesterday: its unpaid part is overdue since then.
    const yesterday = dayFromToday(-1);
    await t.deps.db
      .update(enrollmentInstallments)
      .set({ dueDate: yesterday })
      .where(eq(enrollmentInstallments.id, one.body.installments[0]._id));
    const home = await t.api('GET', '/api/portal/home', { token: student.token });
    expect(home.body.overdue).toEqual([{ currency: 'LKR', amount: 5000, since: yesterday }]);
    expect(home.body.outstanding).toEqual([{ currency: 'LKR', amount: 25000 }]);
    expect(home.body.nextDue).toMatchObject({ amount: 10000, dueDate: one.body.installments[1].dueDate });
  });

  it('hides the appointment note and answers the cut-off with whom to call', async () => {
    const list = await t.api('GET', '/api/portal/appointments', { token: bob.token });
    expect(list.status).toBe(200);
    expect(list.body.data.map((a: { _id: string }) => a._id)).toEqual([bobAppointment]);
    expect(JSON.stringify(list.body)).not.toContain('quiet room');
    expect(list.body.data[0]).toMatchObject({ canCancel: true, callToCancel: null, status: 'scheduled' });
  });
});

describe("another person's record answers 404 by any id", () => {
  const missing = '00000000-0000-4000-8000-000000000000';
  it.each([
    ['enrollment', () => `/api/portal/enrollments/${enrollmentId}`],
    ['booking', () => `/api/portal/bookings/${bobBooking}`],
    ['receipt', () => `/api/portal/payments/${bobPayment}/receipt`],
  ])('%s over REST', async (_what, url) => {
    const res = await t.api('GET', url(), { token: alice.token });
    expect(res.status).toBe(404);
    expect((await t.api('GET', url().replace(/[0-9a-f-]{36}/, missing), { token: alice.token })).status).toBe(404);
    expect((await t.api('GET', url().replace(/[0-9a-f-]{36}/, 'not-an-id'), { token: alice.token })).status).toBe(404);
  });

  it('an appointment over REST (cancel and move) and every id over tRPC', async () => {
    const cancel = await t.api('POST', `/api/portal/appointments/${bobAppointment}/cancel`, {
      token: alice.token,
      body: {},
    });
    expect(cancel.status).toBe(404);
    const client = t.trpc(alice.token);
    await expect(client.portal.enrollment.query({ id: enrollmentId })).rejects.toMatchObject({
      data: { code: 'NOT_FOUND' },
    });
    await expect(client.portal.booking.query({ id: bobBooking })).rejects.toMatchObject({
      data: { code: 'NOT_FOUND' },
    });
    await expect(client.portal.cancelAppointment.mutate({ id: bobAppointment })).rejects.toMatchObject({
      data: { code: 'NOT_FOUND' },
    });
    // Bob's appointment is untouched.
    const still = await t.api('GET', '/api/portal/appointments', { token: bob.token });
    expect(still.body.data[0].status).toBe('scheduled');
  });

  it("the own receipt is the PDF staff print; another's is not", async () => {
    const own = await fetch(`${t.baseUrl}/api/portal/payments/${bobPayment}/receipt`, {
      headers: { authorization: `Bearer ${bob.token}` },
    });
    expect(own.status).toBe(200);
    expect(own.headers.get('content-type')).toContain('application/pdf');
    expect(
      Buffer.from(await own.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    const statement = await fetch(`${t.baseUrl}/api/portal/statement/pdf`, {
      headers: { authorization: `Bearer ${bob.token}` },
    });
    expect(statement.status).toBe(200);
    expect(statement.headers.get('content-type')).toContain('application/pdf');
  });

  it('says only "void" of a voided payment, never why', async () => {
    const id = await pay({ bookingId: aliceBooking, amount: 10 });
    const voided = await t.api('POST', `/api/payments/${id}/void`, {
      token: admin.token,
      body: { reason: 'Cashier typo xyz' },
    });
    expect(voided.status, JSON.stringify(voided.body)).toBe(200);
    const list = await t.api('GET', '/api/portal/payments', { token: alice.token });
    expect(list.body.data.find((p: { _id: string }) => p._id === id)).toMatchObject({ status: 'void' });
    expect(JSON.stringify(list.body)).not.toContain('Cashier typo');
  });
});

describe('profile', () => {
  it('changes phone, address, language and opt-outs; ignores name, e-mail, NIC and branch; audits with the person as actor', async () => {
    const other = await makeBranch(t.deps.db);
    const res = await t.api('PUT', '/api/portal/profile', {
      token: alice.token,
      body: {
        phone: '0771234567',
        address: '5 Lake Road',
        language: 'si',
        optOut: { sms: true },
        fullName: 'Hacker',
        email: 'stolen@example.com',
        nic: '200012345678',
        branchId: other.id,
        userId: bob.id,
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      phone: '+94771234567',
      address: '5 Lake Road',
      language: 'si',
      optOut: { email: false, sms: true },
    });
    const [row] = await t.deps.db.select().from(users).where(eq(users.id, alice.id));
    expect(row).toMatchObject({ email: alice.email, branchId: branch.id, nic: null, language: 'si', optOutSms: true });
    expect(row!.fullName).not.toBe('Hacker');
    const [bobRow] = await t.deps.db.select().from(users).where(eq(users.id, bob.id));
    expect(bobRow!.phone).toBeNull();
    const entries = await t.deps.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'user'), eq(auditLog.entityId, alice.id), eq(auditLog.action, 'update')));
    expect(entries).toHaveLength(1);
    expect(entries[0]!.actorId).toBe(alice.id);
    expect(entries[0]!.changes.map((c) => c.field).sort()).toEqual(['address', 'language', 'optOutSms', 'phone']);
  });

  it('refuses a bad language or phone with a 400 naming it', async () => {
    const lang = await t.api('PUT', '/api/portal/profile', { token: alice.token, body: { language: 'fr' } });
    expect(lang.status).toBe(400);
    expect(lang.body.message).toContain('Language');
    const phone = await t.api('PUT', '/api/portal/profile', { token: alice.token, body: { phone: 'call me' } });
    expect(phone.status).toBe(400);
    expect(phone.body.message).toContain('Phone');
  });
});

describe('Settings → Portal', () => {
  it('has the defaults, is read by staff and written by admins only, and is audited', async () => {
    const manager = await t.userWithSession('manager');
    const read = await t.api('GET', '/api/settings/portal', { token: manager.token });
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ selfBooking: false, cancelHours: 24, minNoticeHours: 12, maxDaysAhead: 30 });
    const write = await t.api('PUT', '/api/settings/portal', { token: manager.token, body: read.body });
    expect(write.status).toBe(403);
    const cust = await t.api('GET', '/api/settings/portal', { token: alice.token });
    expect(cust.status).toBe(403);
    const bad = await t.api('PUT', '/api/settings/portal', {
      token: admin.token,
      body: { ...read.body, cancelHours: -1 },
    });
    expect(bad.status).toBe(400);
    await setPortal({ cancelHours: 48 });
    const entries = await t.deps.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'settings'), eq(auditLog.entityId, 'portal')));
    expect(entries.length).toBeGreaterThan(0);
    await setPortal({});
  });
});

describe('cancelling', () => {
  it('cancels outside the cut-off with the person as actor; inside it answers 409 naming the phone', async () => {
    const carol = await t.userWithSession('customer', { branchId: branch.id });
    const booking = (await makeBooking(t, admin.token, treatment.id, carol)).id;
    const far = await staffAppointment(booking, dayFromToday(6), '15:00');
    const near = await staffAppointment(booking, dayFromToday(2), '16:00');
    // 24 hours before: both can go. Raise it past the nearer one.
    await setPortal({ cancelHours: 24 * 4 });

    const late = await t.api('POST', `/api/portal/appointments/${near}/cancel`, {
      token: carol.token,
      body: { reason: 'Ill' },
    });
    expect(late.status).toBe(409);
    expect(late.body.message).toContain(ORG_PHONE);
    expect(late.body.message).toContain('96 hours');
    const shown = await t.api('GET', '/api/portal/appointments', { token: carol.token });
    expect(shown.body.data.find((a: { _id: string }) => a._id === near)).toMatchObject({
      canCancel: false,
      callToCancel: expect.stringContaining(ORG_PHONE),
    });

    const ok = await t.api('POST', `/api/portal/appointments/${far}/cancel`, {
      token: carol.token,
      body: { reason: 'Travelling' },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ _id: far, status: 'cancelled', canCancel: false });
    const [entry] = await t.deps.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, far), eq(auditLog.action, 'cancel')));
    expect(entry!.actorId).toBe(carol.id);
    expect(entry!.changes).toContainEqual({ field: 'reason', before: null, after: 'Travelling' });
    // The person gets one cancellation per channel as confirmation; the reminder for it will not go.
    const sent = await t.deps.db
      .select({
        event: messages.event,
        channel: messages.channel,
        status: messages.status,
        to: messages.recipientId,
        reason: messages.reason,
      })
      .from(messages)
      .where(eq(messages.entityId, far));
    const cancelled = sent.filter((m) => m.event === 'appointment_cancelled');
    expect(cancelled.map((m) => m.channel).sort()).toEqual(['email', 'sms']);
    expect(cancelled.every((m) => m.to === carol.id)).toBe(true);
    // Carol has no phone, so her SMS reminder was skipped when planned; the e-mail one is withdrawn.
    const reminder = sent.find((m) => m.event === 'appointment_reminder' && m.channel === 'email');
    expect(reminder).toMatchObject({ status: 'withdrawn', reason: 'cancelled' });

    const again = await t
      .trpc(carol.token)
      .portal.cancelAppointment.mutate({ id: far })
      .catch((e: unknown) => e);
    expect(again).toMatchObject({ data: { code: 'CONFLICT' } });
    await setPortal({});
  });
});

describe('self-booking', () => {
  it('is refused with 403 naming self-booking while it is off, over REST and tRPC', async () => {
    await setPortal({ selfBooking: false });
    const res = await t.api('POST', '/api/portal/appointments', {
      token: alice.token,
      body: { bookingId: aliceBooking, start: at(dayFromToday(3), '10:00') },
    });
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/self-booking/i);
    await expect(
      t
        .trpc(alice.token)
        .portal.availability.query({ bookingId: aliceBooking, from: dayFromToday(1), to: dayFromToday(7) }),
    ).rejects.toMatchObject({ data: { code: 'FORBIDDEN' }, message: expect.stringMatching(/self-booking/i) });
  });

  it('books a free slot within the window, refuses outside it, and never past the remaining sessions', async () => {
    await setPortal({ selfBooking: true, minNoticeHours: 12, maxDaysAhead: 10 });
    const dave = await t.userWithSession('customer', { branchId: branch.id });
    const treat = await makeTimedTreatment(t.deps.db, { maxSessions: 2 });
    await makePractitioner(t.deps.db, { branchIds: [branch.id], treatmentIds: [treat.id], fullName: 'Dr Silva' });
    const booking = (await makeBooking(t, admin.token, treat.id, dave)).id;

    const slots = await t.api(
      'GET',
      `/api/portal/availability?bookingId=${booking}&from=${dayFromToday(2)}&to=${dayFromToday(4)}`,
      {
        token: dave.token,
      },
    );
    expect(slots.status, JSON.stringify(slots.body)).toBe(200);
    expect(slots.body.data.length).toBeGreaterThan(0);
    expect(slots.body.data[0].practitioner.fullName).toBe('Dr Silva');

    const tooFar = await t.api('POST', '/api/portal/appointments', {
      token: dave.token,
      body: { bookingId: booking, start: at(dayFromToday(12), '10:00') },
    });
    expect(tooFar.status).toBe(409);
    expect(tooFar.body.message).toContain('10 days');
    const tooSoon = await t.api('POST', '/api/portal/appointments', {
      token: dave.token,
      body: {
        bookingId: booking,
        start: new Date(Date.now() + 3_600_000).toISOString().replace(/:\d\d\.\d{3}Z$/, ':00.000Z'),
      },
    });
    expect(tooSoon.status).toBe(409);
    expect(tooSoon.body.message).toContain('12 hours');

    const first = await t.api('POST', '/api/portal/appointments', {
      token: dave.token,
      body: { bookingId: booking, start: at(dayFromToday(3), '09:00'), userId: bob.id },
    });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body).toMatchObject({
      bookingId: booking,
      status: 'scheduled',
      practitioner: { fullName: 'Dr Silva' },
    });
    const [created] = await t.deps.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, first.body._id), eq(auditLog.action, 'create')));
    expect(created!.actorId).toBe(dave.id);

    // The same time again is taken (the staff calendar's rule).
    const taken = await t.api('POST', '/api/portal/appointments', {
      token: dave.token,
      body: { bookingId: booking, start: at(dayFromToday(3), '09:00') },
    });
    expect(taken.status).toBe(409);

    const second = await t.api('POST', '/api/portal/appointments', {
      token: dave.token,
      body: { bookingId: booking, start: at(dayFromToday(4), '10:00') },
    });
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    const third = await t.api('POST', '/api/portal/appointments', {
      token: dave.token,
      body: { bookingId: booking, start: at(dayFromToday(5), '10:00') },
    });
    expect(third.status).toBe(409);
    expect(third.body.message).toMatch(/sessions/);

    // Moving keeps to the same rules, and keeps the appointment.
    const moved = await t.api('PUT', `/api/portal/appointments/${second.body._id}`, {
      token: dave.token,
      body: { start: at(dayFromToday(6), '14:00') },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toMatchObject({
      _id: second.body._id,
      start: new Date(at(dayFromToday(6), '14:00')).toISOString(),
    });

    // Someone else's booking or appointment is not found.
    const foreign = await t.api('POST', '/api/portal/appointments', {
      token: alice.token,
      body: { bookingId: booking, start: at(dayFromToday(7), '10:00') },
    });
    expect(foreign.status).toBe(404);
    const foreignMove = await t.api('PUT', `/api/portal/appointments/${second.body._id}`, {
      token: alice.token,
      body: { start: at(dayFromToday(7), '10:00') },
    });
    expect(foreignMove.status).toBe(404);
    await setPortal({});
  });

  it('lets only one of two parallel bookings of the last session through', async () => {
    await setPortal({ selfBooking: true });
    const erin = await t.userWithSession('customer', { branchId: branch.id });
    const treat = await makeTimedTreatment(t.deps.db, { maxSessions: 1 });
    await makePractitioner(t.deps.db, { branchIds: [branch.id], treatmentIds: [treat.id] });
    await makePractitioner(t.deps.db, { branchIds: [branch.id], treatmentIds: [treat.id] });
    const booking = (await makeBooking(t, admin.token, treat.id, erin)).id;
    const tries = await Promise.all(
      ['09:00', '11:00', '15:00'].map((hhmm) =>
        t.api('POST', '/api/portal/appointments', {
          token: erin.token,
          body: { bookingId: booking, start: at(dayFromToday(3), hhmm) },
        }),
      ),
    );
    expect(tries.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    await setPortal({});
  });
});

describe('who may call the portal', () => {
  it('answers a staff member about themselves, and a signed-out caller 401', async () => {
    const me = await t.api('GET', '/api/portal/me', { token: admin.token });
    expect(me.status).toBe(200);
    expect(me.body._id).toBe(admin.id);
    expect((await t.api('GET', '/api/portal/home')).status).toBe(401);
  });
});
