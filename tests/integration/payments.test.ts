import { eq } from 'drizzle-orm';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailOutbox, enrollments } from '../../src/server/db/schema';
import { addToDate, todayIn } from '../../src/shared/calendar';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeBranch, makeUser, postCourse, type MadeUser } from '../helpers/factories';
import { download, readXlsx } from '../helpers/report-factories';
import { withoutQuietHours } from '../helpers/email';
import { dayText } from '../helpers/day-text';

/**
 * The payments ledger (docs/payments.md) on a real PostgreSQL: allocation, partial payments,
 * over-payment, concurrency, receipt numbers, voids, the documented toggles, deletion, cash-up,
 * receipts and roles.
 */
let t: TestApp;
let admin: MadeUser & { token: string };
let manager: MadeUser & { token: string };
let student: MadeUser;
let branchId: string;
let courseId: string;
let treatmentId: string;

const makeCourse = (fee = 30000, admissionFee = 3000, installments = 3) =>
  postCourse(t, admin.token, 'Ledger', { totalFee: fee, admissionFee, installments });

async function enrol(who: MadeUser = student, course = courseId) {
  const res = await t.api('POST', '/api/enrollments', {
    token: admin.token,
    body: { email: who.email, courseId: course, paymentType: 'installment' },
  });
  expect(res.status).toBe(201);
  return res.body as {
    _id: string;
    installments: Array<{ _id: string; amount: number; isPaid: boolean; amountPaid: number }>;
  };
}

// The screens always name the method; these tests pay cash unless they say otherwise.
const pay = (body: Record<string, unknown>, token = manager.token) =>
  t.api('POST', '/api/payments', { token, body: { method: 'cash', ...body } });
const getEnrollment = async (id: string) => (await t.api('GET', `/api/enrollments/${id}`, { token: admin.token })).body;

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
  await withoutQuietHours(t.deps.db);
  branchId = (await makeBranch(t.deps.db, { name: 'Galle' })).id;
  admin = await t.userWithSession('admin');
  manager = await t.userWithSession('manager', { branchId });
  student = await makeUser(t.deps.db, { role: 'student', branchId });
  courseId = await makeCourse();
  const tr = await t.api('POST', '/api/treatments', {
    token: admin.token,
    body: {
      treatmentName: 'Ledger massage',
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

describe('recording a payment', () => {
  it('allocates oldest first: admission fee, then installments; a partial payment leaves the installment unpaid', async () => {
    const e = await enrol();
    const res = await pay({ enrollmentId: e._id, amount: 8000, method: 'cash' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      receiptNumber: expect.stringMatching(/^GAL-\d{4}-\d{6}$/),
      amount: 8000,
      currency: 'LKR',
      method: 'cash',
      status: 'valid',
      receivedBy: { _id: manager.id, username: manager.username },
      allocations: [
        { kind: 'admission_fee', enrollmentId: e._id, amount: 3000 },
        { kind: 'enrollment_installment', installmentId: e.installments[0]!._id, amount: 5000 },
      ],
    });
    const after = await getEnrollment(e._id);
    expect(after.admissionFeePaid).toBe(true);
    expect(after.installments[0]).toMatchObject({ isPaid: false, amountPaid: 5000 });
    expect(after.displayStatus).toBe('Active (Partial)');
    expect(after.paidAmount).toBe(8000);

    // The rest of installment 1 flips it to paid, with the moment it became fully paid.
    const rest = await pay({ enrollmentId: e._id, amount: 5000, method: 'card', reference: 'AUTH-1' });
    expect(rest.status).toBe(201);
    const paid = await getEnrollment(e._id);
    expect(paid.installments[0]).toMatchObject({ isPaid: true, amountPaid: 10000, paidAt: expect.any(String) });
    expect(paid.installments[1]).toMatchObject({ isPaid: false, amountPaid: 0 });
  });

  it('refuses more than is outstanding, naming how much is', async () => {
    const e = await enrol(await makeUser(t.deps.db, { role: 'student', branchId }));
    const res = await pay({ enrollmentId: e._id, amount: 33000.01 });
    expect(res).toMatchObject({
      status: 409,
      body: { message: 'Only Rs. 33,000.00 is outstanding on this enrollment.' },
    });
    expect((await getEnrollment(e._id)).paidAmount).toBe(0);
  });

  it('refuses bad input with a 4xx and a clear message, storing nothing', async () => {
    const e = await enrol(await makeUser(t.deps.db, { role: 'student', branchId }));
    const future = new Date(Date.now() + 3600_000).toISOString();
    const cases: Array<[Record<string, unknown>, number, string?]> = [
      [{ enrollmentId: e._id, amount: -5 }, 400, 'Amount must be greater than 0 with at most two decimals.'],
      [{ enrollmentId: e._id, amount: 10.005 }, 400, 'Amount must be greater than 0 with at most two decimals.'],
      [{ enrollmentId: e._id, amount: 100, receivedAt: future }, 400, 'Received at cannot be in the future.'],
      [{ enrollmentId: e._id, amount: 100, currency: 'USD' }, 400, 'This enrollment is paid in LKR.'],
      [{ enrollmentId: '00000000-0000-4000-8000-000000000000', amount: 100 }, 404, 'Enrollment not found.'],
      [{ bookingId: 'nope', amount: 100 }, 404, 'Booking not found.'],
      [{ amount: 100 }, 400, 'Choose the enrollment or the booking this payment is for.'],
      [{ enrollmentId: e._id, amount: 100, method: 'barter' }, 400],
      [
        {
          enrollmentId: e._id,
          amount: 100,
          allocations: [{ kind: 'enrollment_installment', installmentId: e.installments[0]!._id, amount: 50 }],
        },
        400,
        'The allocations must add up to the amount.',
      ],
    ];
    for (const [body, status, message] of cases) {
      const res = await pay(body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      if (message) expect(res.body.message).toBe(message);
    }
    expect((await t.api('GET', `/api/enrollments/${e._id}/payments`, { token: admin.token })).body).toEqual([]);
  });

  it('takes explicit allocations, and a USD booking is paid in USD', async () => {
    const e = await enrol(await makeUser(t.deps.db, { role: 'student', branchId }));
    const second = e.installments[1]!;
    const res = await pay({
      enrollmentId: e._id,
      amount: 2500,
      allocations: [{ kind: 'enrollment_installment', installmentId: second._id, amount: 2500 }],
    });
    expect(res.status).toBe(201);
    expect((await getEnrollment(e._id)).installments[1].amountPaid).toBe(2500);

    const customer = await makeUser(t.deps.db, { role: 'customer', branchId });
    const booking = await t.api('POST', '/api/bookings/book', {
      token: admin.token,
      body: { userId: customer.id, treatmentId, userType: 'foreign', paymentType: 'installment' },
    });
    const usd = await pay({ bookingId: booking.body._id, amount: 20, currency: 'USD' });
    expect(usd).toMatchObject({ status: 201, body: { currency: 'USD', amount: 20 } });
    const b = await t.api('GET', `/api/bookings/booking/${booking.body._id}`, { token: admin.token });
    expect(b.body.installments[0]).toMatchObject({ isPaid: true, amountPaid: 20 });
    expect(b.body.paymentStatus).toBe('partially_paid');
  });

  it('refuses paying a completed enrolment or a cancelled booking', async () => {
    const c = await makeCourse(1000, 0, 1);
    const e = await enrol(student, c);
    await pay({ enrollmentId: e._id, amount: 1000 });
    expect((await t.api('PUT', `/api/enrollments/${e._id}/complete`, { token: admin.token })).status).toBe(200);
    const done = await pay({ enrollmentId: e._id, amount: 1 });
    expect(done.status).toBe(409);

    const customer = await makeUser(t.deps.db, { role: 'customer' });
    const booking = await t.api('POST', '/api/bookings/book', {
      token: admin.token,
      body: { userId: customer.id, treatmentId, userType: 'local', paymentType: 'full' },
    });
    await t.api('PUT', `/api/bookings/bookings/${booking.body._id}/cancel`, { token: admin.token });
    expect(await pay({ bookingId: booking.body._id, amount: 10 })).toMatchObject({
      status: 409,
      body: { message: 'This booking is cancelled; it cannot be changed.' },
    });
  });
});

describe('concurrency', () => {
  it('50 cashiers paying the same installment at once collect exactly what it is owed', async () => {
    const c = await makeCourse(10000, 0, 1);
    const e = await enrol(await makeUser(t.deps.db, { role: 'student', branchId }), c);
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        pay({
          enrollmentId: e._id,
          amount: 400,
          allocations: [{ kind: 'enrollment_installment', installmentId: e.installments[0]!._id, amount: 400 }],
        }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(25);
    expect(results.filter((r) => r.status === 409)).toHaveLength(25);
    expect(results.every((r) => r.status === 201 || r.status === 409)).toBe(true);
    const after = await getEnrollment(e._id);
    expect(after.installments[0]).toMatchObject({ amountPaid: 10000, isPaid: true });
  });

  it('50 payments at once across one branch get 50 distinct consecutive receipt numbers', async () => {
    const people = await Promise.all(
      Array.from({ length: 50 }, () => makeUser(t.deps.db, { role: 'student', branchId })),
    );
    const enrolled = [];
    for (const p of people) enrolled.push(await enrol(p));
    const results = await Promise.all(enrolled.map((e) => pay({ enrollmentId: e._id, amount: 100 })));
    expect(results.every((r) => r.status === 201)).toBe(true);
    const seqs = results.map((r) => Number((r.body.receiptNumber as string).split('-')[2])).sort((a, b) => a - b);
    expect(new Set(seqs).size).toBe(50);
    expect(seqs.at(-1)! - seqs[0]!).toBe(49);
  });

  it('branches whose names start alike never print the same receipt number, and a rename keeps the prefix', async () => {
    const kandy = await makeBranch(t.deps.db, { name: 'Kandy' });
    const kandyCity = await makeBranch(t.deps.db, { name: 'Kandy City' });
    const inKandy = await enrol(await makeUser(t.deps.db, { role: 'student', branchId: kandy.id }));
    const inCity = await enrol(await makeUser(t.deps.db, { role: 'student', branchId: kandyCity.id }));
    const [first, second] = await Promise.all([
      pay({ enrollmentId: inKandy._id, amount: 100 }),
      pay({ enrollmentId: inCity._id, amount: 100 }),
    ]);
    const year = new Date().getFullYear();
    const numbers = [first.body.receiptNumber, second.body.receiptNumber].sort();
    expect(numbers).toEqual([`KAN-${year}-000001`, `KAN2-${year}-000001`]);

    const renamed = await t.api('PUT', `/api/branch/${kandy.id}`, {
      token: admin.token,
      body: { name: 'Colombo North', location: 'Colombo' },
    });
    expect(renamed.status).toBe(200);
    const next = await pay({ enrollmentId: inKandy._id, amount: 100 });
    expect(next.body.receiptNumber).toBe(`${(first.body.receiptNumber as string).split('-')[0]}-${year}-000002`);
  });
});

describe('voids and the toggles', () => {
  it('a void restores the status, keeps the number, and is listed as void with who and why', async () => {
    const e = await enrol(await makeUser(t.deps.db, { role: 'student', branchId }));
    const p = (await pay({ enrollmentId: e._id, amount: 3000 })).body;
    expect((await getEnrollment(e._id)).admissionFeePaid).toBe(true);

    const byManager = await t.api('POST', `/api/payments/${p._id}/void`, {
      token: manager.token,
      body: { reason: 'Wrong student' },
    });
    expect(byManager.status).toBe(403);
    const noReason = await t.api('POST', `/api/payments/${p._id}/void`, { token: admin.token, body: { reason: ' ' } });
    expect(noReason).toMatchObject({ status: 400, body: { message: 'A reason is required to void a payment.' } });

    const voided = await t.api('POST', `/api/payments/${p._id}/void`, {
      token: admin.token,
      body: { reason: 'Wrong student' },
    });
    expect(voided.body).toMatchObject({
      receiptNumber: p.receiptNumber,
      status: 'void',
      voidReason: 'Wrong student',
      voidedBy: { _id: admin.id, username: admin.username },
      voidedAt: expect.any(String),
    });
    const after = await getEnrollment(e._id);
    expect(after.admissionFeePaid).toBe(false);
    expect(after.displayStatus).toBe('Pending Payment');
    const again = await t.api('POST', `/api/payments/${p._id}/void`, { token: admin.token, body: { reason: 'x' } });
    expect(again.status).toBe(409);
    const listed = await t.api('GET', `/api/enrollments/${e._id}/payments`, { token: manager.token });
    expect(listed.body).toEqual([expect.objectContaining({ _id: p._id, status: 'void' })]);
  });

  it('pay-installment records a payment of the remainder; isPaid false voids it as "marked unpaid"', async () => {
    const e = await enrol(await makeUser(t.deps.db, { role: 'student', branchId }));
    const inst = e.installments[0]!;
    await pay({
      enrollmentId: e._id,
      amount: 1000,
      allocations: [{ kind: 'enrollment_installment', installmentId: inst._id, amount: 1000 }],
    });
    const toggled = await t.api('POST', `/api/enrollments/${e._id}/pay-installment`, {
      token: admin.token,
      body: { installmentId: inst._id },
    });
    expect(toggled.status).toBe(200);
    expect(toggled.body.installments[0]).toMatchObject({ isPaid: true, amountPaid: 10000 });
    const payments = (await t.api('GET', `/api/enrollments/${e._id}/payments`, { token: admin.token })).body;
    expect(payments[0]).toMatchObject({ amount: 9000, method: 'other', status: 'valid' });

    const unpaid = await t.api('POST', `/api/enrollments/${e._id}/pay-installment`, {
      token: admin.token,
      body: { installmentIndex: 0, isPaid: false },
    });
    expect(unpaid.body.installments[0]).toMatchObject({ isPaid: false, amountPaid: 0, paidAt: null });
    const after = (await t.api('GET', `/api/enrollments/${e._id}/payments`, { token: admin.token })).body;
    expect(after.map((p: { status: string; voidReason: string }) => [p.status, p.voidReason])).toEqual([
      ['void', 'marked unpaid'],
      ['void', 'marked unpaid'],
    ]);

    const fee = await t.api('POST', `/api/enrollments/${e._id}/pay-admission-fee`, {
      token: admin.token,
      body: { isPaid: true, method: 'cash' },
    });
    expect(fee.body).toMatchObject({ admissionFeePaid: true, admissionFeeAmountPaid: 3000 });
  });

  it('the booking toggle goes through the ledger too', async () => {
    const customer = await makeUser(t.deps.db, { role: 'customer', branchId });
    const booking = (
      await t.api('POST', '/api/bookings/book', {
        token: admin.token,
        body: { userId: customer.id, treatmentId, userType: 'local', paymentType: 'installment' },
      })
    ).body;
    const res = await t.api('POST', `/api/bookings/${booking._id}/pay-installment`, {
      token: admin.token,
      body: { installmentIndex: 0, isPaid: true },
    });
    expect(res.body).toEqual({ success: true, message: 'Installment status updated!' });
    const payments = (await t.api('GET', `/api/bookings/booking/${booking._id}/payments`, { token: admin.token })).body;
    expect(payments).toEqual([expect.objectContaining({ amount: 5000, method: 'other', bookingId: booking._id })]);
  });

  it('deleting the enrolment keeps its payments with the names of what they paid', async () => {
    const who = await makeUser(t.deps.db, { role: 'student', branchId });
    const e = await enrol(who);
    const p = (await pay({ enrollmentId: e._id, amount: 500 })).body;
    const del = await t.api('DELETE', `/api/enrollments/${e._id}`, { token: admin.token, body: { userId: who.id } });
    expect(del.status).toBe(200);
    const kept = await t.api('GET', `/api/payments/${p._id}`, { token: admin.token });
    expect(kept.body).toMatchObject({
      receiptNumber: p.receiptNumber,
      amount: 500,
      enrollmentId: null,
      payer: { username: who.username },
      subject: expect.stringMatching(/^Ledger /),
    });
    const rows = await t.deps.db.select().from(enrollments).where(eq(enrollments.id, e._id));
    expect(rows).toHaveLength(0);
  });
});

describe('lists, cash-up and receipts', () => {
  it('lists with filters and per-currency totals; the cash-up totals equal the sum of the listed payments', async () => {
    const list = await t.api('GET', '/api/payments?limit=200&status=valid', { token: admin.token });
    expect(list.status).toBe(200);
    const sum = list.body.data
      .filter((p: { currency: string }) => p.currency === 'LKR')
      .reduce((s: number, p: { amount: number }) => s + p.amount, 0);
    expect(list.body.totals).toContainEqual({ currency: 'LKR', amount: Math.round(sum * 100) / 100 });

    const cash = await t.api('GET', '/api/payments/cash-up', { token: admin.token });
    expect(cash.status).toBe(200);
    const lkr = cash.body.totals.find((x: { currency: string }) => x.currency === 'LKR');
    expect(lkr.amount).toBeCloseTo(sum, 2);
    expect(cash.body.voids.length).toBeGreaterThan(0);
    const byCash = await t.api('GET', '/api/payments?method=card', { token: admin.token });
    expect(byCash.body.data.every((p: { method: string }) => p.method === 'card')).toBe(true);
    expect((await t.api('GET', '/api/payments?from=2026-13-01', { token: admin.token })).status).toBe(400);

    // One payer's payments, as their user screen lists them.
    const mine = await t.trpc(admin.token).payments.list.query({ payerId: student.id, pageSize: 200 });
    expect(mine.total).toBeGreaterThan(0);
    expect(mine.items.every((p) => p.payer._id === student.id)).toBe(true);
    const nobody = await makeUser(t.deps.db, { role: 'student', branchId });
    expect((await t.trpc(admin.token).payments.list.query({ payerId: nobody.id })).total).toBe(0);
    const rest = await t.api('GET', `/api/payments?payerId=${student.id}&limit=200`, { token: admin.token });
    expect(rest.body.total).toBe(mine.total);
  });

  it('sorts the list by each sortable column both ways on the server, and refuses any other column', async () => {
    const payer = await makeUser(t.deps.db, { role: 'student', branchId, username: `sortpayer_${Date.now()}` });
    const e = await enrol(payer);
    const amounts = [5000, 1000, 3000];
    const methods = ['card', 'cash', 'bank_transfer'];
    const made: string[] = [];
    for (const [i, amount] of amounts.entries()) {
      const res = await pay({ enrollmentId: e._id, amount, method: methods[i] }, i === 1 ? admin.token : manager.token);
      expect(res.status).toBe(201);
      made.push(res.body._id as string);
    }
    const list = (sortBy: string, sortDir: 'asc' | 'desc') =>
      t.trpc(manager.token).payments.list.query({ search: payer.username, sortBy: sortBy as never, sortDir });
    const amountsBy = async (sortBy: string, sortDir: 'asc' | 'desc') =>
      (await list(sortBy, sortDir)).items.map((p) => p.amount);

    expect(await amountsBy('amount', 'asc')).toEqual([1000, 3000, 5000]);
    expect(await amountsBy('amount', 'desc')).toEqual([5000, 3000, 1000]);
    // Newest first by default, oldest first asked.
    expect((await list('receivedAt', 'desc')).items.map((p) => p._id)).toEqual([...made].reverse());
    expect(await amountsBy('receivedAt', 'asc')).toEqual(amounts);
    expect(await amountsBy('method', 'asc')).toEqual([3000, 5000, 1000]); // bank_transfer, card, cash
    const receipts = (await list('receiptNumber', 'asc')).items.map((p) => p.receiptNumber);
    expect(receipts).toEqual([...receipts].sort());
    const cashiers = (await list('receivedBy', 'desc')).items.map((p) => p.receivedBy?.username ?? '');
    expect(cashiers).toEqual([...cashiers].sort().reverse());
    expect((await list('payer', 'asc')).total).toBe(3);
    expect((await list('status', 'asc')).total).toBe(3);

    await expect(list('payerEmail', 'asc')).rejects.toThrow(
      'Sort by one of: receivedAt, receiptNumber, payer, amount, method, receivedBy, status.',
    );
    await expect(list('amount desc; --', 'asc')).rejects.toMatchObject({ data: { httpStatus: 400 } });
  });

  it('refuses a From after its To on the list, the Excel export and the cash-up, over tRPC and REST', async () => {
    const message = 'From must be on or before To.';
    const backwards = { from: '2026-11-20', to: '2026-11-01' };
    await expect(t.trpc(manager.token).payments.list.query(backwards)).rejects.toMatchObject({
      message,
      data: { httpStatus: 400 },
    });
    await expect(t.trpc(manager.token).payments.cashUp.query(backwards)).rejects.toMatchObject({
      message,
      data: { httpStatus: 400 },
    });
    for (const path of ['/api/payments', '/api/payments/excel', '/api/payments/cash-up', '/api/payments/cash-up/pdf']) {
      const res = await t.api('GET', `${path}?from=2026-11-20&to=2026-11-01`, { token: manager.token });
      expect([path, res.status, (res.body as { message?: string }).message]).toEqual([path, 400, message]);
    }
    // The same day at both ends is one day, not an error.
    const oneDay = await t.api('GET', '/api/payments/cash-up?from=2026-11-20&to=2026-11-20', { token: manager.token });
    expect(oneDay.status).toBe(200);
  });

  it('a receipt PDF names the payer, what was paid, the amount in words; a void one says VOID', async () => {
    const e = await enrol(await makeUser(t.deps.db, { role: 'student', branchId, username: 'receipt_kamal' }));
    const p = (await pay({ enrollmentId: e._id, amount: 1250.5, method: 'cheque', reference: 'CHQ-77' })).body;
    const res = await fetch(`${t.baseUrl}/api/payments/${p._id}/receipt`, {
      headers: { authorization: `Bearer ${manager.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="receipt-${p.receiptNumber}.pdf"`);
    const text = await pdfText(await res.arrayBuffer());
    for (const bit of [p.receiptNumber, 'receipt_kamal', 'Admission fee', 'Cheque', 'CHQ-77', 'Galle']) {
      expect(text).toContain(bit);
    }
    expect(text).toContain('One thousand two hundred and fifty rupees and fifty cents');
    expect(text).not.toContain('VOID');
    await t.api('POST', `/api/payments/${p._id}/void`, { token: admin.token, body: { reason: 'Bounced' } });
    const voidPdf = await fetch(`${t.baseUrl}/api/payments/${p._id}/receipt`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(await pdfText(await voidPdf.arrayBuffer())).toContain('VOID');
  });

  it("a receipt prints an installment's due date as a day a reader knows (22 Nov 2026), not ISO", async () => {
    const e = await enrol(await makeUser(t.deps.db, { role: 'student', branchId }));
    const p = (await pay({ enrollmentId: e._id, amount: 4000 })).body;
    const due = ((await getEnrollment(e._id)) as { installments: Array<{ dueDate: string }> }).installments[0]!.dueDate;
    const res = await fetch(`${t.baseUrl}/api/payments/${p._id}/receipt`, {
      headers: { authorization: `Bearer ${manager.token}` },
    });
    const text = await pdfText(await res.arrayBuffer());
    expect(text).toContain(dayText(due));
    expect(text).not.toContain(due);
  });

  it('a receipt names the payer by the full name recorded with the payment, the username and e-mail beside it', async () => {
    const who = await makeUser(t.deps.db, {
      role: 'student',
      branchId,
      username: 'receipt_saman',
      fullName: 'Saman Jayasuriya',
    });
    const e = await enrol(who);
    const first = (await pay({ enrollmentId: e._id, amount: 500 })).body;
    const receiptText = async (id: string) => {
      const res = await fetch(`${t.baseUrl}/api/payments/${id}/receipt`, {
        headers: { authorization: `Bearer ${manager.token}` },
      });
      expect(res.status).toBe(200);
      return pdfText(await res.arrayBuffer());
    };
    expect(await receiptText(first._id)).toContain(`Saman Jayasuriya (receipt_saman, ${who.email})`);
    // A later change of name leaves the old receipt as it was printed; a new payment carries the new name.
    const renamed = await t.api('PUT', `/api/users/${who.id}`, {
      token: admin.token,
      body: { fullName: 'Saman Jayasuriya Perera' },
    });
    expect(renamed.status).toBe(200);
    const reprint = await receiptText(first._id);
    expect(reprint).toContain(`Saman Jayasuriya (receipt_saman, ${who.email})`);
    expect(reprint).not.toContain('Jayasuriya Perera');
    const second = (await pay({ enrollmentId: e._id, amount: 300 })).body;
    expect(await receiptText(second._id)).toContain(`Saman Jayasuriya Perera (receipt_saman, ${who.email})`);
  });

  it('a receipt names the cashier by the full name kept with the payment; a later rename leaves it as printed', async () => {
    const cashier = await t.userWithSession('manager', { branchId, fullName: 'Nimali Cashier' });
    const e = await enrol(await makeUser(t.deps.db, { role: 'student', branchId }));
    const taken = await t.api('POST', '/api/payments', {
      token: cashier.token,
      body: { enrollmentId: e._id, amount: 700, method: 'cash' },
    });
    expect(taken.status).toBe(201);
    expect(taken.body.receivedBy).toEqual({ _id: cashier.id, username: cashier.username, fullName: 'Nimali Cashier' });
    const receiptText = async () => {
      const res = await fetch(`${t.baseUrl}/api/payments/${taken.body._id}/receipt`, {
        headers: { authorization: `Bearer ${admin.token}` },
      });
      expect(res.status).toBe(200);
      return pdfText(await res.arrayBuffer());
    };
    expect(await receiptText()).toContain('Nimali Cashier');
    const renamed = await t.api('PUT', `/api/users/${cashier.id}`, {
      token: admin.token,
      body: { fullName: 'Nimali Perera' },
    });
    expect(renamed.status).toBe(200);
    const reprint = await receiptText();
    expect(reprint).toContain('Nimali Cashier');
    expect(reprint).not.toContain('Nimali Perera');
    const listed = await t.api('GET', `/api/payments/${taken.body._id}`, { token: admin.token });
    expect(listed.body.receivedBy.fullName).toBe('Nimali Cashier');
  });

  it('the payments list names the payer as the receipt does, after a rename too, with the documented fields', async () => {
    const who = await makeUser(t.deps.db, {
      role: 'student',
      branchId,
      username: `list_nimal_${Date.now()}`,
      fullName: 'Nimal Wickramasinghe',
    });
    const e = await enrol(who);
    const paid = (await pay({ enrollmentId: e._id, amount: 400 })).body;
    const renamed = await t.api('PUT', `/api/users/${who.id}`, {
      token: admin.token,
      body: { fullName: 'Nimal Wickramasinghe Silva' },
    });
    expect(renamed.status).toBe(200);

    const rest = await t.api('GET', `/api/payments?payerId=${who.id}`, { token: manager.token });
    expect(rest.status).toBe(200);
    expect(rest.body.data).toHaveLength(1);
    const row = rest.body.data[0];
    expect(row.payer).toEqual({
      _id: who.id,
      username: who.username,
      email: who.email,
      fullName: 'Nimal Wickramasinghe',
    });
    expect(Object.keys(row)).toEqual(
      expect.arrayContaining([
        '_id',
        'receiptNumber',
        'amount',
        'currency',
        'method',
        'reference',
        'note',
        'receivedAt',
        'receivedBy',
        'status',
        'voidedAt',
        'voidedBy',
        'voidReason',
        'branch',
        'payer',
        'enrollmentId',
        'bookingId',
        'subject',
        'allocations',
        'refundedAmount',
      ]),
    );
    expect(row).toMatchObject({ _id: paid._id, receiptNumber: paid.receiptNumber, amount: 400, status: 'valid' });
    const screen = await t.trpc(manager.token).payments.list.query({ payerId: who.id });
    expect(screen.items.map((p) => p.payer.fullName)).toEqual(['Nimal Wickramasinghe']);
    const receipt = await fetch(`${t.baseUrl}/api/payments/${paid._id}/receipt`, {
      headers: { authorization: `Bearer ${manager.token}` },
    });
    expect(await pdfText(await receipt.arrayBuffer())).toContain(
      `Nimal Wickramasinghe (${who.username}, ${who.email})`,
    );

    // A payment taken after the rename carries the new name, in the list as on its receipt.
    await pay({ enrollmentId: e._id, amount: 300 });
    const again = await t.api('GET', `/api/payments?payerId=${who.id}`, { token: manager.token });
    expect(again.body.data.map((p: { payer: { fullName: string } }) => p.payer.fullName)).toEqual([
      'Nimal Wickramasinghe Silva',
      'Nimal Wickramasinghe',
    ]);
  });

  it('the dashboard and the cash-up name the payer and the cashier by full name beside the username', async () => {
    const own = (await makeBranch(t.deps.db, { name: `Matara ${Date.now()}` })).id;
    const cashier = await t.userWithSession('manager', { branchId: own, fullName: 'Kumari Senanayake' });
    const who = await makeUser(t.deps.db, { role: 'student', branchId: own, fullName: 'Ruwan Dissanayake' });
    // Enrolled two months ago (the day in Asia/Colombo): the first installment is overdue.
    const enrolledOn = addToDate(todayIn('Asia/Colombo'), { months: -2 });
    const e = await t.api('POST', '/api/enrollments', {
      token: admin.token,
      body: { email: who.email, courseId, paymentType: 'installment', enrolledOn },
    });
    expect(e.status).toBe(201);
    expect((await pay({ enrollmentId: e.body._id, amount: 1000 }, cashier.token)).status).toBe(201);

    const dash = await t.api('GET', `/api/payments/dashboard?branchId=${own}`, { token: admin.token });
    expect(dash.status).toBe(200);
    expect(dash.body.mostOverdue).toEqual([
      expect.objectContaining({ id: e.body._id, payer: who.username, payerFullName: 'Ruwan Dissanayake' }),
    ]);
    const cash = await t.api('GET', `/api/payments/cash-up?branchId=${own}`, { token: admin.token });
    expect(cash.status).toBe(200);
    expect(cash.body.rows.map((r: { cashier: unknown }) => r.cashier)).toEqual([
      { _id: cashier.id, username: cashier.username, fullName: 'Kumari Senanayake' },
    ]);
  });

  it('e-mails a receipt to the payer through the job queue', async () => {
    const who = await makeUser(t.deps.db, { role: 'student', branchId });
    const e = await enrol(who);
    const p = (await pay({ enrollmentId: e._id, amount: 700 })).body;
    const res = await t.api('POST', `/api/payments/${p._id}/email`, { token: manager.token });
    expect(res.status).toBe(202);
    let mail: Array<typeof emailOutbox.$inferSelect> = [];
    for (let i = 0; i < 50 && mail.length === 0; i++) {
      mail = await t.deps.db.select().from(emailOutbox).where(eq(emailOutbox.to, who.email));
      if (!mail.length) await new Promise((r) => setTimeout(r, 100));
    }
    expect(mail[0]?.subject).toContain(`Receipt ${p.receiptNumber}`);
    expect(mail[0]?.text).toContain('Rs. 700.00');
  });

  it('the Excel export holds every listed payment, newest first, then the valid total per currency', async () => {
    const list = await t.api('GET', '/api/payments?limit=200', { token: admin.token });
    expect(list.status).toBe(200);
    const file = await download(t.baseUrl, 'GET', '/api/payments/excel', { token: admin.token });
    expect(file.status).toBe(200);
    const { rows } = await readXlsx(file.bytes);
    expect(rows[0]![0]).toBe('Receipt');
    const receipts = list.body.data.map((p: { receiptNumber: string }) => p.receiptNumber);
    expect(receipts.length).toBeGreaterThan(1);
    expect(rows.slice(1, receipts.length + 1).map((r) => r[0])).toEqual(receipts);
    expect(rows.slice(receipts.length + 1).map((r) => r[0])).toContain('Total (valid)');
  });

  it('the cash-up PDF lists the totals', async () => {
    const e = await enrol(await makeUser(t.deps.db, { role: 'student', branchId }));
    await pay({ enrollmentId: e._id, amount: 4321, method: 'cash' });
    const res = await fetch(`${t.baseUrl}/api/payments/cash-up/pdf`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(res.status).toBe(200);
    const text = await pdfText(await res.arrayBuffer());
    expect(text).toContain('Cash-up');
    expect(text).toContain(manager.username);
    expect(text).toContain('Galle');
    expect(text).toContain('Cash');
    const xlsx = await fetch(`${t.baseUrl}/api/payments/cash-up/excel`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(xlsx.headers.get('content-type')).toContain('spreadsheetml');
  });
});

describe('roles', () => {
  it('students, customers and users get 403 on every ledger path; anonymous callers 401', async () => {
    const paths: Array<[string, string]> = [
      ['POST', '/api/payments'],
      ['GET', '/api/payments'],
      ['GET', '/api/payments/cash-up'],
      ['GET', '/api/payments/cash-up/excel'],
      ['GET', '/api/payments/cash-up/pdf'],
      ['GET', '/api/payments/dashboard'],
      ['GET', '/api/payments/00000000-0000-4000-8000-000000000000'],
      ['GET', '/api/payments/00000000-0000-4000-8000-000000000000/receipt'],
      ['POST', '/api/payments/00000000-0000-4000-8000-000000000000/email'],
      ['POST', '/api/payments/00000000-0000-4000-8000-000000000000/void'],
      ['GET', '/api/enrollments/00000000-0000-4000-8000-000000000000/payments'],
      ['GET', '/api/bookings/booking/00000000-0000-4000-8000-000000000000/payments'],
    ];
    const bodyFor = (method: string) => (method === 'GET' ? undefined : {});
    for (const role of ['student', 'customer', 'user'] as const) {
      const u = await t.userWithSession(role);
      for (const [method, path] of paths) {
        expect(
          (await t.api(method, path, { token: u.token, body: bodyFor(method) })).status,
          `${role} ${method} ${path}`,
        ).toBe(403);
      }
    }
    for (const [method, path] of paths) expect((await t.api(method, path, { body: bodyFor(method) })).status).toBe(401);
    await expect(
      t.trpc(manager.token).payments.void.mutate({ id: '00000000-0000-4000-8000-000000000000', reason: 'x' }),
    ).rejects.toMatchObject({ data: { httpStatus: 403 } });
  });

  it('the dashboard shows money at a glance', async () => {
    const d = await t.trpc(admin.token).payments.dashboard.query({});
    expect(d.collectedToday.find((x) => x.currency === 'LKR')?.amount).toBeGreaterThan(0);
    expect(d.monthly).toHaveLength(12);
    expect(d.outstanding.find((x) => x.currency === 'LKR')?.amount).toBeGreaterThan(0);
    const galle = await t.trpc(manager.token).payments.dashboard.query({ branchId });
    expect(galle.branchId).toBe(branchId);
  });

  it('the dashboard reuses its answer until this server writes', async () => {
    const outstanding = async () =>
      (await t.trpc(admin.token).payments.dashboard.query({})).outstanding.find((x) => x.currency === 'LKR')?.amount ??
      0;
    const e = await enrol(await makeUser(t.deps.db, { role: 'student', branchId }));
    const before = await outstanding();
    // A change this server did not make (another server, a script) shows only after the lifetime...
    await t.deps.db.update(enrollments).set({ admissionFee: 350_000 }).where(eq(enrollments.id, e._id));
    expect(await outstanding()).toBe(before);
    // ...or as soon as this server handles a write: here a payment of 100 on that enrolment.
    expect((await pay({ enrollmentId: e._id, amount: 100 })).status).toBe(201);
    expect(await outstanding()).toBe(before + 500 - 100);
  });

  it('the dashboard is fresh after a write through tRPC, and a users list total after a tRPC create', async () => {
    const outstanding = async () =>
      (await t.trpc(admin.token).payments.dashboard.query({})).outstanding.find((x) => x.currency === 'LKR')?.amount ??
      0;
    const e = await enrol(await makeUser(t.deps.db, { role: 'student', branchId }));
    const before = await outstanding();
    await t.trpc(manager.token).payments.record.mutate({ enrollmentId: e._id, amount: 100, method: 'cash' });
    expect(await outstanding()).toBe(before - 100);

    const firstPage = { page: 1, pageSize: 10, sortBy: 'createdAt', sortDir: 'desc' } as const;
    const total = (await t.trpc(admin.token).users.list.query(firstPage)).total;
    await t.trpc(admin.token).users.create.mutate({
      username: `fresh_${Date.now()}`,
      fullName: 'Fresh Total',
      email: `fresh_${Date.now()}@example.com`,
      password: 'Str0ng-Passw0rd!',
      role: 'student',
      branchId,
    });
    expect((await t.trpc(admin.token).users.list.query(firstPage)).total).toBe(total + 1);
  });
});
