import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, treatmentBookings } from '../../src/server/db/schema';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeBranch, makeUser, postCourse, postTreatment, type MadeUser } from '../helpers/factories';

/**
 * Discounts, scholarships and write-offs (docs/payments.md#adjustments) on a real PostgreSQL: the
 * spread from the last-due installment, rounding to the cent, never below what is paid, the
 * admission fee only when named, write-offs and completing, revoking (twice), the approval flow,
 * scholarship schemes, the readers that follow the adjusted amounts, bad input, roles and branch scope.
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
  admissionFeePaid: boolean;
  outstandingAmount: number;
  paidAmount: number;
  displayStatus: string;
  status: string;
  installments: Array<{ _id: string; amount: number; amountPaid: number; isPaid: boolean; dueDate: string }>;
}

async function enrol(course = courseId): Promise<Enrollment> {
  const who = await makeUser(t.deps.db, { role: 'student', branchId });
  const res = await t.api('POST', '/api/enrollments', {
    token: admin.token,
    body: { email: who.email, courseId: course, paymentType: 'installment' },
  });
  expect(res.status).toBe(201);
  return res.body as Enrollment;
}

const getEnrollment = async (id: string): Promise<Enrollment> =>
  (await t.api('GET', `/api/enrollments/${id}`, { token: admin.token })).body as Enrollment;
const adjust = (id: string, body: Record<string, unknown>, token = admin.token) =>
  t.api('POST', `/api/enrollments/${id}/adjustments`, { token, body });
const pay = (body: Record<string, unknown>) =>
  t.api('POST', '/api/payments', { token: admin.token, body: { method: 'cash', ...body } });
const setApproval = async (on: boolean) => {
  const res = await t.api('PUT', '/api/settings/adjustments', { token: admin.token, body: { approvalRequired: on } });
  expect(res).toMatchObject({ status: 200, body: { approvalRequired: on } });
};

beforeAll(async () => {
  t = await startTestApp();
  branchId = (await makeBranch(t.deps.db, { name: 'Colombo' })).id;
  admin = await t.userWithSession('admin');
  manager = await t.userWithSession('manager', { branchId });
  courseId = await postCourse(t, admin.token, 'Adjust', { totalFee: 30000, admissionFee: 3000, installments: 3 });
  treatmentId = (
    await postTreatment(t, admin.token, {
      treatmentName: `Adjust massage ${Math.random().toString(36).slice(2, 7)}`,
      localPrice: 10000,
      foreignPrice: 40,
      maxSessions: 4,
      installments: 2,
      duration: { weeks: 1, days: 0, months: 0 },
    })
  )._id;
});
afterAll(() => t.close());

describe('a discount or scholarship', () => {
  it('takes a whole-fee percentage from the last-due installment first, leaving the admission fee', async () => {
    const e = await enrol();
    const res = await adjust(e._id, { kind: 'discount', percent: 10, reason: 'Sibling discount' });
    expect(res.status).toBe(201);
    const last = e.installments[2]!;
    expect(res.body).toMatchObject({
      _id: expect.any(String),
      kind: 'discount',
      status: 'applied',
      reason: 'Sibling discount',
      total: 3000,
      percent: 10,
      items: [{ itemId: last._id, item: 'installment', before: 10000, after: 7000 }],
      createdBy: { _id: admin.id, username: admin.username },
      approvedBy: { _id: admin.id, username: admin.username },
    });
    const after = await getEnrollment(e._id);
    expect(after.installments.map((i) => i.amount)).toEqual([10000, 10000, 7000]);
    expect(after.admissionFee).toBe(3000);
    expect(after.outstandingAmount).toBe(30000);
    // Listed on the record, newest first.
    const list = await t.api('GET', `/api/enrollments/${e._id}/adjustments`, { token: manager.token });
    expect(list.status).toBe(200);
    expect(list.body.map((a: { _id: string }) => a._id)).toEqual([res.body._id]);
  });

  it('spreads over several installments, never below what is paid, rounding so the parts add up to the total', async () => {
    const fine = await postCourse(t, admin.token, 'Cents', { totalFee: 10000.03, admissionFee: 0, installments: 3 });
    const e = await enrol(fine);
    expect(e.installments.map((i) => i.amount)).toEqual([3333.34, 3333.34, 3333.35]);
    // 3,000 paid on the last installment: it can come down to 3,000 and no further.
    const third = e.installments[2]!;
    const paid = await pay({
      enrollmentId: e._id,
      amount: 3000,
      allocations: [{ kind: 'enrollment_installment', installmentId: third._id, amount: 3000 }],
    });
    expect(paid.status).toBe(201);
    // Owed: 3,333.34 + 3,333.34 + 333.35 = 7,000.03; half is 3,500.015, rounded to 3,500.02.
    const res = await adjust(e._id, { kind: 'scholarship', percent: 50, reason: 'Merit' });
    expect(res.status).toBe(201);
    expect(res.body.total).toBe(3500.02);
    expect(res.body.items).toEqual([
      expect.objectContaining({ itemId: e.installments[1]!._id, before: 3333.34, after: 166.67 }),
      expect.objectContaining({ itemId: third._id, before: 3333.35, after: 3000 }),
    ]);
    const sum = res.body.items.reduce(
      (s: number, i: { before: number; after: number }) => s + Math.round(i.before * 100) - Math.round(i.after * 100),
      0,
    );
    expect(sum).toBe(350002);
    const after = await getEnrollment(e._id);
    expect(after.installments[2]).toMatchObject({ amount: 3000, amountPaid: 3000, isPaid: true });
    expect(after.installments[0]).toMatchObject({ amount: 3333.34, isPaid: false });
    expect(after.outstandingAmount).toBe(3500.01);
  });

  it('refuses more than is owed with 409 naming the largest amount allowed', async () => {
    const e = await enrol();
    const first = e.installments[0]!;
    await pay({
      enrollmentId: e._id,
      amount: 8000,
      allocations: [{ kind: 'enrollment_installment', installmentId: first._id, amount: 8000 }],
    });
    const res = await adjust(e._id, { kind: 'discount', amount: 2000.01, itemId: first._id, reason: 'Too much' });
    expect(res).toMatchObject({
      status: 409,
      body: {
        message: 'At most Rs. 2,000.00 can be taken off installment 1: that is what is still owed on it.',
        details: { allowed: 2000 },
      },
    });
    const whole = await adjust(e._id, { kind: 'discount', amount: 22000.01, reason: 'Too much' });
    expect(whole).toMatchObject({ status: 409, body: { details: { allowed: 22000 } } });
    expect((await getEnrollment(e._id)).installments.map((i) => i.amount)).toEqual([10000, 10000, 10000]);
    // Exactly what is owed is allowed, and the installment is then settled.
    const ok = await adjust(e._id, { kind: 'discount', amount: 2000, itemId: first._id, reason: 'Rest waived' });
    expect(ok.status).toBe(201);
    expect((await getEnrollment(e._id)).installments[0]).toMatchObject({ amount: 8000, isPaid: true });
  });

  it('reduces the admission fee only when it is named', async () => {
    const e = await enrol();
    const res = await adjust(e._id, { kind: 'discount', percent: 100, itemId: 'admission_fee', reason: 'Fee waived' });
    expect(res.status).toBe(201);
    expect(res.body.items).toEqual([
      {
        itemId: 'admission_fee',
        item: 'admission_fee',
        installmentNumber: null,
        dueDate: null,
        before: 3000,
        after: 0,
      },
    ]);
    const after = await getEnrollment(e._id);
    expect(after).toMatchObject({ admissionFee: 0, admissionFeePaid: true, outstandingAmount: 30000 });
  });

  it('answers the readers with the adjusted amounts: booking payment status, next unpaid due, statement', async () => {
    const customer = await makeUser(t.deps.db, { role: 'customer', branchId });
    const b = await t.api('POST', '/api/bookings/book', {
      token: admin.token,
      body: { userId: customer.id, treatmentId, userType: 'local', paymentType: 'installment' },
    });
    expect(b.status).toBe(201);
    const [first, second] = b.body.installments as Array<{ _id: string; dueDate: string }>;
    await pay({ bookingId: b.body._id, amount: 5000 });
    const res = await t.api('POST', `/api/bookings/booking/${b.body._id}/adjustments`, {
      token: admin.token,
      body: { kind: 'discount', percent: 100, itemId: second!._id, reason: 'Second part free' },
    });
    expect(res.status).toBe(201);
    const booking = await t.api('GET', `/api/bookings/booking/${b.body._id}`, { token: admin.token });
    expect(booking.body.paymentStatus).toBe('paid');
    expect(booking.body.installments.map((i: { amount: number }) => i.amount)).toEqual([5000, 0]);
    const [row] = await t.deps.db
      .select({ due: treatmentBookings.nextUnpaidDue })
      .from(treatmentBookings)
      .where(eq(treatmentBookings.id, b.body._id));
    expect(row?.due).toBeNull();
    expect(first).toBeDefined();
    // The statement shows the charge as it was, the discount as a line of its own, and owes nothing.
    const statement = await t.api('GET', `/api/users/${customer.id}/statement`, { token: admin.token });
    expect(statement.status).toBe(200);
    expect(statement.body.totals).toEqual([{ currency: 'LKR', charged: 5000, paid: 5000, balance: 0, overdue: 0 }]);
    const kinds = statement.body.lines.map((l: { kind: string; amount: number }) => [l.kind, l.amount]);
    expect(kinds).toEqual(
      expect.arrayContaining([
        ['charge', 5000],
        ['charge', 5000],
        ['adjustment', -5000],
        ['payment', -5000],
      ]),
    );
  });

  it('refuses bad input with 400 and unknown items with 404, changing nothing', async () => {
    const e = await enrol();
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ kind: 'discount', percent: 10 }, 400, 'A reason is required.'],
      [{ kind: 'discount', percent: 10, reason: '  ' }, 400, 'A reason is required.'],
      [
        { kind: 'discount', percent: 0, reason: 'x' },
        400,
        'Percent must be between 1 and 100 with at most two decimals.',
      ],
      [
        { kind: 'discount', percent: 101, reason: 'x' },
        400,
        'Percent must be between 1 and 100 with at most two decimals.',
      ],
      [{ kind: 'discount', percent: 10, amount: 5, reason: 'x' }, 400, 'Give either a percent or an amount, not both.'],
      [{ kind: 'discount', reason: 'x' }, 400, 'Give a percent or an amount to take off.'],
      [{ kind: 'discount', amount: -1, reason: 'x' }, 400, 'Amount must be greater than 0 with at most two decimals.'],
      [{ kind: 'gift', amount: 1, reason: 'x' }, 400, 'Kind must be discount, scholarship or write_off.'],
      [
        { kind: 'write_off', amount: 1, reason: 'x' },
        400,
        'A write-off takes what remains: leave out percent and amount.',
      ],
      [{ kind: 'discount', amount: 1, schemeId: 'x', reason: 'x' }, 400, 'Only a scholarship can name a scheme.'],
      [{ kind: 'discount', amount: 1, itemId: 'nope', reason: 'x' }, 404, 'Installment not found in this record.'],
      [{ kind: 'scholarship', schemeId: 'nope', reason: 'x' }, 404, 'Scholarship scheme not found.'],
    ];
    for (const [body, status, message] of cases) {
      const res = await adjust(e._id, body);
      expect([body, res.status, res.body.message]).toEqual([body, status, message]);
    }
    const missing = await adjust('00000000-0000-4000-8000-000000000000', { kind: 'discount', amount: 1, reason: 'x' });
    expect(missing).toMatchObject({ status: 404, body: { message: 'Enrollment not found.' } });
    expect((await getEnrollment(e._id)).outstandingAmount).toBe(33000);
  });

  it('keeps the payment plan once a discount is applied: changing it answers 409', async () => {
    const e = await enrol();
    expect((await adjust(e._id, { kind: 'discount', amount: 100, reason: 'Early bird' })).status).toBe(201);
    const res = await t.api('PUT', `/api/enrollments/${e._id}`, { token: admin.token, body: { paymentType: 'full' } });
    expect(res).toMatchObject({
      status: 409,
      body: {
        message:
          'The payment type cannot change while a discount, scholarship or write-off is applied; revoke it first.',
      },
    });
  });
});

describe('a write-off', () => {
  it('takes what remains, admins only, after which the enrolment can be completed', async () => {
    const e = await enrol();
    await pay({ enrollmentId: e._id, amount: 13000 });
    const byManager = await adjust(e._id, { kind: 'write_off', reason: 'Bad debt' }, manager.token);
    expect(byManager).toMatchObject({
      status: 403,
      body: { message: 'Only admins and superadmins can write off what is owed.' },
    });
    expect((await t.api('PUT', `/api/enrollments/${e._id}/complete`, { token: admin.token })).status).toBe(409);
    const res = await adjust(e._id, { kind: 'write_off', reason: 'Bad debt' });
    expect(res).toMatchObject({ status: 201, body: { kind: 'write_off', total: 20000 } });
    expect(res.body.items.map((i: { before: number; after: number }) => [i.before, i.after])).toEqual([
      [10000, 0],
      [10000, 0],
    ]);
    const after = await getEnrollment(e._id);
    expect(after.installments.map((i) => [i.amount, i.isPaid])).toEqual([
      [10000, true],
      [0, true],
      [0, true],
    ]);
    expect(after.outstandingAmount).toBe(0);
    const done = await t.api('PUT', `/api/enrollments/${e._id}/complete`, { token: admin.token });
    expect(done).toMatchObject({ status: 200, body: { status: 'Completed' } });
    // Nothing more is owed on a completed enrolment, so it takes no more adjustments.
    expect((await adjust(e._id, { kind: 'discount', amount: 1, reason: 'x' })).status).toBe(409);
    const nothing = await adjust((await enrol())._id, { kind: 'write_off', itemId: 'admission_fee', reason: 'x' });
    expect(nothing.status).toBe(201);
  });
});

describe('revoking', () => {
  it('restores the amounts, is audited, and a second revoke is harmless', async () => {
    const e = await enrol();
    const a = (await adjust(e._id, { kind: 'discount', amount: 15000, reason: 'Staff child' })).body;
    expect((await getEnrollment(e._id)).installments.map((i) => i.amount)).toEqual([10000, 5000, 0]);
    // A second adjustment on the same items stays when the first is revoked.
    const b = (await adjust(e._id, { kind: 'discount', amount: 1000, reason: 'Second' })).body;
    expect(b.items).toEqual([expect.objectContaining({ before: 5000, after: 4000 })]);
    const noReason = await t.api('POST', `/api/adjustments/${a._id}/revoke`, { token: admin.token, body: {} });
    expect(noReason).toMatchObject({ status: 400, body: { message: 'A reason is required to revoke an adjustment.' } });
    const byManager = await t.api('POST', `/api/adjustments/${a._id}/revoke`, {
      token: manager.token,
      body: { reason: 'x' },
    });
    expect(byManager.status).toBe(403);
    const res = await t.api('POST', `/api/adjustments/${a._id}/revoke`, {
      token: admin.token,
      body: { reason: 'Given by mistake' },
    });
    expect(res).toMatchObject({
      status: 200,
      body: {
        status: 'revoked',
        revokeReason: 'Given by mistake',
        revokedBy: { _id: admin.id, username: admin.username },
        revokedAt: expect.any(String),
        // The entry keeps what it did.
        items: [
          expect.objectContaining({ before: 10000, after: 5000 }),
          expect.objectContaining({ before: 10000, after: 0 }),
        ],
      },
    });
    expect((await getEnrollment(e._id)).installments.map((i) => i.amount)).toEqual([10000, 9000, 10000]);
    const again = await t.api('POST', `/api/adjustments/${a._id}/revoke`, {
      token: admin.token,
      body: { reason: 'Twice' },
    });
    expect(again).toMatchObject({ status: 200, body: { status: 'revoked', revokeReason: 'Given by mistake' } });
    expect(again.body.revokedAt).toBe(res.body.revokedAt);
    expect((await getEnrollment(e._id)).installments.map((i) => i.amount)).toEqual([10000, 9000, 10000]);
    const entries = await t.deps.db
      .select({ action: auditLog.action, summary: auditLog.summary })
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'adjustment'), eq(auditLog.entityId, a._id)))
      .orderBy(asc(auditLog.createdAt));
    expect(entries.map((x) => x.action)).toEqual(['create', 'revoke']);
    // The enrolment's History gathers them too.
    const parented = await t.deps.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(
        and(eq(auditLog.parentType, 'enrollment'), eq(auditLog.parentId, e._id), eq(auditLog.entityType, 'adjustment')),
      );
    expect(parented).toHaveLength(3);
  });
});

describe('approval', () => {
  it('off by default: a manager asking answers 403; on: 201 pending, nothing changes until an admin decides', async () => {
    expect(await t.api('GET', '/api/settings/adjustments', { token: manager.token })).toMatchObject({
      status: 200,
      body: { approvalRequired: false },
    });
    const e = await enrol();
    const refused = await adjust(e._id, { kind: 'discount', amount: 500, reason: 'Loyal' }, manager.token);
    expect(refused).toMatchObject({
      status: 403,
      body: {
        message:
          'Only admins and superadmins can give discounts and scholarships while approval is off; ask an admin, or turn approval on in Settings.',
      },
    });
    expect(
      (await t.api('PUT', '/api/settings/adjustments', { token: manager.token, body: { approvalRequired: true } }))
        .status,
    ).toBe(403);
    expect(
      (await t.api('PUT', '/api/settings/adjustments', { token: admin.token, body: { approvalRequired: 'yes' } }))
        .status,
    ).toBe(400);
    await setApproval(true);
    try {
      const asked = await adjust(e._id, { kind: 'discount', amount: 500, reason: 'Loyal' }, manager.token);
      expect(asked).toMatchObject({
        status: 201,
        body: {
          status: 'pending',
          total: 500,
          createdBy: { _id: manager.id },
          approvedBy: null,
          items: [expect.objectContaining({ before: 10000, after: 9500 })],
        },
      });
      expect((await getEnrollment(e._id)).outstandingAmount).toBe(33000);
      // The admins' queue of requests.
      const queue = await t.api('GET', '/api/adjustments?status=pending', { token: admin.token });
      expect(queue.body).toMatchObject({ total: 1, page: 1, data: [{ _id: asked.body._id, status: 'pending' }] });
      // Managers ask; they do not decide.
      const self = await t.api('POST', `/api/adjustments/${asked.body._id}/approve`, {
        token: manager.token,
        body: { note: 'ok' },
      });
      expect(self.status).toBe(403);
      const noNote = await t.api('POST', `/api/adjustments/${asked.body._id}/approve`, {
        token: admin.token,
        body: {},
      });
      expect(noNote).toMatchObject({ status: 400, body: { message: 'A note is required.' } });
      const revokePending = await t.api('POST', `/api/adjustments/${asked.body._id}/revoke`, {
        token: admin.token,
        body: { reason: 'x' },
      });
      expect(revokePending.status).toBe(409);
      const ok = await t.api('POST', `/api/adjustments/${asked.body._id}/approve`, {
        token: admin.token,
        body: { note: 'Long-standing student' },
      });
      expect(ok).toMatchObject({
        status: 200,
        body: {
          status: 'applied',
          decisionNote: 'Long-standing student',
          approvedBy: { _id: admin.id, username: admin.username },
          appliedAt: expect.any(String),
        },
      });
      expect((await getEnrollment(e._id)).outstandingAmount).toBe(32500);
      const twice = await t.api('POST', `/api/adjustments/${asked.body._id}/approve`, {
        token: admin.token,
        body: { note: 'again' },
      });
      expect(twice).toMatchObject({ status: 409, body: { message: 'This adjustment is applied, not pending.' } });

      const other = await adjust(e._id, { kind: 'scholarship', percent: 50, reason: 'Need' }, manager.token);
      expect(other.body.status).toBe('pending');
      const rejected = await t.api('POST', `/api/adjustments/${other.body._id}/reject`, {
        token: admin.token,
        body: { note: 'Not eligible' },
      });
      expect(rejected).toMatchObject({
        status: 200,
        body: { status: 'rejected', decisionNote: 'Not eligible', approvedBy: null, appliedAt: null },
      });
      expect((await getEnrollment(e._id)).outstandingAmount).toBe(32500);
      const late = await t.api('POST', `/api/adjustments/${other.body._id}/approve`, {
        token: admin.token,
        body: { note: 'changed my mind' },
      });
      expect(late.status).toBe(409);
      // A write-off stays an admin's, approval or not; an admin's own adjustment applies at once.
      expect((await adjust(e._id, { kind: 'write_off', reason: 'x' }, manager.token)).status).toBe(403);
      expect((await adjust(e._id, { kind: 'discount', amount: 1, reason: 'x' })).body.status).toBe('applied');
    } finally {
      await setApproval(false);
    }
  });
});

describe('scholarship schemes', () => {
  it('admins keep the list; a scholarship naming a scheme takes its percentage; an inactive one is refused', async () => {
    const name = `Merit ${Math.random().toString(36).slice(2, 7)}`;
    const made = await t.api('POST', '/api/scholarship-schemes', {
      token: admin.token,
      body: { name, defaultPercent: 25 },
    });
    expect(made).toMatchObject({ status: 201, body: { name, defaultPercent: 25, active: true } });
    expect(
      (
        await t.api('POST', '/api/scholarship-schemes', {
          token: admin.token,
          body: { name: name.toUpperCase(), defaultPercent: 5 },
        })
      ).status,
    ).toBe(409);
    expect(
      (
        await t.api('POST', '/api/scholarship-schemes', {
          token: manager.token,
          body: { name: 'x', defaultPercent: 5 },
        })
      ).status,
    ).toBe(403);
    expect(
      (await t.api('POST', '/api/scholarship-schemes', { token: admin.token, body: { name: 'x', defaultPercent: 0 } }))
        .status,
    ).toBe(400);
    const list = await t.api('GET', '/api/scholarship-schemes', { token: manager.token });
    expect(list.body.data.map((s: { _id: string }) => s._id)).toContain(made.body._id);

    const e = await enrol();
    const res = await adjust(e._id, { kind: 'scholarship', schemeId: made.body._id, reason: 'Top of the class' });
    expect(res).toMatchObject({
      status: 201,
      body: { kind: 'scholarship', percent: 25, total: 7500, scheme: { _id: made.body._id, name } },
    });
    const off = await t.api('PUT', `/api/scholarship-schemes/${made.body._id}`, {
      token: admin.token,
      body: { active: false },
    });
    expect(off).toMatchObject({ status: 200, body: { active: false, defaultPercent: 25, name } });
    const summary = await t.api('GET', '/api/adjustments/summary', { token: admin.token });
    expect(summary.body.adjustments).toContainEqual(
      expect.objectContaining({
        kind: 'scholarship',
        scheme: name,
        reason: 'Top of the class',
        amount: 7500,
        count: 1,
      }),
    );
    const refused = await adjust(e._id, { kind: 'scholarship', schemeId: made.body._id, reason: 'Again' });
    expect(refused).toMatchObject({ status: 409, body: { message: 'This scholarship scheme is no longer active.' } });
    expect(
      (
        await t.api('PUT', '/api/scholarship-schemes/00000000-0000-4000-8000-000000000000', {
          token: admin.token,
          body: { active: true },
        })
      ).status,
    ).toBe(404);
  });
});

describe('roles and branch scope', () => {
  it('students and anonymous callers are refused; a manager limited to a branch reaches only its records', async () => {
    const e = await enrol();
    const student = await t.userWithSession('student');
    expect((await adjust(e._id, { kind: 'discount', amount: 1, reason: 'x' }, student.token)).status).toBe(403);
    expect((await t.api('GET', `/api/enrollments/${e._id}/adjustments`)).status).toBe(401);
    const elsewhere = await t.userWithSession('manager', { branchId: (await makeBranch(t.deps.db)).id });
    await t.trpc(admin.token).settings.updateAccess.mutate({ managersOwnBranchOnly: true });
    await setApproval(true);
    try {
      const res = await adjust(e._id, { kind: 'discount', amount: 1, reason: 'x' }, elsewhere.token);
      expect(res).toMatchObject({ status: 404, body: { message: 'Enrollment not found.' } });
      const list = await t.api('GET', `/api/enrollments/${e._id}/adjustments`, { token: elsewhere.token });
      expect(list.status).toBe(404);
      const mine = await adjust(e._id, { kind: 'discount', amount: 1, reason: 'x' }, manager.token);
      expect(mine.status).toBe(201);
      const seen = await t.api('GET', `/api/adjustments/${mine.body._id}`, { token: elsewhere.token });
      expect(seen.status).toBe(404);
    } finally {
      await setApproval(false);
      await t.trpc(admin.token).settings.updateAccess.mutate({ managersOwnBranchOnly: false });
    }
  });

  it('tRPC answers as REST does, with a preview that changes nothing', async () => {
    const e = await enrol();
    const api = t.trpc(admin.token);
    const preview = await api.adjustments.preview.query({
      enrollmentId: e._id,
      body: { kind: 'discount', percent: 20, reason: 'Preview' },
    });
    expect(preview).toMatchObject({ currency: 'LKR', total: 6000, pending: false });
    expect(preview.items).toEqual([expect.objectContaining({ before: 10000, after: 4000 })]);
    expect((await getEnrollment(e._id)).outstandingAmount).toBe(33000);
    const made = await api.adjustments.create.mutate({
      enrollmentId: e._id,
      body: { kind: 'discount', percent: 20, reason: 'Preview' },
    });
    expect(made.items).toEqual(preview.items);
    expect(await api.adjustments.list.query({ enrollmentId: e._id })).toHaveLength(1);
  });
});
