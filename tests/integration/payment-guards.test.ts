import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailOutbox, enrollments, payments } from '../../src/server/db/schema';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeBranch, makeUser, postCourse, type MadeUser } from '../helpers/factories';
import { withoutQuietHours } from '../helpers/email';

/**
 * What the ledger refuses to write or send (docs/payments.md): a payment without its method, one
 * dated outside what the caller may date it, and receipt e-mails past their hourly limits.
 */
let t: TestApp;
let admin: MadeUser & { token: string };
let manager: MadeUser & { token: string };
let branchId: string;
let courseId: string;

const DAY_MS = 24 * 60 * 60_000;

beforeAll(async () => {
  t = await startTestApp();
  await withoutQuietHours(t.deps.db);
  branchId = (await makeBranch(t.deps.db, { name: 'Matara' })).id;
  admin = await t.userWithSession('admin');
  manager = await t.userWithSession('manager', { branchId });
  courseId = await postCourse(t, admin.token, 'Guards', { totalFee: 30000, admissionFee: 3000, installments: 3 });
});
afterAll(() => t.close());

async function enrol(who?: MadeUser) {
  const student = who ?? (await makeUser(t.deps.db, { role: 'student', branchId }));
  const res = await t.api('POST', '/api/enrollments', {
    token: admin.token,
    body: { email: student.email, courseId, paymentType: 'installment' },
  });
  expect(res.status).toBe(201);
  return { id: res.body._id as string, student };
}

const pay = (body: Record<string, unknown>, token = manager.token) => t.api('POST', '/api/payments', { token, body });
const paymentsOf = (enrollmentId: string) =>
  t.deps.db.select().from(payments).where(eq(payments.enrollmentId, enrollmentId));

describe('the method of a payment', () => {
  it('is required: a missing or unknown method answers 400 and records nothing, over REST and tRPC', async () => {
    const { id } = await enrol();
    const missing = await pay({ enrollmentId: id, amount: 100 });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('Method is required: cash, card, bank_transfer, cheque, online or other.');
    const unknown = await pay({ enrollmentId: id, amount: 100, method: 'barter' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('Method must be cash, card, bank_transfer, cheque, online or other.');
    await expect(
      t.trpc(manager.token).payments.record.mutate({ enrollmentId: id, amount: 100 } as never),
    ).rejects.toMatchObject({ data: { httpStatus: 400 } });
    expect(await paymentsOf(id)).toEqual([]);
    const named = await pay({ enrollmentId: id, amount: 100, method: 'card' });
    expect(named.status).toBe(201);
    expect(named.body.method).toBe('card');
  });
});

describe('when a payment was received', () => {
  it('lets a manager back-date up to BACKDATE_DAYS, and only admins further', async () => {
    const { id } = await enrol();
    // The enrolment existed long enough for the dates below to be about the window alone.
    await t.deps.db
      .update(enrollments)
      .set({ createdAt: new Date(Date.now() - 400 * DAY_MS), enrolledOn: '2020-01-01' })
      .where(eq(enrollments.id, id));
    const withinWindow = new Date(Date.now() - 30 * DAY_MS).toISOString();
    expect((await pay({ enrollmentId: id, amount: 100, method: 'cash', receivedAt: withinWindow })).status).toBe(201);

    const beyond = new Date(Date.now() - 40 * DAY_MS).toISOString();
    const refused = await pay({ enrollmentId: id, amount: 100, method: 'cash', receivedAt: beyond });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(
      'Only admins and superadmins can record a payment received more than 31 days ago.',
    );
    await expect(
      t
        .trpc(manager.token)
        .payments.record.mutate({ enrollmentId: id, amount: 100, method: 'cash', receivedAt: beyond }),
    ).rejects.toMatchObject({ data: { httpStatus: 403 } });
    expect(await paymentsOf(id)).toHaveLength(1);

    const byAdmin = await pay({ enrollmentId: id, amount: 100, method: 'cash', receivedAt: beyond }, admin.token);
    expect(byAdmin.status).toBe(201);
    expect(byAdmin.body.receivedAt).toBe(beyond);
  });

  it('refuses anyone a date before the enrolment or booking existed, and in the future', async () => {
    const { id } = await enrol();
    const [row] = await t.deps.db
      .select({ enrolledOn: enrollments.enrolledOn })
      .from(enrollments)
      .where(eq(enrollments.id, id));
    const cases: Array<[string, MadeUser & { token: string }, number, string]> = [
      ['1900-01-01T00:00:00Z', admin, 400, `Received at cannot be before the enrollment existed (${row!.enrolledOn}).`],
      [
        new Date(Date.now() - 2 * DAY_MS).toISOString(),
        manager,
        400,
        `Received at cannot be before the enrollment existed (${row!.enrolledOn}).`,
      ],
      [new Date(Date.now() + 3600_000).toISOString(), admin, 400, 'Received at cannot be in the future.'],
    ];
    for (const [receivedAt, who, status, message] of cases) {
      const res = await pay({ enrollmentId: id, amount: 100, method: 'cash', receivedAt }, who.token);
      expect(res.status, receivedAt).toBe(status);
      expect(res.body.message).toBe(message);
    }
    expect(await paymentsOf(id)).toEqual([]);

    const customer = await makeUser(t.deps.db, { role: 'customer', branchId });
    const tr = await t.api('POST', '/api/treatments', {
      token: admin.token,
      body: {
        treatmentName: `Guard massage ${Date.now()}`,
        localPrice: 10000,
        foreignPrice: 40,
        maxSessions: 4,
        installments: 2,
        duration: { weeks: 1, days: 0, months: 0 },
      },
    });
    const booking = await t.api('POST', '/api/bookings/book', {
      token: admin.token,
      body: { userId: customer.id, treatmentId: tr.body._id, userType: 'local', paymentType: 'installment' },
    });
    expect(booking.status).toBe(201);
    const early = await pay(
      { bookingId: booking.body._id, amount: 10, method: 'cash', receivedAt: '1999-05-01T10:00:00Z' },
      admin.token,
    );
    expect(early.status).toBe(400);
    expect(early.body.message).toMatch(/^Received at cannot be before the booking existed \(\d{4}-\d{2}-\d{2}\)\.$/);
  });
});

describe('receipt e-mails', () => {
  const email = (id: string, token = manager.token) => t.api('POST', `/api/payments/${id}/email`, { token });

  async function paidPayment() {
    const { id, student } = await enrol();
    const res = await pay({ enrollmentId: id, amount: 500, method: 'cash' });
    expect(res.status).toBe(201);
    return { paymentId: res.body._id as string, student };
  }

  it('sends a receipt at most 3 times an hour, then 429 with Retry-After, over REST and tRPC', async () => {
    const { paymentId, student } = await paidPayment();
    const answers = await Promise.all(Array.from({ length: 25 }, () => email(paymentId)));
    expect(answers.filter((a) => a.status === 202)).toHaveLength(3);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(22);
    for (const r of refused) {
      expect(r.body.message).toBe('This receipt has been e-mailed 3 times in the last hour. Please try again later.');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(3000);
    }
    await expect(t.trpc(admin.token).payments.emailReceipt.mutate({ id: paymentId })).rejects.toMatchObject({
      data: { httpStatus: 429 },
    });
    // The queued three go out; nothing more.
    let sent = 0;
    for (let i = 0; i < 100 && sent < 3; i++) {
      sent = (await t.deps.db.select().from(emailOutbox).where(eq(emailOutbox.to, student.email))).length;
      if (sent < 3) await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 300));
    expect(await t.deps.db.select().from(emailOutbox).where(eq(emailOutbox.to, student.email))).toHaveLength(3);
  });

  it('lets one sender e-mail 30 receipts an hour', async () => {
    const sender = await t.userWithSession('manager', { branchId });
    const made = [];
    for (let i = 0; i < 11; i++) made.push(await paidPayment());
    let accepted = 0;
    for (const { paymentId } of made) {
      for (let k = 0; k < 3; k++) if ((await email(paymentId, sender.token)).status === 202) accepted++;
    }
    expect(accepted).toBe(30);
    const over = await email((await paidPayment()).paymentId, sender.token);
    expect(over.status).toBe(429);
    expect(over.body.message).toBe('You have e-mailed 30 receipts in the last hour. Please try again later.');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another sender is not held by it.
    expect((await email((await paidPayment()).paymentId)).status).toBe(202);
  });
});
