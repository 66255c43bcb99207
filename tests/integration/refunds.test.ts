import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailOutbox } from '../../src/server/db/schema';
import { todayIn } from '../../src/shared/calendar';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeBranch, makeUser, postCourse, postTreatment, type MadeUser } from '../helpers/factories';
import { refusedIs4xx } from '../helpers/money-steps';
import { dayText } from '../helpers/day-text';

/**
 * Refunds (docs/payments.md#refunds) on a real PostgreSQL: partial and full refunds, the limit and
 * its figure, allocations reversed newest first or as named, no void once refunded, 20 parallel
 * refunds of one payment, gapless credit-note numbers, the credit note's PDF and e-mail, the
 * cash-up, tills and dashboard, roles; and a property test over random histories of payments,
 * adjustments, refunds and voids that every figure stays consistent with the ledger.
 */
const RUNS = Number(process.env.REFUND_RUNS ?? 8);
const SEED = Number(process.env.REFUND_SEED ?? Date.now() % 2_147_483_647);

let t: TestApp;
let admin: MadeUser & { token: string };
let manager: MadeUser & { token: string };
let branchId: string;
let courseId: string;
let treatmentId: string;
let today: string;

interface Enrollment {
  _id: string;
  admissionFee: number;
  admissionFeeAmountPaid: number;
  outstandingAmount: number;
  paidAmount: number;
  installments: Array<{ _id: string; amount: number; amountPaid: number; isPaid: boolean }>;
}

async function enrol(branch = branchId, course = courseId) {
  const who = await makeUser(t.deps.db, { role: 'student', branchId: branch });
  const res = await t.api('POST', '/api/enrollments', {
    token: admin.token,
    body: { email: who.email, courseId: course, paymentType: 'installment' },
  });
  expect(res.status).toBe(201);
  return { e: res.body as Enrollment, who };
}
const getEnrollment = async (id: string): Promise<Enrollment> =>
  (await t.api('GET', `/api/enrollments/${id}`, { token: admin.token })).body as Enrollment;
const pay = async (body: Record<string, unknown>, token = admin.token) => {
  const res = await t.api('POST', '/api/payments', { token, body: { method: 'cash', ...body } });
  expect(res.status).toBe(201);
  return res.body as { _id: string; receiptNumber: string; amount: number };
};
const refund = (paymentId: string, body: Record<string, unknown>, token = admin.token) =>
  t.api('POST', `/api/payments/${paymentId}/refunds`, { token, body: { method: 'cash', reason: 'Refund', ...body } });

async function pdfText(buffer: ArrayBuffer): Promise<string> {
  const doc = await getDocument({ data: new Uint8Array(buffer) }).promise;
  const parts: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    parts.push(content.items.map((it) => ('str' in it ? it.str : '')).join(' '));
  }
  return parts.join('\n');
}

beforeAll(async () => {
  t = await startTestApp();
  today = todayIn(t.deps.config.TIME_ZONE);
  branchId = (await makeBranch(t.deps.db, { name: 'Colombo' })).id;
  admin = await t.userWithSession('admin', { branchId });
  manager = await t.userWithSession('manager', { branchId });
  courseId = await postCourse(t, admin.token, 'Refund', { totalFee: 30000, admissionFee: 3000, installments: 3 });
  treatmentId = (
    await postTreatment(t, admin.token, {
      treatmentName: `Refund massage ${Math.random().toString(36).slice(2, 7)}`,
      localPrice: 10000,
      foreignPrice: 40,
      maxSessions: 4,
      installments: 2,
      duration: { weeks: 1, days: 0, months: 0 },
    })
  )._id;
});
afterAll(() => t.close());

describe('refunding a payment', () => {
  it('gives back part of a payment newest item first; the payment stays valid and answers refundedAmount', async () => {
    const { e } = await enrol();
    const p = await pay({ enrollmentId: e._id, amount: 8000 });
    const res = await refund(p._id, { amount: 4000, method: 'cash', reference: 'DRAWER', reason: 'Fee waived' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      _id: expect.any(String),
      payment: { _id: p._id, receiptNumber: p.receiptNumber },
      amount: 4000,
      currency: 'LKR',
      method: 'cash',
      reference: 'DRAWER',
      reason: 'Fee waived',
      creditNoteNumber: expect.stringMatching(/^CN-COL-\d{4}-\d{6}$/),
      refundedBy: { _id: admin.id, username: admin.username },
      allocations: [{ kind: 'enrollment_installment', installmentId: e.installments[0]!._id, amount: 4000 }],
    });
    const payment = await t.api('GET', `/api/payments/${p._id}`, { token: manager.token });
    expect(payment.body).toMatchObject({ status: 'valid', amount: 8000, refundedAmount: 4000 });
    const after = await getEnrollment(e._id);
    expect(after.admissionFeeAmountPaid).toBe(3000);
    expect(after.installments[0]).toMatchObject({ amountPaid: 1000, isPaid: false });
    expect(after).toMatchObject({ paidAmount: 4000, outstandingAmount: 29000 });
    // Its list and the payment list show it.
    const list = await t.api('GET', `/api/refunds?paymentId=${p._id}`, { token: manager.token });
    expect(list.body).toMatchObject({ total: 1, totals: [{ currency: 'LKR', amount: 4000, count: 1 }] });
    const ofEnrollment = await t.api('GET', `/api/enrollments/${e._id}/payments`, { token: manager.token });
    expect(ofEnrollment.body[0]).toMatchObject({ _id: p._id, refundedAmount: 4000 });
  });

  it('never gives back more than is left: 409 with the figure; then the rest; then nothing', async () => {
    const { e } = await enrol();
    const p = await pay({ enrollmentId: e._id, amount: 8000 });
    expect((await refund(p._id, { amount: 4000 })).status).toBe(201);
    const tooMuch = await refund(p._id, { amount: 4000.01 });
    expect(tooMuch).toMatchObject({
      status: 409,
      body: {
        message: `Only Rs. 4,000.00 of receipt ${p.receiptNumber} is left to refund.`,
        details: { refundable: 4000 },
      },
    });
    const rest = await refund(p._id, { amount: 4000 });
    expect(rest.status).toBe(201);
    // Newest item first: installment 1, then the admission fee.
    expect(rest.body.allocations).toEqual([
      expect.objectContaining({ kind: 'admission_fee', amount: 3000 }),
      expect.objectContaining({ kind: 'enrollment_installment', amount: 1000 }),
    ]);
    const none = await refund(p._id, { amount: 1 });
    expect(none).toMatchObject({ status: 409, body: { message: 'This payment has been refunded in full.' } });
    const after = await getEnrollment(e._id);
    expect(after).toMatchObject({ paidAmount: 0, outstandingAmount: 33000 });
    expect((await t.api('GET', `/api/payments/${p._id}`, { token: admin.token })).body).toMatchObject({
      status: 'valid',
      refundedAmount: 8000,
    });
  });

  it('refunds the items named, refusing items the payment did not pay and parts larger than they hold', async () => {
    const { e } = await enrol();
    const p = await pay({ enrollmentId: e._id, amount: 8000 });
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [
        {
          amount: 100,
          allocations: [{ kind: 'enrollment_installment', installmentId: e.installments[2]!._id, amount: 100 }],
        },
        400,
        'This payment did not pay that item.',
      ],
      [
        { amount: 100, allocations: [{ kind: 'admission_fee', amount: 50 }] },
        400,
        'The allocations must add up to the amount.',
      ],
      [
        { amount: 3000.01, allocations: [{ kind: 'admission_fee', amount: 3000.01 }] },
        409,
        'Only Rs. 3,000.00 of the admission fee is left to refund on this payment.',
      ],
    ];
    for (const [body, status, message] of cases) {
      const res = await refund(p._id, body);
      expect([res.status, res.body.message]).toEqual([status, message]);
    }
    const res = await refund(p._id, { amount: 3000, allocations: [{ kind: 'admission_fee', amount: 3000 }] });
    expect(res.status).toBe(201);
    const after = await getEnrollment(e._id);
    expect(after.admissionFeeAmountPaid).toBe(0);
    expect(after.installments[0]).toMatchObject({ amountPaid: 5000 });
  });

  it('a refunded payment can no longer be voided; a void payment cannot be refunded', async () => {
    const { e } = await enrol();
    const p = await pay({ enrollmentId: e._id, amount: 1000 });
    expect((await refund(p._id, { amount: 10 })).status).toBe(201);
    const v = await t.api('POST', `/api/payments/${p._id}/void`, { token: admin.token, body: { reason: 'Oops' } });
    expect(v).toMatchObject({
      status: 409,
      body: {
        message:
          'This payment has been refunded (Rs. 10.00); a refunded payment cannot be voided. Only money that was never really paid is voided.',
      },
    });
    const q = await pay({ enrollmentId: e._id, amount: 500 });
    expect(
      (await t.api('POST', `/api/payments/${q._id}/void`, { token: admin.token, body: { reason: 'x' } })).status,
    ).toBe(200);
    expect(await refund(q._id, { amount: 1 })).toMatchObject({
      status: 409,
      body: { message: 'A void payment cannot be refunded.' },
    });
  });

  it('refuses bad input with 400, an unknown payment with 404 and anyone but an admin with 403', async () => {
    const { e } = await enrol();
    const p = await pay({ enrollmentId: e._id, amount: 1000 });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ amount: 1, method: 'cash', reason: '' }, 'A reason is required to refund a payment.'],
      [{ amount: 1, method: 'cash' }, 'A reason is required to refund a payment.'],
      [{ amount: 1, reason: 'x' }, 'Method is required: cash, card, bank_transfer, cheque, online or other.'],
      [
        { amount: 1, method: 'gold', reason: 'x' },
        'Method must be cash, card, bank_transfer, cheque, online or other.',
      ],
      [{ amount: 0, method: 'cash', reason: 'x' }, 'Amount must be greater than 0 with at most two decimals.'],
      [{ amount: 1.001, method: 'cash', reason: 'x' }, 'Amount must be greater than 0 with at most two decimals.'],
    ];
    for (const [body, message] of cases) {
      const res = await t.api('POST', `/api/payments/${p._id}/refunds`, { token: admin.token, body });
      expect([body, res.status, res.body.message]).toEqual([body, 400, message]);
    }
    expect((await refund('00000000-0000-4000-8000-000000000000', { amount: 1 })).status).toBe(404);
    expect((await refund(p._id, { amount: 1 }, manager.token)).status).toBe(403);
    await expect(
      t.trpc(manager.token).refunds.create.mutate({ paymentId: p._id, amount: 1, method: 'cash', reason: 'x' }),
    ).rejects.toMatchObject({ data: { httpStatus: 403 } });
    expect((await t.api('GET', '/api/refunds')).status).toBe(401);
    expect((await getEnrollment(e._id)).paidAmount).toBe(1000);
  });

  it('refunds a cancelled booking, whose statement then owes and holds nothing', async () => {
    const customer = await makeUser(t.deps.db, { role: 'customer', branchId });
    const b = await t.api('POST', '/api/bookings/book', {
      token: admin.token,
      body: { userId: customer.id, treatmentId, userType: 'local', paymentType: 'installment' },
    });
    const p = await pay({ bookingId: b.body._id, amount: 5000 });
    expect((await t.api('PUT', `/api/bookings/bookings/${b.body._id}/cancel`, { token: admin.token })).status).toBe(
      200,
    );
    const res = await refund(p._id, { amount: 5000, reason: 'Cancelled the same day' });
    expect(res.status).toBe(201);
    const statement = await t.api('GET', `/api/users/${customer.id}/statement`, { token: admin.token });
    expect(statement.body.totals).toEqual([{ currency: 'LKR', charged: 0, paid: 0, balance: 0, overdue: 0 }]);
    expect(statement.body.lines.map((l: { kind: string; amount: number }) => [l.kind, l.amount])).toEqual([
      ['payment', -5000],
      ['refund', 5000],
    ]);
  });
});

describe('under concurrency', () => {
  it('20 parallel refunds of one payment never give back more than was paid; credit notes have no gaps', async () => {
    const kandy = (await makeBranch(t.deps.db, { name: 'Kandy' })).id;
    const { e } = await enrol(kandy);
    const p = await pay({ enrollmentId: e._id, amount: 1000 });
    expect(p.receiptNumber).toMatch(/^KAN-/);
    const answers = await Promise.all(Array.from({ length: 20 }, () => refund(p._id, { amount: 150 })));
    const ok = answers.filter((a) => a.status === 201);
    expect(ok).toHaveLength(6);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(14);
    expect(answers.every((a) => a.status === 201 || a.status === 409)).toBe(true);
    const year = today.slice(0, 4);
    expect(ok.map((a) => a.body.creditNoteNumber as string).sort()).toEqual(
      Array.from({ length: 6 }, (_, i) => `CN-KAN-${year}-${String(i + 1).padStart(6, '0')}`),
    );
    const payment = await t.api('GET', `/api/payments/${p._id}`, { token: admin.token });
    expect(payment.body.refundedAmount).toBe(900);
    expect((await getEnrollment(e._id)).paidAmount).toBe(100);
    // Refunds of other payments of the branch, all at once, continue the series without a gap.
    const more = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const { e: other } = await enrol(kandy);
        const q = await pay({ enrollmentId: other._id, amount: 500 });
        return refund(q._id, { amount: 500 });
      }),
    );
    expect(more.map((a) => a.status)).toEqual(Array(6).fill(201));
    expect(more.map((a) => a.body.creditNoteNumber as string).sort()).toEqual(
      Array.from({ length: 6 }, (_, i) => `CN-KAN-${year}-${String(i + 7).padStart(6, '0')}`),
    );
  });
});

describe('the credit note', () => {
  it('is a PDF marked CREDIT NOTE naming the receipt it refunds, and is e-mailed through the queue', async () => {
    const who = await makeUser(t.deps.db, {
      role: 'student',
      branchId,
      username: 'refund_nimal',
      fullName: 'Nimal Fernando',
    });
    const res0 = await t.api('POST', '/api/enrollments', {
      token: admin.token,
      body: { email: who.email, courseId, paymentType: 'installment' },
    });
    const p = await pay({ enrollmentId: res0.body._id, amount: 1250.5, method: 'card' });
    const r = (await refund(p._id, { amount: 1250.5, method: 'card', reference: 'RV-9', reason: 'Course moved' })).body;
    const res = await fetch(`${t.baseUrl}/api/refunds/${r._id}/credit-note`, {
      headers: { authorization: `Bearer ${manager.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="credit-note-${r.creditNoteNumber}.pdf"`);
    // The refunds list names the payer as the credit note does.
    const listed = await t.api('GET', `/api/refunds/${r._id}`, { token: manager.token });
    expect(listed.body.payer).toEqual({
      _id: who.id,
      username: 'refund_nimal',
      fullName: 'Nimal Fernando',
      email: who.email,
    });
    const text = await pdfText(await res.arrayBuffer());
    for (const bit of [
      'CREDIT NOTE',
      r.creditNoteNumber,
      p.receiptNumber,
      `Nimal Fernando (refund_nimal, ${who.email})`,
      'Course moved',
      'Card',
      'RV-9',
    ]) {
      expect(text).toContain(bit);
    }
    expect(text).toContain('One thousand two hundred and fifty rupees and fifty cents');
    // The receipt, printed again, says it was refunded and by which credit note.
    const receipt = await fetch(`${t.baseUrl}/api/payments/${p._id}/receipt`, {
      headers: { authorization: `Bearer ${manager.token}` },
    });
    const receiptText = await pdfText(await receipt.arrayBuffer());
    expect(receiptText).toContain('Refunded Rs. 1,250.50');
    expect(receiptText).toContain(r.creditNoteNumber);
    const mailed = await t.api('POST', `/api/refunds/${r._id}/email`, { token: manager.token });
    expect(mailed).toMatchObject({
      status: 202,
      body: { message: `Credit note ${r.creditNoteNumber} will be e-mailed to ${who.email}.` },
    });
    let mail: Array<typeof emailOutbox.$inferSelect> = [];
    for (let i = 0; i < 50 && mail.length === 0; i++) {
      mail = await t.deps.db.select().from(emailOutbox).where(eq(emailOutbox.to, who.email));
      if (!mail.length) await new Promise((done) => setTimeout(done, 100));
    }
    expect(mail[0]?.subject).toContain(`Credit note ${r.creditNoteNumber}`);
    expect(mail[0]?.text).toContain('Rs. 1,250.50');
  });

  it('prints the installment owed again with its due date as a day (22 Nov 2026), not ISO', async () => {
    const { e } = await enrol();
    const p = await pay({ enrollmentId: e._id, amount: 4000 });
    // Newest first: the 1,000 on installment 1 is what a 500 refund reverses.
    const r = (await refund(p._id, { amount: 500 })).body as { _id: string };
    const due = ((await getEnrollment(e._id)) as unknown as { installments: Array<{ dueDate: string }> })
      .installments[0]!.dueDate;
    const res = await fetch(`${t.baseUrl}/api/refunds/${r._id}/credit-note`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    const text = await pdfText(await res.arrayBuffer());
    expect(text).toContain(dayText(due));
    expect(text).not.toContain(due);
  });
});

describe('cash-up, tills and the dashboard', () => {
  it('count cash refunds as cash out: the till expects float + taken − refunded; the cash-up nets per method', async () => {
    const galle = (await makeBranch(t.deps.db, { name: 'Galle' })).id;
    const cashier = await t.userWithSession('admin', { branchId: galle });
    const till = await t.api('POST', '/api/tills', {
      token: cashier.token,
      body: { branchId: galle, openingFloat: [{ currency: 'LKR', amount: 1000 }] },
    });
    expect(till.status).toBe(201);
    const { e } = await enrol(galle);
    const p = await pay({ enrollmentId: e._id, amount: 5000 }, cashier.token);
    await pay({ enrollmentId: e._id, amount: 700, method: 'card' }, cashier.token);
    expect((await refund(p._id, { amount: 1200 }, cashier.token)).status).toBe(201);
    expect((await refund(p._id, { amount: 300, method: 'bank_transfer' }, cashier.token)).status).toBe(201);
    const open = await t.api('GET', `/api/tills/${till.body._id}`, { token: cashier.token });
    expect(open.body).toMatchObject({ expected: [{ currency: 'LKR', amount: 4800 }], payments: 1, refunds: 1 });
    const cashUp = await t.api('GET', `/api/payments/cash-up?branchId=${galle}`, { token: cashier.token });
    expect(cashUp.status).toBe(200);
    expect(cashUp.body.refunds).toEqual([
      { method: 'bank_transfer', currency: 'LKR', amount: 300, count: 1 },
      { method: 'cash', currency: 'LKR', amount: 1200, count: 1 },
    ]);
    expect(cashUp.body.net).toEqual([
      { method: 'bank_transfer', currency: 'LKR', amount: -300 },
      { method: 'card', currency: 'LKR', amount: 700 },
      { method: 'cash', currency: 'LKR', amount: 3800 },
    ]);
    // The payments themselves are counted as before.
    expect(cashUp.body.totals).toEqual([{ currency: 'LKR', amount: 5700, count: 2 }]);
    const dash = await t.api('GET', `/api/payments/dashboard?branchId=${galle}`, { token: cashier.token });
    expect(dash.body).toMatchObject({
      collectedToday: [{ currency: 'LKR', amount: 5700, count: 2 }],
      refundedToday: [{ currency: 'LKR', amount: 1500, count: 2 }],
      netToday: [{ currency: 'LKR', amount: 4200 }],
    });
    // The reports' summary groups the refunds by month, branch and method.
    const summary = await t.api('GET', `/api/adjustments/summary?branchId=${galle}`, { token: cashier.token });
    expect(summary.body.refunds).toEqual([
      expect.objectContaining({
        branch: { _id: galle, name: 'Galle' },
        method: 'bank_transfer',
        amount: 300,
        count: 1,
      }),
      expect.objectContaining({ branch: { _id: galle, name: 'Galle' }, method: 'cash', amount: 1200, count: 1 }),
    ]);
    expect(summary.body.refunds[0].month).toBe(today.slice(0, 7));
    const closed = await t.api('POST', `/api/tills/${till.body._id}/close`, {
      token: cashier.token,
      body: { counted: [{ currency: 'LKR', amount: 4800 }] },
    });
    expect(closed).toMatchObject({ status: 200, body: { difference: [{ currency: 'LKR', amount: 0 }] } });
  });
});

type Step =
  | { kind: 'pay'; share: number }
  | { kind: 'adjust'; percent: number | null; share: number; item: number | null; writeOff: boolean }
  | { kind: 'revoke'; which: number }
  | { kind: 'refund'; which: number; share: number }
  | { kind: 'void'; which: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('pay' as const), share: fc.double({ min: 0.05, max: 1.1, noNaN: true }) }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('adjust' as const),
      percent: fc.option(fc.integer({ min: 100, max: 10000 }).map((n) => n / 100)),
      share: fc.double({ min: 0.01, max: 1.2, noNaN: true }),
      item: fc.option(fc.nat(3)),
      writeOff: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('revoke' as const), which: fc.nat(5) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('refund' as const),
      which: fc.nat(5),
      share: fc.double({ min: 0.05, max: 1.2, noNaN: true }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('void' as const), which: fc.nat(5) }) },
);

const cents = (n: number) => Math.round(n * 100);

describe('random histories', () => {
  it('after payments, adjustments, refunds and voids: amount ≥ paid ≥ 0, owed = items − net allocations, reports equal the ledger', async () => {
    const api = t.trpc(admin.token);
    const fine = await postCourse(t, admin.token, 'Prop', { totalFee: 30000.05, admissionFee: 2500, installments: 3 });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        const branch = (await makeBranch(t.deps.db)).id;
        const { e, who } = await enrol(branch, fine);
        const made: string[] = [];
        const adjustments: string[] = [];
        for (const s of steps) {
          const now = await getEnrollment(e._id);
          if (s.kind === 'pay') {
            const amount = Math.max(0.01, Math.round(now.outstandingAmount * s.share * 100) / 100);
            const p = await refusedIs4xx(api.payments.record.mutate({ enrollmentId: e._id, amount, method: 'cash' }));
            if (p) made.push(p._id);
          } else if (s.kind === 'adjust') {
            const itemId =
              s.item === null ? undefined : s.item === 3 ? 'admission_fee' : now.installments[s.item % 3]!._id;
            const body = s.writeOff
              ? { kind: 'write_off' as const, itemId, reason: 'prop' }
              : s.percent !== null
                ? { kind: 'discount' as const, percent: s.percent, itemId, reason: 'prop' }
                : {
                    kind: 'scholarship' as const,
                    amount: Math.max(0.01, Math.round(now.outstandingAmount * s.share * 100) / 100),
                    itemId,
                    reason: 'prop',
                  };
            const a = await refusedIs4xx(api.adjustments.create.mutate({ enrollmentId: e._id, body }));
            if (a) adjustments.push(a._id);
          } else if (s.kind === 'revoke') {
            if (adjustments.length)
              await refusedIs4xx(
                api.adjustments.revoke.mutate({ id: adjustments[s.which % adjustments.length]!, reason: 'prop' }),
              );
          } else if (s.kind === 'refund') {
            if (made.length) {
              const id = made[s.which % made.length]!;
              const p = await api.payments.get.query({ id });
              const amount = Math.max(0.01, Math.round((p.amount - p.refundedAmount) * s.share * 100) / 100);
              await refusedIs4xx(api.refunds.create.mutate({ paymentId: id, amount, method: 'cash', reason: 'prop' }));
            }
          } else if (made.length) {
            await refusedIs4xx(api.payments.void.mutate({ id: made[s.which % made.length]!, reason: 'prop' }));
          }
        }
        const after = await getEnrollment(e._id);
        const items = [
          { amount: cents(after.admissionFee), paid: cents(after.admissionFeeAmountPaid) },
          ...after.installments.map((i) => ({ amount: cents(i.amount), paid: cents(i.amountPaid) })),
        ];
        for (const i of items) {
          expect(i.paid).toBeGreaterThanOrEqual(0);
          expect(i.amount).toBeGreaterThanOrEqual(i.paid);
        }
        // What the items hold paid is the valid payments less what was refunded of them.
        const payments = await api.payments.ofEnrollment.query({ id: e._id });
        const net = payments
          .filter((p) => p.status === 'valid')
          .reduce((s, p) => s + cents(p.amount) - cents(p.refundedAmount), 0);
        const paid = items.reduce((s, i) => s + i.paid, 0);
        const charged = items.reduce((s, i) => s + i.amount, 0);
        expect({ steps, paid }).toEqual({ steps, paid: net });
        expect(cents(after.paidAmount)).toBe(paid);
        expect(cents(after.outstandingAmount)).toBe(charged - paid);
        // The statement and the dashboard say the same.
        const statement = await t.api('GET', `/api/users/${who.id}/statement`, { token: admin.token });
        const total = statement.body.totals[0] ?? { charged: 0, paid: 0, balance: 0 };
        expect(cents(total.balance)).toBe(charged - paid);
        expect(cents(total.charged)).toBe(charged);
        expect(cents(total.paid)).toBe(paid);
        const dash = await api.payments.dashboard.query({ branchId: branch });
        expect(dash.outstanding.reduce((s, o) => s + cents(o.amount), 0)).toBe(charged - paid);
        // The adjustments' entries account for every cent taken off the fee.
        const list = await api.adjustments.list.query({ enrollmentId: e._id });
        const taken = list
          .filter((a) => a.status === 'applied')
          .reduce((s, a) => s + a.items.reduce((x, i) => x + cents(i.before) - cents(i.after), 0), 0);
        expect(charged + taken).toBe(3_000_005 + 250_000);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  });
});
