import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrollmentInstallments, messages, reminderLog, treatmentBookings, users } from '../../src/server/db/schema';
import { dueSpec } from '../../src/server/domains/messages/due-soon';
import { planMany } from '../../src/server/domains/messages/plan';
import { defaultMessageSettings, storeMessageSettings } from '../../src/server/domains/messages/settings';
import { queueOverdueReminders } from '../../src/server/domains/reminders/reminders.service';
import { formatDay } from '../../src/shared/format';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeUser } from '../helpers/factories';
import { daysFromToday, makeBooking, makeEnrollment, outboxFor, waitFor } from './reminders.fixtures';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ JOB_BACKOFF_MS: 50 });
  // Quiet hours off: the run may fall at night in TIME_ZONE, when the messages would wait.
  await storeMessageSettings(t.deps.db, { ...defaultMessageSettings(), quietHours: null });
});
afterAll(() => t.close());

const overdueOf = (entityId: string) =>
  t.deps.db
    .select()
    .from(messages)
    .where(and(eq(messages.entityId, entityId), eq(messages.event, 'installment_overdue')));

const jobsIdle = async () => {
  const { counts } = await t.deps.jobs.status({ limit: 1 });
  return counts.queued === 0 && counts.active === 0;
};

describe('overdue reminders (embedded driver)', () => {
  it('emails each overdue installment once a day, skipping paid, future, completed and cancelled ones', async () => {
    const student = await makeUser(t.deps.db, { role: 'student' });
    const customer = await makeUser(t.deps.db, { role: 'customer' });
    const { installments: enr } = await makeEnrollment(t.deps.db, student.id, [
      { dueDate: daysFromToday(-40), isPaid: true },
      { dueDate: daysFromToday(-10) },
      { dueDate: daysFromToday(0) },
      { dueDate: daysFromToday(20) },
    ]);
    await makeEnrollment(t.deps.db, student.id, [{ dueDate: daysFromToday(-5) }], { status: 'completed' });
    const { installments: bk, booking } = await makeBooking(t.deps.db, customer.id, [
      { dueDate: daysFromToday(-3) },
      { dueDate: daysFromToday(27) },
    ]);
    const { booking: cancelled } = await makeBooking(t.deps.db, customer.id, [{ dueDate: daysFromToday(-3) }], {
      status: 'cancelled',
    });

    const admin = await t.userWithSession('admin');
    const first = await t.api('POST', '/api/enrollments/send-reminders', { token: admin.token });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ message: '2 reminders queued.', queued: 2 });

    await waitFor(async () => (await outboxFor(t.deps.db)).length === 2 && (await jobsIdle()), 'two reminder emails');
    const toStudent = await outboxFor(t.deps.db, student.email);
    expect(toStudent).toHaveLength(1);
    const key = `installment_overdue:${student.id}:email:${enr[1]!.id}:${daysFromToday(0)}`;
    expect(toStudent[0]!.idempotencyKey).toBe(`message:${key}`);
    expect(toStudent[0]!.subject).toContain('Overdue payment');
    expect(toStudent[0]!.subject).toContain(t.deps.config.APP_NAME);
    expect(toStudent[0]!.text).toContain('Rs. 1,000.00');
    expect(toStudent[0]!.text).toContain(`due on ${formatDay(daysFromToday(-10))}`);
    expect(toStudent[0]!.transport).toBe('outbox');
    const toCustomer = await outboxFor(t.deps.db, customer.email);
    expect(toCustomer.map((r) => r.idempotencyKey)).toEqual([
      `message:installment_overdue:${customer.id}:email:${bk[0]!.id}:${daysFromToday(0)}`,
    ]);
    expect(toCustomer[0]!.text).toContain('Therapy');
    // In the delivery log: the e-mail sent, the SMS skipped (no phone stored).
    const logged = await overdueOf(enr[1]!.id);
    expect(logged.map((m) => [m.channel, m.status, m.reason]).sort()).toEqual([
      ['email', 'sent', null],
      ['sms', 'skipped', 'no_phone'],
    ]);

    // The same day again (by the button, and by the scheduled job): nothing new goes out.
    const again = await t.api('POST', '/api/enrollments/send-reminders', { token: admin.token });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({
      message: "No reminders to send: no overdue installment is waiting for today's reminder.",
      queued: 0,
    });
    await t.deps.jobs.enqueue('send-overdue-reminders', {});
    await waitFor(jobsIdle, 'the scheduled run to finish');
    expect(await outboxFor(t.deps.db)).toHaveLength(2);
    expect(await overdueOf(enr[1]!.id)).toHaveLength(2);
    // The scheduled run also stores the overdue status the booking reached by time alone.
    const stored = async (id: string) =>
      (
        await t.deps.db
          .select({ s: treatmentBookings.paymentStatus })
          .from(treatmentBookings)
          .where(eq(treatmentBookings.id, id))
      )[0]?.s;
    expect(await stored(booking.id)).toBe('overdue');
    expect(await stored(cancelled.id)).toBe('pending');
    // Nothing writes the old reminder log any more.
    expect(await t.deps.db.select().from(reminderLog)).toHaveLength(0);
  });

  it('gives a paid installment no reminder, and skips one paid after it was planned', async () => {
    const student = await makeUser(t.deps.db, { role: 'student' });
    const { installments } = await makeEnrollment(t.deps.db, student.id, [
      { dueDate: daysFromToday(-2), isPaid: true },
      { dueDate: daysFromToday(-1) },
    ]);
    const late = installments[1]!;
    // Planned inside a transaction whose send is not run yet; paid before the send job runs.
    await t.deps.db.transaction(async (tx) => {
      await planMany(tx, t.deps, [
        dueSpec(
          'installment_overdue',
          { id: late.id, userId: student.id, amount: 100_000, currency: 'LKR', dueDate: late.dueDate, what: 'x' },
          'earlier',
        ),
      ]);
      await tx.update(enrollmentInstallments).set({ isPaid: true }).where(eq(enrollmentInstallments.id, late.id));
    });
    await waitFor(jobsIdle, 'jobs to settle');
    const [email] = (await overdueOf(late.id)).filter((m) => m.channel === 'email');
    expect(email).toMatchObject({ status: 'skipped', reason: 'paid', sentAt: null });
    expect(await outboxFor(t.deps.db, student.email)).toHaveLength(0);
    // The daily run plans nothing for paid installments.
    const { queued } = await queueOverdueReminders(t.deps);
    expect(queued).toBe(0);
  });

  it('honours the switches and opt-outs, each skipped with why', async () => {
    const student = await makeUser(t.deps.db, { role: 'student' });
    await t.deps.db.update(users).set({ phone: '+94771230001', optOutEmail: true }).where(eq(users.id, student.id));
    const { installments } = await makeEnrollment(t.deps.db, student.id, [{ dueDate: daysFromToday(-3) }]);
    const settings = defaultMessageSettings();
    await storeMessageSettings(t.deps.db, {
      ...settings,
      quietHours: null,
      events: { ...settings.events, installment_overdue: { email: true, sms: false } },
    });
    try {
      expect((await queueOverdueReminders(t.deps)).queued).toBe(0);
    } finally {
      await storeMessageSettings(t.deps.db, { ...settings, quietHours: null });
    }
    const rows = await overdueOf(installments[0]!.id);
    expect(rows.map((m) => [m.channel, m.status, m.reason]).sort()).toEqual([
      ['email', 'skipped', 'opted_out'],
      ['sms', 'skipped', 'switched_off'],
    ]);
  });

  it('walks every overdue installment in pages, without skipping or repeating', async () => {
    const student = await makeUser(t.deps.db, { role: 'student' });
    // Several installments on one due date: the page boundary falls inside equal dates.
    const dues = [-9, -9, -9, -8, -8, -7, -7, -7, -7, -6, -5].map((d) => ({ dueDate: daysFromToday(d) }));
    await makeEnrollment(t.deps.db, student.id, dues);
    const { queued } = await queueOverdueReminders(t.deps, { batchSize: 2 });
    expect(queued).toBe(dues.length);
    await waitFor(
      async () => (await outboxFor(t.deps.db, student.email)).length === dues.length && (await jobsIdle()),
      'every page emailed',
    );
    expect(new Set((await outboxFor(t.deps.db, student.email)).map((r) => r.idempotencyKey)).size).toBe(dues.length);
  });

  it('is for admins: a manager gets 403, anonymous 401; tRPC jobs.sendReminders answers the same count', async () => {
    const manager = await t.userWithSession('manager');
    expect((await t.api('POST', '/api/enrollments/send-reminders', { token: manager.token })).status).toBe(403);
    expect((await t.api('POST', '/api/enrollments/send-reminders')).status).toBe(401);
    await expect(t.trpc(manager.token).jobs.sendReminders.mutate()).rejects.toMatchObject({
      data: { code: 'FORBIDDEN' },
    });

    const customer = await makeUser(t.deps.db, { role: 'customer' });
    await makeBooking(t.deps.db, customer.id, [{ dueDate: daysFromToday(-1) }]);
    const admin = await t.userWithSession('superadmin');
    const res = await t.trpc(admin.token).jobs.sendReminders.mutate();
    expect(res).toEqual({ message: '1 reminder queued.', queued: 1 });
    await waitFor(async () => (await outboxFor(t.deps.db, customer.email)).length === 1, 'the booking reminder');
  });
});
