import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIn } from '../../src/shared/calendar';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeUser, postTreatment, type MadeUser } from '../helpers/factories';

let t: TestApp;
let admin: string;
let manager: string;
let customer: MadeUser;
let treatmentId: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = (await t.userWithSession('admin')).token;
  manager = (await t.userWithSession('manager')).token;
  customer = await makeUser(t.deps.db, { role: 'customer', fullName: 'Anoma Jayasinghe' });
  const tr = await postTreatment(t, admin, {
    treatmentName: 'Panchakarma',
    localPrice: 30000,
    foreignPrice: 95.5,
    maxSessions: 8,
    installments: 2,
    duration: { weeks: 1, days: 0, months: 0 },
  });
  treatmentId = tr._id;
});
afterAll(() => t.close());

const bookBody = (o: Record<string, unknown> = {}) => ({
  userId: customer.id,
  treatmentId,
  userType: 'foreign',
  paymentType: 'installment',
  ...o,
});

describe('REST shapes (docs/product.md#records-and-their-fields and 7)', () => {
  it('POST /book answers the booking with populated references and the documented field names', async () => {
    const res = await t.api('POST', '/api/bookings/book', { token: admin, body: bookBody() });
    expect(res.status).toBe(201);
    const b = res.body;
    expect(Object.keys(b)).toEqual(
      expect.arrayContaining([
        '_id',
        'userId',
        'treatmentId',
        'userType',
        'paymentType',
        'paymentStatus',
        'price',
        'currency',
        'treatmentPeriod',
        'sessionsCompleted',
        'sessionNotes',
        'installments',
        'status',
        'createdAt',
      ]),
    );
    // The full name beside the spec's fields (docs/users.md): an extension, nothing renamed.
    expect(b.userId).toEqual({
      _id: customer.id,
      username: customer.username,
      email: customer.email,
      fullName: 'Anoma Jayasinghe',
    });
    expect(b.treatmentId).toEqual({ _id: treatmentId, treatmentName: 'Panchakarma', maxSessions: 8 });
    expect(b).toMatchObject({
      userType: 'foreign',
      paymentType: 'installment',
      paymentStatus: 'pending',
      price: 95.5,
      currency: 'USD',
      status: 'active',
    });
    expect(b.treatmentPeriod.startDate).toBe(todayIn(t.deps.config.TIME_ZONE));
    expect(b.installments.map((i: { amount: number }) => i.amount)).toEqual([47.75, 47.75]);
    expect(b.installments[0]).toEqual({
      _id: expect.any(String),
      amount: 47.75,
      dueDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      isPaid: false,
      paidAt: null,
      // Added beside the documented fields, as enrolment installments have it.
      isOverdue: false,
      // What the payments ledger holds against it (docs/payments.md).
      amountPaid: 0,
    });
    expect(new Date(b.createdAt).toISOString()).toBe(b.createdAt);
  });

  it('POST /book refuses bad input with 400 and unknown ids with 404', async () => {
    expect(
      (await t.api('POST', '/api/bookings/book', { token: admin, body: bookBody({ treatmentId: undefined }) })).body
        .message,
    ).toBe('Please select a treatment.');
    expect(
      (await t.api('POST', '/api/bookings/book', { token: admin, body: bookBody({ userType: 'alien' }) })).status,
    ).toBe(400);
    expect(
      (await t.api('POST', '/api/bookings/book', { token: admin, body: bookBody({ userId: 'nope' }) })).status,
    ).toBe(404);
    expect(
      (
        await t.api('POST', '/api/bookings/book', {
          token: admin,
          body: bookBody({ treatmentId: '00000000-0000-4000-8000-000000000000' }),
        })
      ).status,
    ).toBe(404);
    // paymentType defaults to full (docs/product.md#constants).
    const full = await t.api('POST', '/api/bookings/book', {
      token: admin,
      body: bookBody({ paymentType: undefined, userType: 'local' }),
    });
    expect(full.body).toMatchObject({ paymentType: 'full', price: 30000, currency: 'LKR' });
  });

  it('pay-installment answers { success, message } and toggles by index', async () => {
    const b = (await t.api('POST', '/api/bookings/book', { token: admin, body: bookBody() })).body;
    const res = await t.api('POST', `/api/bookings/${b._id}/pay-installment`, {
      token: admin,
      body: { installmentIndex: 1, isPaid: true },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Installment status updated!' });
    const after = await t.api('GET', `/api/bookings/booking/${b._id}`, { token: manager });
    expect(after.body.installments.map((i: { isPaid: boolean }) => i.isPaid)).toEqual([false, true]);
    expect(after.body.paymentStatus).toBe('partially_paid');
    expect(
      (
        await t.api('POST', `/api/bookings/${b._id}/pay-installment`, {
          token: admin,
          body: { installmentIndex: 2, isPaid: true },
        })
      ).status,
    ).toBe(404);
    expect(
      (await t.api('POST', `/api/bookings/${b._id}/pay-installment`, { token: admin, body: { installmentIndex: 0 } }))
        .status,
    ).toBe(400);
    expect(
      (await t.api('POST', `/api/bookings/${b._id}/pay-installment`, { token: admin, body: { isPaid: true } })).body
        .message,
    ).toBe('Please choose an installment.');
  });

  it('routes /bookings, /bookings/{userId}, /bookings/{id}/cancel and DELETE /bookings/{id} apart', async () => {
    const other = await makeUser(t.deps.db, { role: 'customer' });
    const mine = (await t.api('POST', '/api/bookings/book', { token: admin, body: bookBody({ userType: 'local' }) }))
      .body;
    const theirs = (await t.api('POST', '/api/bookings/book', { token: admin, body: bookBody({ userId: other.id }) }))
      .body;

    const all = await t.api('GET', '/api/bookings/bookings', { token: manager });
    expect(all.status).toBe(200);
    expect(Array.isArray(all.body)).toBe(true);
    expect(all.body.map((x: { _id: string }) => x._id)).toEqual(expect.arrayContaining([mine._id, theirs._id]));
    const locals = await t.api('GET', '/api/bookings/bookings?userType=local', { token: manager });
    expect(locals.body.every((x: { userType: string }) => x.userType === 'local')).toBe(true);
    expect((await t.api('GET', '/api/bookings/bookings?paymentStatus=bogus', { token: manager })).status).toBe(400);
    expect((await t.api('GET', '/api/bookings/bookings?paymentStatus=', { token: manager })).status).toBe(200);

    const byUser = await t.api('GET', `/api/bookings/bookings/${other.id}`, { token: manager });
    expect(byUser.status).toBe(200);
    expect(byUser.body.map((x: { _id: string }) => x._id)).toEqual([theirs._id]);
    expect(
      (await t.api('GET', '/api/bookings/bookings/00000000-0000-4000-8000-000000000000', { token: manager })).status,
    ).toBe(404);

    const cancel = await t.api('PUT', `/api/bookings/bookings/${theirs._id}/cancel`, { token: admin });
    expect(cancel.status).toBe(200);
    expect(cancel.body.status).toBe('cancelled');
    const del = await t.api('DELETE', `/api/bookings/bookings/${mine._id}`, { token: admin });
    expect(del.body).toEqual({ message: 'Booking deleted successfully!' });
    const one = await t.api('GET', `/api/bookings/booking/${theirs._id}`, { token: manager });
    expect(one.body).toMatchObject({ _id: theirs._id, status: 'cancelled' });
    expect((await t.api('GET', '/api/bookings/booking/garbage', { token: manager })).status).toBe(404);
  });
});

describe('role matrix', () => {
  it('lets staff read and record sessions, and only admins book, toggle money, cancel and delete', async () => {
    const superadmin = (await t.userWithSession('superadmin')).token;
    const b = (await t.api('POST', '/api/bookings/book', { token: admin, body: bookBody() })).body;
    const calls: Array<[string, string, unknown, 'staff' | 'admin']> = [
      ['GET', '/api/bookings/bookings', undefined, 'staff'],
      ['GET', `/api/bookings/bookings/${customer.id}`, undefined, 'staff'],
      ['GET', `/api/bookings/booking/${b._id}`, undefined, 'staff'],
      ['GET', `/api/bookings/progress/${customer.id}/${treatmentId}`, undefined, 'staff'],
      ['PUT', `/api/bookings/progress/${customer.id}/${treatmentId}`, { sessionsCompleted: 1 }, 'staff'],
      ['POST', '/api/bookings/book', bookBody(), 'admin'],
      ['POST', `/api/bookings/${b._id}/pay-installment`, { installmentIndex: 0, isPaid: true }, 'admin'],
      ['PUT', `/api/bookings/payment/${b._id}`, { paymentStatus: 'pending' }, 'admin'],
      ['PUT', `/api/bookings/bookings/${b._id}/cancel`, undefined, 'admin'],
    ];
    const tokens = {
      customer: (await t.userWithSession('customer')).token,
      student: (await t.userWithSession('student')).token,
      manager,
      admin,
      superadmin,
    };
    const got: string[] = [];
    const want: string[] = [];
    for (const [method, url, body, level] of calls) {
      for (const [role, token] of Object.entries(tokens)) {
        const res = await t.api(method, url, { token, body });
        const allowed = role === 'admin' || role === 'superadmin' || (role === 'manager' && level === 'staff');
        got.push(`${role} ${method} ${url}: ${res.status < 300 ? 'ok' : res.status}`);
        want.push(`${role} ${method} ${url}: ${allowed ? 'ok' : 403}`);
      }
      expect((await t.api(method, url, { body })).status).toBe(401);
    }
    expect(got).toEqual(want);
    expect((await t.api('DELETE', `/api/bookings/bookings/${b._id}`, { token: manager })).status).toBe(403);
    expect((await t.api('DELETE', `/api/bookings/bookings/${b._id}`, { token: superadmin })).status).toBe(200);
  });

  it('applies the same roles in tRPC', async () => {
    const b = (await t.api('POST', '/api/bookings/book', { token: admin, body: bookBody() })).body;
    await expect(
      t
        .trpc(manager)
        .bookings.book.mutate({ email: customer.email, treatmentId, userType: 'local', paymentType: 'full' }),
    ).rejects.toMatchObject({
      data: { code: 'FORBIDDEN' },
    });
    await expect(
      t
        .trpc(manager)
        .bookings.setInstallmentPaid.mutate({ id: b._id, installmentId: b.installments[0]._id, isPaid: true }),
    ).rejects.toMatchObject({
      data: { code: 'FORBIDDEN' },
    });
    await expect(t.trpc(manager).bookings.delete.mutate({ id: b._id })).rejects.toMatchObject({
      data: { code: 'FORBIDDEN' },
    });
    expect(
      (await t.trpc(manager).bookings.setSessions.mutate({ id: b._id, sessionsCompleted: 1 })).sessionsCompleted,
    ).toBe(1);
    const customerToken = (await t.userWithSession('customer')).token;
    await expect(t.trpc(customerToken).bookings.list.query({})).rejects.toMatchObject({ data: { code: 'FORBIDDEN' } });
  });
});
