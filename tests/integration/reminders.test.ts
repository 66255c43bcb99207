import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrollmentInstallments, reminderLog, treatmentBookings } from '../../src/server/db/schema';
import { queueOverdueReminders } from '../../src/server/domains/reminders/reminders.service';
import { formatDay } from '../../src/shared/format';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeUser } from '../helpers/factories';
import { daysFromToday, makeBooking, makeEnrollment, outboxFor, waitFor } from './reminders.fixtures';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ JOB_BACKOFF_MS: 50 });
});
afterAll(() => t.close());

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
    expect(toStudent[0]!.idempotencyKey).toBe(`reminder:enrollment:${enr[1]!.id}:${daysFromToday(0)}`);
    expect(toStudent[0]!.subject).toContain('Payment reminder');
    expect(toStudent[0]!.subject).toContain(t.deps.config.APP_NAME);
    expect(toStudent[0]!.text).toContain('Installment 2');
    expect(toStudent[0]!.text).toContain('Rs. 1,000.00');
    expect(toStudent[0]!.text).toContain(`was due on ${formatDay(daysFromToday(-10))}`);
    expect(toStudent[0]!.transport).toBe('outbox');
    const toCustomer = await outboxFor(t.deps.db, customer.email);
    expect(toCustomer.map((r) => r.idempotencyKey)).toEqual([`reminder:booking:${bk[0]!.id}:${daysFromToday(0)}`]);
    expect(toCustomer[0]!.text).toContain('treatment');

    // The same day again (by the button, and by the scheduled job): nothing new goes out.
    const again = await t.api('POST', '/api/enrollments/send-reminders', { token: admin.token });
    expect(again.status).toBe(200);
    expect(again.body.queued).toBe(0);
    await t.deps.jobs.enqueue('send-overdue-reminders', {});
    await waitFor(jobsIdle, 'the scheduled run to finish');
    expect(await outboxFor(t.deps.db)).toHaveLength(2);
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
    const logged = await t.deps.db.select().from(reminderLog);
    expect(logged).toHaveLength(2);
  });

  it('gives a paid installment no reminder, even one paid after its reminder was queued', async () => {
    const student = await makeUser(t.deps.db, { role: 'student' });
    const { installments } = await makeEnrollment(t.deps.db, student.id, [
      { dueDate: daysFromToday(-2), isPaid: true },
      { dueDate: daysFromToday(-1) },
    ]);
    // Paid late: the queued email finds nothing to remind of.
    const late = installments[1]!;
    await t.deps.db.update(enrollmentInstallments).set({ isPaid: true }).where(eq(enrollmentInstallments.id, late.id));
    await t.deps.jobs.enqueue('send-email', {
      key: `reminder:enrollment:${late.id}:test`,
      template: 'reminder',
      userId: student.id,
      ref: `enrollment:${late.id}`,
    });
    const { queued } = await queueOverdueReminders(t.deps);
    expect(queued).toBe(0);
    await waitFor(jobsIdle, 'jobs to settle');
    expect(await outboxFor(t.deps.db, student.email)).toHaveLength(0);
    const { jobs } = await t.deps.jobs.status({ state: 'completed', limit: 50 });
    expect(jobs.some((j) => j.name === 'send-email')).toBe(true);
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
