import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeBranch, makeUser, postCourse, postTreatment, type MadeUser } from '../helpers/factories';

/**
 * "Fee waived, money returned" (docs/payments.md#fee-waived-money-returned) on a real PostgreSQL:
 * the refund and a discount of each refunded part happen together, so the record owes what it owed
 * before; when the discount cannot follow, the refund does not happen either.
 */
let t: TestApp;
let admin: MadeUser & { token: string };
let manager: MadeUser & { token: string };
let branchId: string;
let courseId: string;
let treatmentId: string;

interface Enrollment {
  _id: string;
  admissionFee: number;
  admissionFeeAmountPaid: number;
  outstandingAmount: number;
  paidAmount: number;
  installments: Array<{ _id: string; amount: number; amountPaid: number; isPaid: boolean }>;
}

async function enrol() {
  const who = await makeUser(t.deps.db, { role: 'student', branchId });
  const res = await t.api('POST', '/api/enrollments', {
    token: admin.token,
    body: { email: who.email, courseId, paymentType: 'installment' },
  });
  expect(res.status).toBe(201);
  return res.body as Enrollment;
}
const getEnrollment = async (id: string): Promise<Enrollment> =>
  (await t.api('GET', `/api/enrollments/${id}`, { token: admin.token })).body as Enrollment;
const pay = async (body: Record<string, unknown>) => {
  const res = await t.api('POST', '/api/payments', { token: admin.token, body: { method: 'cash', ...body } });
  expect(res.status).toBe(201);
  return res.body as { _id: string; receiptNumber: string; amount: number };
};
const creditNoteText = async (refundId: string): Promise<string> => {
  const res = await fetch(`${t.baseUrl}/api/refunds/${refundId}/credit-note`, {
    headers: { authorization: `Bearer ${manager.token}` },
  });
  expect(res.status).toBe(200);
  const doc = await getDocument({ data: new Uint8Array(await res.arrayBuffer()) }).promise;
  const parts: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    parts.push(content.items.map((it) => ('str' in it ? it.str : '')).join(' '));
  }
  return parts.join('\n');
};
const refundWaived = (paymentId: string, body: Record<string, unknown>, token = admin.token) =>
  t.api('POST', `/api/payments/${paymentId}/refunds/fee-waived`, {
    token,
    body: { method: 'cash', reason: 'Exempted', ...body },
  });

beforeAll(async () => {
  t = await startTestApp();
  branchId = (await makeBranch(t.deps.db, { name: 'Colombo' })).id;
  admin = await t.userWithSession('admin', { branchId });
  manager = await t.userWithSession('manager', { branchId });
  courseId = await postCourse(t, admin.token, 'Waive', { totalFee: 30000, admissionFee: 3000, installments: 3 });
  treatmentId = (
    await postTreatment(t, admin.token, {
      treatmentName: `Waive massage ${Math.random().toString(36).slice(2, 7)}`,
      localPrice: 10000,
      foreignPrice: 40,
      maxSessions: 4,
      installments: 2,
      duration: { weeks: 1, days: 0, months: 0 },
    })
  )._id;
});
afterAll(() => t.close());

describe('refund with the fee waived', () => {
  it('gives the money back and takes the same part off each item, so what is owed stays as it was', async () => {
    const e = await enrol();
    // 3,000 admission fee, then 5,000 of installment 1.
    const p = await pay({ enrollmentId: e._id, amount: 8000 });
    const before = await getEnrollment(e._id);
    const res = await refundWaived(p._id, { amount: 4000, reason: 'Exempted half' });
    expect(res.status).toBe(201);
    const inst1 = e.installments[0]!._id;
    expect(res.body).toMatchObject({
      refund: {
        amount: 4000,
        payment: { _id: p._id },
        creditNoteNumber: expect.stringMatching(/^CN-COL-\d{4}-\d{6}$/),
        allocations: [{ kind: 'enrollment_installment', installmentId: inst1, amount: 4000 }],
      },
      adjustments: [
        {
          kind: 'discount',
          status: 'applied',
          total: 4000,
          reason: 'Fee waived: Exempted half',
          items: [{ itemId: inst1, item: 'installment', before: 10000, after: 6000 }],
        },
      ],
    });
    const after = await getEnrollment(e._id);
    expect(after.outstandingAmount).toBe(before.outstandingAmount);
    expect(after.paidAmount).toBe(4000);
    expect(after.installments[0]).toMatchObject({ amount: 6000, amountPaid: 1000 });
    const payment = await t.api('GET', `/api/payments/${p._id}`, { token: admin.token });
    expect(payment.body).toMatchObject({ status: 'valid', refundedAmount: 4000 });
    // The details screen's money history lists both.
    const refunds = await t.api('GET', `/api/refunds?enrollmentId=${e._id}`, { token: manager.token });
    expect(refunds.body).toMatchObject({ total: 1, data: [{ amount: 4000 }] });
    const adjustments = await t.api('GET', `/api/enrollments/${e._id}/adjustments`, { token: manager.token });
    expect(adjustments.body).toHaveLength(1);
  });

  it('labels the credit note items "Refunded for", not "Owed again", since the waiver leaves nothing owed', async () => {
    const e = await enrol();
    const p = await pay({ enrollmentId: e._id, amount: 8000 });
    const waived = await refundWaived(p._id, { amount: 4000, reason: 'Exempted half' });
    expect(waived.status).toBe(201);
    const waivedText = await creditNoteText(waived.body.refund._id);
    expect(waivedText).toContain('Refunded for');
    expect(waivedText).not.toContain('Owed again');
    // A plain refund of the same payment does leave its items owed again, and says so.
    const plain = await t.api('POST', `/api/payments/${p._id}/refunds`, {
      token: admin.token,
      body: { method: 'cash', reason: 'Plain', amount: 1000 },
    });
    expect(plain.status).toBe(201);
    const plainText = await creditNoteText(plain.body._id);
    expect(plainText).toContain('Owed again');
    expect(plainText).not.toContain('Refunded for');
  });

  it('spreads over every item the refund reaches, the admission fee included', async () => {
    const e = await enrol();
    const p = await pay({ enrollmentId: e._id, amount: 8000 });
    const res = await refundWaived(p._id, { amount: 8000 });
    expect(res.status).toBe(201);
    const items = (res.body.adjustments as Array<{ items: Array<{ item: string; before: number; after: number }> }>)
      .flatMap((a) => a.items)
      .map((i) => [i.item, i.before, i.after]);
    expect(items).toEqual([
      ['admission_fee', 3000, 0],
      ['installment', 10000, 5000],
    ]);
    const after = await getEnrollment(e._id);
    expect(after).toMatchObject({ admissionFee: 0, admissionFeeAmountPaid: 0, paidAmount: 0 });
    expect(after.outstandingAmount).toBe(25000);
  });

  it('refuses the whole action when the fee cannot be waived: a cancelled booking keeps its payment unrefunded', async () => {
    const customer = await makeUser(t.deps.db, { role: 'customer', branchId });
    const b = await t.api('POST', '/api/bookings/book', {
      token: admin.token,
      body: { userId: customer.id, treatmentId, userType: 'local', paymentType: 'installment' },
    });
    const p = await pay({ bookingId: b.body._id, amount: 5000 });
    expect((await t.api('PUT', `/api/bookings/bookings/${b.body._id}/cancel`, { token: admin.token })).status).toBe(
      200,
    );
    const res = await refundWaived(p._id, { amount: 5000 });
    expect(res.status).toBe(409);
    const payment = await t.api('GET', `/api/payments/${p._id}`, { token: admin.token });
    expect(payment.body).toMatchObject({ refundedAmount: 0 });
    const refunds = await t.api('GET', `/api/refunds?paymentId=${p._id}`, { token: admin.token });
    expect(refunds.body.total).toBe(0);
  });

  it('answers 409 with the figure past what is left, 400 for bad input and 403 for a manager', async () => {
    const e = await enrol();
    const p = await pay({ enrollmentId: e._id, amount: 8000 });
    const tooMuch = await refundWaived(p._id, { amount: 9000 });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.details).toEqual({ refundable: 8000 });
    expect((await refundWaived(p._id, { amount: 100, reason: ' ' })).status).toBe(400);
    expect((await refundWaived(p._id, { amount: 100 }, manager.token)).status).toBe(403);
    expect((await getEnrollment(e._id)).paidAmount).toBe(8000);
  });
});
