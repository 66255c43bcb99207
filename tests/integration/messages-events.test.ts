import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, users } from '../../src/server/db/schema';
import { planDueSoon } from '../../src/server/domains/messages/due-soon';
import { defaultMessageSettings } from '../../src/server/domains/messages/settings';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeBranch, postCourse, type MadeUser } from '../helpers/factories';
import { colombo, dayFromToday, enrolStudent, postBatch, weekdayOf } from '../helpers/class-factories';
import { daysFromToday, makeEnrollment, waitFor } from './reminders.fixtures';
import { makeUser } from '../helpers/factories';

/**
 * The class, attendance, payment and due-date events (docs/messages.md#events), each planned once
 * by the change that causes it, on a real PostgreSQL with the in-process driver and the
 * development outboxes (no e-mail provider, no SMS gateway).
 */
let t: TestApp;
let admin: MadeUser & { token: string };
let courseId: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.userWithSession('admin');
  courseId = await postCourse(t, admin.token, 'Messages', { totalFee: 30000, admissionFee: 3000, installments: 3 });
  await t.api('PUT', '/api/message-settings', {
    token: admin.token,
    body: { ...defaultMessageSettings(), quietHours: null },
  });
});
afterAll(() => t.close());

const rowsOf = (entityId: string) => t.deps.db.select().from(messages).where(eq(messages.entityId, entityId));

async function batchWithStudents(timetableDay: string, n = 2) {
  const branch = await makeBranch(t.deps.db);
  const instructor = await t.userWithSession('user', { branchId: branch.id });
  const batch = await postBatch(t, admin.token, {
    courseId,
    branchId: branch.id,
    instructorId: instructor.id,
    startDate: dayFromToday(-8),
    endDate: dayFromToday(20),
    timetable: [{ weekday: weekdayOf(timetableDay), start: '09:00', end: '10:00' }],
  });
  const students = [];
  for (let i = 0; i < n; i++) {
    const s = await enrolStudent(t, admin.token, courseId, { branchId: branch.id });
    await t.deps.db
      .update(users)
      .set({ phone: `+9477666${1000 + i}` })
      .where(eq(users.id, s.student.id));
    const res = await t.api('PUT', `/api/enrollments/${s.enrollmentId}/batch`, {
      token: admin.token,
      body: { batchId: batch._id, joinedOn: dayFromToday(-8) },
    });
    expect(res.status).toBe(200);
    students.push(s);
  }
  const sessions = (await t.api('GET', `/api/batches/${batch._id}/sessions`, { token: admin.token })).body
    .data as Array<{
    _id: string;
    start: string;
  }>;
  return { batch, students, sessions };
}

describe('class sessions', () => {
  it('moving a session tells each student on its roster once, with the old and new time; cancelling likewise', async () => {
    const day = dayFromToday(9);
    const { students, sessions } = await batchWithStudents(day);
    const s = sessions.find((x) => x.start === colombo(day, '09:00'))!;
    const moved = await t.api('PUT', `/api/class-sessions/${s._id}`, {
      token: admin.token,
      body: { start: colombo(day, '11:00'), end: colombo(day, '12:00') },
    });
    expect(moved.status).toBe(200);
    let rows = await rowsOf(s._id);
    const movedSms = rows.filter((r) => r.event === 'class_moved' && r.channel === 'sms');
    expect(movedSms.map((r) => r.recipientId).sort()).toEqual(students.map((x) => x.student.id).sort());
    expect(movedSms[0]!.text).toContain('09:00');
    expect(movedSms[0]!.text).toContain('11:00');

    const cancelled = await t.api('POST', `/api/class-sessions/${s._id}/cancel`, {
      token: admin.token,
      body: { reason: 'Holiday' },
    });
    expect(cancelled.status).toBe(200);
    rows = await rowsOf(s._id);
    expect(rows.filter((r) => r.event === 'class_cancelled')).toHaveLength(students.length * 2);
    await waitFor(async () => {
      const r = await rowsOf(s._id);
      return r.filter((m) => m.event === 'class_cancelled').every((m) => m.status === 'sent');
    }, 'the cancellations to be sent');
    const sent = (await rowsOf(s._id)).find((r) => r.event === 'class_cancelled' && r.channel === 'sms')!;
    expect(sent).toMatchObject({ transport: 'outbox', attempts: 1 });
  });

  it("an absence SMS goes to the guardian's phone when one is recorded, shown on the user", async () => {
    const day = dayFromToday(-3);
    const { students, sessions } = await batchWithStudents(day, 1);
    const past = sessions.find((x) => x.start === colombo(day, '09:00'))!;
    const a = students[0]!;
    // A bad number is refused with the field's message; a local one is stored as E.164.
    const bad = await t
      .trpc(admin.token)
      .users.update.mutate({ id: a.student.id, guardianPhone: '12' })
      .catch((e) => e);
    expect(String(bad.message)).toContain('Guardian phone is not a valid phone number.');
    const saved = await t.trpc(admin.token).users.update.mutate({ id: a.student.id, guardianPhone: '077 555 0101' });
    expect(saved.guardianPhone).toBe('+94775550101');
    const read = await t.api('GET', `/api/users/${a.student.id}`, { token: admin.token });
    expect(read.body.guardianPhone).toBe('+94775550101');
    const res = await t.api('PUT', `/api/class-sessions/${past._id}/attendance`, {
      token: admin.token,
      body: { marks: [{ enrollmentId: a.enrollmentId, status: 'absent' }] },
    });
    expect(res.status).toBe(200);
    const rows = (await rowsOf(past._id)).filter((r) => r.event === 'absence');
    expect(rows.find((r) => r.channel === 'sms')).toMatchObject({ to: '+94775550101', recipientId: a.student.id });
    expect(rows.find((r) => r.channel === 'email')?.to).toBe(a.student.email);
    // A user without one answers no such field: the answer is as it was before it existed.
    const other = await makeUser(t.deps.db, { role: 'student' });
    expect('guardianPhone' in (await t.api('GET', `/api/users/${other.id}`, { token: admin.token })).body).toBe(false);
  });

  it('an absence mark sends one notice to that student, and marking it again sends none', async () => {
    const day = dayFromToday(-2);
    const { students, sessions } = await batchWithStudents(day);
    const past = sessions.find((x) => x.start === colombo(day, '09:00'))!;
    const [a, b] = students as [(typeof students)[0], (typeof students)[0]];
    const marks = {
      marks: [
        { enrollmentId: a.enrollmentId, status: 'absent' },
        { enrollmentId: b.enrollmentId, status: 'present' },
      ],
    };
    expect(
      (await t.api('PUT', `/api/class-sessions/${past._id}/attendance`, { token: admin.token, body: marks })).status,
    ).toBe(200);
    // Marked present, then absent again: still one absence notice.
    await t.api('PUT', `/api/class-sessions/${past._id}/attendance`, {
      token: admin.token,
      body: { marks: [{ enrollmentId: a.enrollmentId, status: 'present' }] },
    });
    await t.api('PUT', `/api/class-sessions/${past._id}/attendance`, {
      token: admin.token,
      body: { marks: [{ enrollmentId: a.enrollmentId, status: 'absent' }] },
    });
    const rows = (await rowsOf(past._id)).filter((r) => r.event === 'absence');
    expect(rows.map((r) => [r.recipientId, r.channel]).sort()).toEqual(
      [
        [a.student.id, 'email'],
        [a.student.id, 'sms'],
      ].sort(),
    );
  });
});

describe('payments and due dates', () => {
  it('payment_received is off by default (logged as switched off) and sends the receipt notice once switched on', async () => {
    const s = await enrolStudent(t, admin.token, courseId);
    const first = await t.api('POST', '/api/payments', {
      token: admin.token,
      body: { enrollmentId: s.enrollmentId, amount: 1000, method: 'cash' },
    });
    expect(first.status).toBe(201);
    expect(await rowsOf(first.body._id)).toMatchObject([
      { event: 'payment_received', status: 'skipped', reason: 'switched_off' },
      { event: 'payment_received', status: 'skipped', reason: 'switched_off' },
    ]);
    const settings = defaultMessageSettings();
    settings.events.payment_received = { email: true, sms: false };
    await t.api('PUT', '/api/message-settings', { token: admin.token, body: { ...settings, quietHours: null } });
    const second = await t.api('POST', '/api/payments', {
      token: admin.token,
      body: { enrollmentId: s.enrollmentId, amount: 2000, method: 'cash' },
    });
    const email = await waitFor(async () => {
      const r = (await rowsOf(second.body._id)).find((m) => m.channel === 'email');
      return r?.status === 'sent' ? r : undefined;
    }, 'the receipt notice');
    expect(email.text).toContain(second.body.receiptNumber);
    expect(email.text).toContain('2,000.00');
  });

  it('installment_due_soon: one notice per installment due in three days, however often the daily run goes', async () => {
    const student = await makeUser(t.deps.db, { role: 'student' });
    const { installments } = await makeEnrollment(t.deps.db, student.id, [
      { dueDate: daysFromToday(3) },
      { dueDate: daysFromToday(4) },
      { dueDate: daysFromToday(3), isPaid: true },
    ]);
    await planDueSoon(t.deps);
    await planDueSoon(t.deps);
    const [due, later, paid] = [installments[0]!, installments[1]!, installments[2]!];
    expect((await rowsOf(due.id)).map((r) => r.channel).sort()).toEqual(['email', 'sms']);
    expect(await rowsOf(later.id)).toEqual([]);
    expect(await rowsOf(paid.id)).toEqual([]);
    const sms = (await rowsOf(due.id)).find((r) => r.channel === 'sms')!;
    expect(sms).toMatchObject({ status: 'skipped', reason: 'no_phone' });
  });
});

describe('on the embedded database', () => {
  // PGlite has one connection: a message planned or sent inside a transaction must not reach for
  // another (the payment used to wait for itself forever).
  it('plans and sends the receipt notice of a payment, as `npm start` runs without DATABASE_URL', async () => {
    const e = await startTestApp({}, { embedded: true });
    try {
      const staff = await e.userWithSession('admin');
      const settings = defaultMessageSettings();
      settings.events.payment_received = { email: true, sms: false };
      const put = await e.api('PUT', '/api/message-settings', {
        token: staff.token,
        body: { ...settings, quietHours: null },
      });
      expect(put.status).toBe(200);
      const course = await postCourse(e, staff.token, 'Embedded messages', {
        totalFee: 3000,
        admissionFee: 0,
        installments: 1,
      });
      const s = await enrolStudent(e, staff.token, course);
      const paid = await e.api('POST', '/api/payments', {
        token: staff.token,
        body: { enrollmentId: s.enrollmentId, amount: 500, method: 'cash' },
      });
      expect(paid.status).toBe(201);
      const email = await waitFor(async () => {
        const rows = await e.deps.db
          .select()
          .from(messages)
          .where(eq(messages.entityId, paid.body._id as string));
        const r = rows.find((m) => m.channel === 'email');
        return r?.status === 'sent' ? r : undefined;
      }, 'the receipt notice on PGlite');
      expect(email.text).toContain(paid.body.receiptNumber as string);
    } finally {
      await e.close();
    }
  });
});
