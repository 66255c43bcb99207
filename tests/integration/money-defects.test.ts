import { eq } from 'drizzle-orm';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrollments, treatmentBookings } from '../../src/server/db/schema';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeBranch, makeUser, postCourse, type MadeUser } from '../helpers/factories';

/**
 * Money defects of issue 46 on a real PostgreSQL: the receipt's balance as it stood after the
 * payment, Mark as Unpaid never voiding a payment that settles something else, and part-payments
 * showing in the statuses.
 */
let t: TestApp;
let admin: MadeUser & { token: string };
let manager: MadeUser & { token: string };
let branchId: string;
let courseId: string;
let treatmentId: string;

async function enrol() {
  const who = await makeUser(t.deps.db, { role: 'student', branchId });
  const res = await t.api('POST', '/api/enrollments', {
    token: admin.token,
    body: { email: who.email, courseId, paymentType: 'installment' },
  });
  expect(res.status).toBe(201);
  return res.body as { _id: string; installments: Array<{ _id: string; amount: number }> };
}

async function book() {
  const customer = await makeUser(t.deps.db, { role: 'customer', branchId });
  const res = await t.api('POST', '/api/bookings/book', {
    token: admin.token,
    body: { userId: customer.id, treatmentId, userType: 'local', paymentType: 'installment' },
  });
  expect(res.status).toBe(201);
  return res.body as { _id: string; installments: Array<{ _id: string; amount: number }> };
}

const pay = (body: Record<string, unknown>) =>
  t.api('POST', '/api/payments', { token: manager.token, body: { method: 'cash', ...body } });
const getEnrollment = async (id: string) => (await t.api('GET', `/api/enrollments/${id}`, { token: admin.token })).body;

async function receiptText(paymentId: string): Promise<string> {
  const res = await fetch(`${t.baseUrl}/api/payments/${paymentId}/receipt`, {
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
}

beforeAll(async () => {
  t = await startTestApp();
  branchId = (await makeBranch(t.deps.db, { name: 'Matara' })).id;
  admin = await t.userWithSession('admin');
  manager = await t.userWithSession('manager', { branchId });
  // 3,000 admission fee and three installments of 10,000: 33,000 in all.
  courseId = await postCourse(t, admin.token, 'Money', { totalFee: 30000, admissionFee: 3000, installments: 3 });
  const tr = await t.api('POST', '/api/treatments', {
    token: admin.token,
    body: {
      treatmentName: 'Money massage',
      localPrice: 10000,
      foreignPrice: 40,
      maxSessions: 4,
      installments: 2,
      duration: { weeks: 1, days: 0, months: 0 },
    },
  });
  treatmentId = tr.body._id;
});
afterAll(() => t.close());

describe('a receipt states the balance right after its payment', () => {
  it('on an enrolment, and a reprint after later payments says the same', async () => {
    const e = await enrol();
    const first = (await pay({ enrollmentId: e._id, amount: 5000 })).body;
    expect(await receiptText(first._id)).toContain('Balance outstanding on this enrollment: Rs. 28,000.00');
    const second = (await pay({ enrollmentId: e._id, amount: 1000 })).body;
    expect(await receiptText(second._id)).toContain('Balance outstanding on this enrollment: Rs. 27,000.00');
    expect(await receiptText(first._id)).toContain('Balance outstanding on this enrollment: Rs. 28,000.00');
  });

  it('on a booking', async () => {
    const b = await book();
    const p = (await pay({ bookingId: b._id, amount: 2000 })).body;
    expect(await receiptText(p._id)).toContain('Balance outstanding on this booking: Rs. 8,000.00');
  });
});

describe('Mark as Unpaid', () => {
  it('refuses (409, naming the receipt) when a payment also settled the admission fee, and the preview says so', async () => {
    const e = await enrol();
    const inst = e.installments[0]!;
    const cash = (
      await pay({
        enrollmentId: e._id,
        amount: 7000,
        allocations: [
          { kind: 'admission_fee', amount: 3000 },
          { kind: 'enrollment_installment', installmentId: inst._id, amount: 4000 },
        ],
      })
    ).body;
    const marked = await t.api('POST', `/api/enrollments/${e._id}/pay-installment`, {
      token: admin.token,
      body: { installmentId: inst._id, isPaid: true },
    });
    expect(marked.status).toBe(200);

    const preview = await t
      .trpc(admin.token)
      .payments.unmarkPreview.query({ enrollmentId: e._id, installmentId: inst._id });
    expect(preview.blockedBy).toBe(cash.receiptNumber);
    expect(preview.payments.map((p) => p.amount).sort()).toEqual([4000 + 3000, 6000].sort());

    const unmark = await t.api('POST', `/api/enrollments/${e._id}/pay-installment`, {
      token: admin.token,
      body: { installmentId: inst._id, isPaid: false },
    });
    expect(unmark).toMatchObject({
      status: 409,
      body: {
        message: `This was paid with receipt ${cash.receiptNumber} together with other items; void that receipt instead.`,
      },
    });
    const after = await getEnrollment(e._id);
    expect(after).toMatchObject({ admissionFeePaid: true, paidAmount: 13000 });
    const listed = (await t.api('GET', `/api/enrollments/${e._id}/payments`, { token: admin.token })).body;
    expect(listed.map((p: { status: string }) => p.status)).toEqual(['valid', 'valid']);
  });

  it('voids the payments that settle only that item, as the preview listed them', async () => {
    const e = await enrol();
    const inst = e.installments[0]!;
    const part = (
      await pay({
        enrollmentId: e._id,
        amount: 1000,
        allocations: [{ kind: 'enrollment_installment', installmentId: inst._id, amount: 1000 }],
      })
    ).body;
    await t.api('POST', `/api/enrollments/${e._id}/pay-installment`, {
      token: admin.token,
      body: { installmentId: inst._id, isPaid: true },
    });
    const preview = await t
      .trpc(admin.token)
      .payments.unmarkPreview.query({ enrollmentId: e._id, installmentId: inst._id });
    expect(preview.blockedBy).toBeNull();
    expect(preview.payments.map((p) => [p.receiptNumber === part.receiptNumber, p.amount])).toEqual([
      [true, 1000],
      [false, 9000],
    ]);
    const unmark = await t.api('POST', `/api/enrollments/${e._id}/pay-installment`, {
      token: admin.token,
      body: { installmentId: inst._id, isPaid: false },
    });
    expect(unmark.status).toBe(200);
    expect(unmark.body.installments[0]).toMatchObject({ isPaid: false, amountPaid: 0 });
  });

  it('the preview is for admins, and a bad input is a 4xx', async () => {
    const e = await enrol();
    await expect(t.trpc(manager.token).payments.unmarkPreview.query({ enrollmentId: e._id })).rejects.toMatchObject({
      data: { httpStatus: 403 },
    });
    await expect(t.trpc(admin.token).payments.unmarkPreview.query({})).rejects.toMatchObject({
      message: expect.stringContaining('Choose the enrollment or the booking.'),
    });
    await expect(
      t.trpc(admin.token).payments.unmarkPreview.query({ enrollmentId: '00000000-0000-4000-8000-000000000000' }),
    ).rejects.toMatchObject({ data: { httpStatus: 404 } });
  });
});

describe('the unmark preview over REST', () => {
  it('answers what tRPC answers, for an installment, the admission fee and a booking installment', async () => {
    const e = await enrol();
    const inst = e.installments[0]!;
    const both = (
      await pay({
        enrollmentId: e._id,
        amount: 4000,
        allocations: [
          { kind: 'admission_fee', amount: 3000 },
          { kind: 'enrollment_installment', installmentId: inst._id, amount: 1000 },
        ],
      })
    ).body;
    const rest = await t.api('GET', `/api/enrollments/${e._id}/installments/${inst._id}/unmark-preview`, {
      token: admin.token,
    });
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual(
      await t.trpc(admin.token).payments.unmarkPreview.query({ enrollmentId: e._id, installmentId: inst._id }),
    );
    expect(rest.body).toMatchObject({
      blockedBy: both.receiptNumber,
      payments: [{ receiptNumber: both.receiptNumber, amount: 4000, method: 'cash' }],
    });

    const fee = await t.api('GET', `/api/enrollments/${e._id}/admission-fee/unmark-preview`, { token: admin.token });
    expect(fee.status).toBe(200);
    expect(fee.body.blockedBy).toBe(both.receiptNumber);
    // Previewing voids nothing.
    expect((await getEnrollment(e._id)).paidAmount).toBe(4000);

    const b = await book();
    const paid = (await pay({ bookingId: b._id, amount: b.installments[0]!.amount })).body;
    const onBooking = await t.api(
      'GET',
      `/api/bookings/${b._id}/installments/${b.installments[0]!._id}/unmark-preview`,
      {
        token: admin.token,
      },
    );
    expect(onBooking).toMatchObject({
      status: 200,
      body: { blockedBy: null, message: null, payments: [{ receiptNumber: paid.receiptNumber }] },
    });
  });

  it('is for admins, and an unknown record or installment is 404', async () => {
    const e = await enrol();
    const other = await enrol();
    const path = `/api/enrollments/${e._id}/installments/${e.installments[0]!._id}/unmark-preview`;
    expect((await t.api('GET', path, { token: manager.token })).status).toBe(403);
    expect((await t.api('GET', path)).status).toBe(401);
    const notFound = async (p: string, message: string) =>
      expect(await t.api('GET', p, { token: admin.token })).toMatchObject({ status: 404, body: { message } });
    await notFound(
      `/api/enrollments/${e._id}/installments/${other.installments[0]!._id}/unmark-preview`,
      'Installment not found.',
    );
    await notFound(`/api/enrollments/${e._id}/installments/not-an-id/unmark-preview`, 'Installment not found.');
    await notFound(
      '/api/enrollments/00000000-0000-4000-8000-000000000000/admission-fee/unmark-preview',
      'Enrollment not found.',
    );
    await notFound(
      `/api/bookings/${e._id}/installments/${e.installments[0]!._id}/unmark-preview`,
      'Booking not found.',
    );
  });
});

describe('part-payments show in the statuses', () => {
  it('an enrolment with part of an installment or of the admission fee paid is Active (Partial), stored too', async () => {
    const e = await enrol();
    const inst = e.installments[0]!;
    await pay({
      enrollmentId: e._id,
      amount: 5000,
      allocations: [{ kind: 'enrollment_installment', installmentId: inst._id, amount: 5000 }],
    });
    expect((await getEnrollment(e._id)).displayStatus).toBe('Active (Partial)');
    const stored = await t.deps.db.select().from(enrollments).where(eq(enrollments.id, e._id));
    expect(stored[0]!.displayStatus).toBe('Active (Partial)');

    const fee = await enrol();
    await pay({ enrollmentId: fee._id, amount: 1000 });
    expect((await getEnrollment(fee._id)).displayStatus).toBe('Active (Partial)');
    const feeRow = await t.deps.db.select().from(enrollments).where(eq(enrollments.id, fee._id));
    expect(feeRow[0]!.displayStatus).toBe('Active (Partial)');
  });

  it('a booking with part of an installment paid is partially_paid, and paid only once everything is', async () => {
    const b = await book();
    const first = (await pay({ bookingId: b._id, amount: 2000 })).body;
    const status = async () =>
      (await t.deps.db.select().from(treatmentBookings).where(eq(treatmentBookings.id, b._id)))[0]!.paymentStatus;
    expect(await status()).toBe('partially_paid');
    const got = await t.api('GET', `/api/bookings/booking/${b._id}`, { token: admin.token });
    expect(got.body.paymentStatus).toBe('partially_paid');
    await pay({ bookingId: b._id, amount: 8000 });
    expect(await status()).toBe('paid');
    await t.api('POST', `/api/payments/${first._id}/void`, { token: admin.token, body: { reason: 'Bounced' } });
    expect(await status()).toBe('partially_paid');
  });
});
