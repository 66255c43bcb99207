import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';
import { waitForEmail } from '../helpers/email';
import { makeUser, postCourse } from '../helpers/factories';

/**
 * A queued receipt or statement e-mail says where it goes (docs/payments.md#receipts): through
 * the configured provider, or, with none (no RESEND_API_KEY), only into the development outbox.
 */

/** Resend's POST /emails as far as the app uses it: every request is answered with an id. */
function fakeResend() {
  const sentTo: string[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const to = (JSON.parse(raw) as { to: string | string[] }).to;
      sentTo.push(...(Array.isArray(to) ? to : [to]));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: `email_${sentTo.length}` }));
    });
  });
  return {
    sentTo,
    async start() {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const resend = fakeResend();
let withProvider: TestApp;
let withoutProvider: TestApp;

beforeAll(async () => {
  const url = await resend.start();
  withProvider = await startTestApp({ RESEND_API_KEY: 're_test_key', RESEND_BASE_URL: url });
  withoutProvider = await startTestApp();
});
afterAll(async () => {
  await withProvider?.close();
  await withoutProvider?.close();
  await resend.close();
});

/** A student who paid 500 of a course, and a manager to e-mail for them. */
async function paidStudent(t: TestApp) {
  const admin = await t.userWithSession('admin');
  const manager = await t.userWithSession('manager');
  const student = await makeUser(t.deps.db, { role: 'student' });
  const courseId = await postCourse(t, admin.token, 'Delivery', { totalFee: 3000, admissionFee: 0, installments: 1 });
  const e = await t.api('POST', '/api/enrollments', {
    token: admin.token,
    body: { userId: student.id, courseId, paymentType: 'full' },
  });
  expect(e.status).toBe(201);
  const p = await t.api('POST', '/api/payments', {
    token: manager.token,
    body: { enrollmentId: e.body._id, amount: 500, method: 'cash' },
  });
  expect(p.status).toBe(201);
  return { manager, student, payment: p.body as { _id: string; receiptNumber: string } };
}

describe('a queued e-mail says where it goes', () => {
  it('with a provider: the receipt and the statement will be e-mailed, and are', async () => {
    const t = withProvider;
    const { manager, student, payment } = await paidStudent(t);
    const receipt = await t.api('POST', `/api/payments/${payment._id}/email`, { token: manager.token });
    expect(receipt).toMatchObject({
      status: 202,
      body: { delivery: 'email', message: `Receipt ${payment.receiptNumber} will be e-mailed to ${student.email}.` },
    });
    const statement = await t.trpc(manager.token).statements.email.mutate({ userId: student.id });
    expect(statement).toMatchObject({
      delivery: 'email',
      message: `The statement will be e-mailed to ${student.email}.`,
    });
    await expect.poll(() => resend.sentTo.filter((to) => to === student.email).length, { timeout: 10_000 }).toBe(2);
  });

  it('without one: both say they were queued to the outbox, not sent, and wait there', async () => {
    const t = withoutProvider;
    const { manager, student, payment } = await paidStudent(t);
    const receipt = await t.trpc(manager.token).payments.emailReceipt.mutate({ id: payment._id });
    expect(receipt).toMatchObject({
      delivery: 'outbox',
      message: `Receipt ${payment.receiptNumber} for ${student.email} was queued to the outbox: no e-mail provider is configured, so it is not sent.`,
    });
    const statement = await t.api('POST', `/api/users/${student.id}/statement/email`, {
      token: manager.token,
      body: {},
    });
    expect(statement).toMatchObject({
      status: 202,
      body: {
        delivery: 'outbox',
        message: `The statement for ${student.email} was queued to the outbox: no e-mail provider is configured, so it is not sent.`,
      },
    });
    expect((await waitForEmail(t.deps.db, student.email)).transport).toBe('outbox');
    expect(resend.sentTo).not.toContain(student.email);
  });
});
