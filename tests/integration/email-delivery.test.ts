import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';
import { waitForEmail, withoutQuietHours } from '../helpers/email';
import { makeBranch, makeUser, postCourse } from '../helpers/factories';
import { defaultMessageSettings } from '../../src/server/domains/messages/settings';
import { hhmm, wallClockOf } from '../../src/shared/zoned-time';

/**
 * A queued receipt or statement e-mail says where it goes (docs/payments.md#receipts): through
 * the configured provider, or, with none (no RESEND_API_KEY), only into the development outbox.
 * The receipt asked for is the payment_received message, logged and in the payer's language, and
 * the credit note's e-mail is in the payer's language too (docs/messages.md#the-receipt-e-mail).
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
  await withoutQuietHours(withProvider.deps.db);
  await withoutQuietHours(withoutProvider.deps.db);
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
  return { admin, manager, student, payment: p.body as { _id: string; receiptNumber: string } };
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

interface LogItem {
  _id: string;
  event: string;
  channel: string;
  language: string;
  status: string;
  reason: string | null;
  sendAt: string;
  subject: string | null;
  text: string;
  entityId: string;
}

/** The payer's sent payment_received messages in the delivery log, once the send job has run. */
async function sentReceipts(t: TestApp, adminToken: string, payerId: string): Promise<LogItem[]> {
  let items: LogItem[] = [];
  for (let i = 0; i < 200 && items.length === 0; i++) {
    const log = await t.api('GET', `/api/messages?event=payment_received&status=sent&recipientId=${payerId}`, {
      token: adminToken,
    });
    expect(log.status).toBe(200);
    items = log.body.data as LogItem[];
    if (!items.length) await new Promise((r) => setTimeout(r, 50));
  }
  return items;
}

const setPreferences = (t: TestApp, token: string, userId: string, language: string, optOutEmail = false) =>
  t.api('PUT', `/api/users/${userId}/contact-preferences`, {
    token,
    body: { language, optOut: { email: optOutEmail, sms: false } },
  });

describe('the receipt asked for is the payment_received message', () => {
  it('is in the delivery log as payment_received, sent, with the receipt in its text; the answer is unchanged', async () => {
    const t = withoutProvider;
    const { admin, manager, student, payment } = await paidStudent(t);
    const res = await t.api('POST', `/api/payments/${payment._id}/email`, { token: manager.token });
    expect(res.status).toBe(202);
    expect(Object.keys(res.body).sort()).toEqual(['delivery', 'jobId', 'message']);
    expect(res.body.message).toBe(
      `Receipt ${payment.receiptNumber} for ${student.email} was queued to the outbox: no e-mail provider is configured, so it is not sent.`,
    );
    const [m, ...more] = await sentReceipts(t, admin.token, student.id);
    expect(more).toEqual([]);
    expect(m).toMatchObject({ event: 'payment_received', channel: 'email', language: 'en', entityId: payment._id });
    expect(m!.subject).toContain(payment.receiptNumber);
    expect(m!.text).toContain(`This is your receipt ${payment.receiptNumber}`);
    expect(m!.text).toContain('Total: Rs. 500.00 (Five hundred rupees)');
    expect(m!.text).toContain('Method: Cash');
    expect(res.body.jobId).toBe(`message:${m!._id}:${new Date(m!.sendAt).getTime()}`);
    const mail = await waitForEmail(t.deps.db, student.email);
    expect(mail.text).toContain(`This is your receipt ${payment.receiptNumber}`);
    // Asked for, so it carries no opt-out line.
    expect(mail.text).not.toContain('To stop these e-mails');
  });

  it("names the payer's branch, and none for a payer at no branch", async () => {
    const t = withoutProvider;
    const { admin, manager, student, payment } = await paidStudent(t);
    expect((await t.api('POST', `/api/payments/${payment._id}/email`, { token: manager.token })).status).toBe(202);
    const [m] = await sentReceipts(t, admin.token, student.id);
    expect(m!.text).toContain(`Thank you for your payment. This is your receipt ${payment.receiptNumber}.`);
    expect(m!.text).not.toContain('branch');

    const branch = await makeBranch(t.deps.db, { name: `Kandy ${student.id.slice(0, 6)}` });
    const atBranch = await makeUser(t.deps.db, { role: 'student', branchId: branch.id });
    const courseId = await postCourse(t, admin.token, 'Branch', { totalFee: 1000, admissionFee: 0, installments: 1 });
    const e = await t.api('POST', '/api/enrollments', {
      token: admin.token,
      body: { userId: atBranch.id, courseId, paymentType: 'full' },
    });
    const p = await t.api('POST', '/api/payments', {
      token: manager.token,
      body: { enrollmentId: e.body._id, amount: 1000, method: 'cash' },
    });
    expect(p.status).toBe(201);
    expect((await t.api('POST', `/api/payments/${p.body._id}/email`, { token: manager.token })).status).toBe(202);
    const [n] = await sentReceipts(t, admin.token, atBranch.id);
    expect(n!.text).toContain(`This is your receipt ${p.body.receiptNumber} from our ${branch.name} branch.`);
  });

  it('reaches a payer who opted out of e-mail', async () => {
    const t = withoutProvider;
    const { admin, manager, student, payment } = await paidStudent(t);
    expect((await setPreferences(t, manager.token, student.id, 'en', true)).status).toBe(200);
    expect((await t.api('POST', `/api/payments/${payment._id}/email`, { token: manager.token })).status).toBe(202);
    const [m] = await sentReceipts(t, admin.token, student.id);
    expect(m!.text).toContain(payment.receiptNumber);
    expect((await waitForEmail(t.deps.db, student.email)).text).toContain(payment.receiptNumber);
  });

  it('is written in Sinhala for a payer whose language is si', async () => {
    const t = withoutProvider;
    const { admin, manager, student, payment } = await paidStudent(t);
    expect((await setPreferences(t, manager.token, student.id, 'si')).status).toBe(200);
    const res = await t.api('POST', `/api/payments/${payment._id}/email`, { token: manager.token });
    // The answer is the cashier's, in English as documented.
    expect(res.body.message).toBe(
      `Receipt ${payment.receiptNumber} for ${student.email} was queued to the outbox: no e-mail provider is configured, so it is not sent.`,
    );
    const [m] = await sentReceipts(t, admin.token, student.id);
    expect(m!.language).toBe('si');
    expect(m!.subject).toBe(`රිසිට්පත ${payment.receiptNumber}: ඔබගේ ගෙවීම ලැබුණි`);
    expect(m!.text).toContain('ඔබගේ ගෙවීමට ස්තූතියි.');
    expect(m!.text).toContain(`ඔබගේ රිසිට්පත ${payment.receiptNumber} වේ.`);
    expect(m!.text).toContain('ගෙවීමේ ක්‍රමය: මුදලින්');
    expect(m!.text).not.toContain('Thank you for your payment');
    expect((await waitForEmail(t.deps.db, student.email)).text).toContain('ඔබගේ ගෙවීමට ස්තූතියි.');
  });

  it('waits for the end of quiet hours, as every message but a cancellation does', async () => {
    const t = withoutProvider;
    const { admin, manager, student, payment } = await paidStudent(t);
    // Quiet hours around now, on the organisation's clock (Asia/Colombo).
    expect(t.deps.config.TIME_ZONE).toBe('Asia/Colombo');
    const now = wallClockOf('Asia/Colombo', new Date());
    const end = hhmm((now.minute + 60) % 1440);
    const quietHours = { start: hhmm((now.minute + 1440 - 60) % 1440), end };
    const put = (body: unknown) => t.api('PUT', '/api/message-settings', { token: admin.token, body });
    expect((await put({ ...defaultMessageSettings(), quietHours })).status).toBe(200);
    try {
      expect((await t.api('POST', `/api/payments/${payment._id}/email`, { token: manager.token })).status).toBe(202);
      let waiting: LogItem[] = [];
      for (let i = 0; i < 200 && waiting.length === 0; i++) {
        const log = await t.api(
          'GET',
          `/api/messages?event=payment_received&status=waiting&recipientId=${student.id}`,
          {
            token: admin.token,
          },
        );
        waiting = log.body.data as LogItem[];
        if (!waiting.length) await new Promise((r) => setTimeout(r, 50));
      }
      expect(waiting).toHaveLength(1);
      // Held until the quiet hours end, on the organisation's clock.
      expect(hhmm(wallClockOf('Asia/Colombo', new Date(waiting[0]!.sendAt)).minute)).toBe(end);
      expect(waiting[0]!.text).toContain(payment.receiptNumber);
    } finally {
      await put({ ...defaultMessageSettings(), quietHours: null });
    }
  });

  it("a receipt job queued before the upgrade is still delivered, in the payer's language", async () => {
    const t = withoutProvider;
    const { manager, student, payment } = await paidStudent(t);
    expect((await setPreferences(t, manager.token, student.id, 'ta')).status).toBe(200);
    await t.deps.jobs.enqueue('send-email', {
      key: `receipt:${payment._id}:before-upgrade`,
      template: 'receipt',
      userId: student.id,
      ref: payment._id,
    });
    await t.deps.jobs.flush?.();
    const mail = await waitForEmail(t.deps.db, student.email);
    expect(mail.subject).toContain(`ரசீது ${payment.receiptNumber}`);
    expect(mail.text).toContain('உங்கள் கட்டணத்திற்கு நன்றி.');
  });

  it('and the credit note is e-mailed in Tamil to a payer whose language is ta', async () => {
    const t = withoutProvider;
    const { admin, manager, student, payment } = await paidStudent(t);
    expect((await setPreferences(t, manager.token, student.id, 'ta')).status).toBe(200);
    const r = await t.api('POST', `/api/payments/${payment._id}/refunds`, {
      token: admin.token,
      body: { amount: 200, method: 'cash', reason: 'Course moved' },
    });
    expect(r.status).toBe(201);
    const note = r.body as { _id: string; creditNoteNumber: string };
    const res = await t.api('POST', `/api/refunds/${note._id}/email`, { token: manager.token });
    expect(res).toMatchObject({
      status: 202,
      body: { message: `Credit note ${note.creditNoteNumber} will be e-mailed to ${student.email}.` },
    });
    const mail = await waitForEmail(t.deps.db, student.email);
    expect(mail.subject).toContain(`வரவுக் குறிப்பு ${note.creditNoteNumber}`);
    expect(mail.text).toContain(`உங்கள் ரசீது ${payment.receiptNumber} தொகையில் Rs. 200.00 திருப்பி வழங்கியுள்ளோம்.`);
    expect(mail.text).toContain('திருப்பி வழங்கிய மொத்தம்: Rs. 200.00');
    expect(mail.text).toContain('காரணம்: Course moved');
    expect(mail.text).not.toContain('We have refunded');
  });
});
