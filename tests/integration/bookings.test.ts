import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingInstallments, treatmentBookings } from '../../src/server/db/schema';
import { refreshOverdueBookings } from '../../src/server/domains/bookings/bookings.service';
import { PAYMENT_STATUSES } from '../../src/shared/booking-status';
import { addToDate, todayIn } from '../../src/shared/calendar';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeUser, postTreatment, type MadeUser } from '../helpers/factories';
import type { TreatmentValues } from '../../src/shared/schemas/treatments';

let t: TestApp;
let admin: string;
let manager: string;
let today: string;
let customer: MadeUser;

beforeAll(async () => {
  t = await startTestApp();
  admin = (await t.userWithSession('admin')).token;
  manager = (await t.userWithSession('manager')).token;
  customer = await makeUser(t.deps.db, { role: 'customer', email: 'Sarah.Collins@Example.com' });
  today = todayIn(t.deps.config.TIME_ZONE);
});
afterAll(() => t.close());

let seq = 0;
const treatment = (o: Partial<TreatmentValues> = {}) =>
  postTreatment(t, admin, {
    treatmentName: `Treatment ${++seq} ${Date.now()}`,
    localPrice: 10000,
    foreignPrice: 100,
    maxSessions: 5,
    installments: 3,
    duration: { weeks: 0, days: 0, months: 0 },
    ...o,
  });

function book(
  treatmentId: string,
  o: Partial<{ email: string; userType: 'local' | 'foreign'; paymentType: 'full' | 'installment' }> = {},
) {
  return t.trpc(admin).bookings.book.mutate({
    email: o.email ?? customer.email,
    treatmentId,
    userType: o.userType ?? 'local',
    paymentType: o.paymentType ?? 'full',
  });
}

/** Time passes: every installment of the booking falls due `days` earlier. */
async function shiftDueDates(bookingId: string, days: number) {
  await t.deps.db
    .update(bookingInstallments)
    .set({ dueDate: sql`${bookingInstallments.dueDate} - ${days}::int` })
    .where(eq(bookingInstallments.bookingId, bookingId));
}

describe('booking a treatment', () => {
  it('charges a local customer the local price in LKR, one installment due today for full payment', async () => {
    const tr = await treatment({ localPrice: 12500.5, foreignPrice: 40 });
    const b = await book(tr._id, { email: '  sarah.COLLINS@example.com ' });
    expect(b).toMatchObject({
      userId: { _id: customer.id, username: customer.username, email: customer.email },
      treatmentId: { _id: tr._id, treatmentName: tr.treatmentName, maxSessions: 5 },
      userType: 'local',
      paymentType: 'full',
      paymentStatus: 'pending',
      price: 12500.5,
      currency: 'LKR',
      sessionsCompleted: 0,
      sessionNotes: [],
      status: 'active',
      treatmentPeriod: null,
    });
    expect(b.installments).toHaveLength(1);
    expect(b.installments[0]).toMatchObject({ amount: 12500.5, dueDate: today, isPaid: false, paidAt: null });
  });

  it('charges a foreign customer the foreign price in USD, split into monthly parts with the remainder last', async () => {
    const tr = await treatment({ localPrice: 10000, foreignPrice: 100, installments: 3 });
    const b = await book(tr._id, { userType: 'foreign', paymentType: 'installment' });
    expect(b.price).toBe(100);
    expect(b.currency).toBe('USD');
    expect(b.installments.map((i) => [i.amount, i.dueDate])).toEqual([
      [33.33, today],
      [33.33, addToDate(today, { months: 1 })],
      [33.34, addToDate(today, { months: 2 })],
    ]);
  });

  it('splits a local price exactly in minor units', async () => {
    const tr = await treatment({ localPrice: 1000.01, installments: 4 });
    const b = await book(tr._id, { paymentType: 'installment' });
    expect(b.installments.map((i) => i.amount)).toEqual([250, 250, 250, 250.01]);
    expect(b.currency).toBe('LKR');
  });

  it('keeps the price it was sold at when the treatment price changes', async () => {
    const tr = await treatment({ localPrice: 5000 });
    const b = await book(tr._id);
    await t.api('PUT', `/api/treatments/${tr._id}`, {
      token: admin,
      body: { treatmentName: tr.treatmentName, localPrice: 9000, foreignPrice: 100, maxSessions: 5, installments: 3 },
    });
    expect((await t.trpc(manager).bookings.get.query({ id: b._id })).price).toBe(5000);
  });

  it('sets the treatment period from today for months, weeks and days', async () => {
    const tr = await treatment({ duration: { months: 1, weeks: 2, days: 3 } });
    const b = await book(tr._id);
    expect(b.treatmentPeriod).toEqual({
      startDate: today,
      endDate: addToDate(today, { months: 1, weeks: 2, days: 3 }),
    });
  });

  it('names what is missing or unknown', async () => {
    const tr = await treatment();
    const api = t.trpc(admin).bookings.book;
    await expect(
      api.mutate({ email: customer.email, treatmentId: '', userType: 'local', paymentType: 'full' }),
    ).rejects.toMatchObject({ message: 'Please select a treatment.' });
    await expect(
      api.mutate({ email: '  ', treatmentId: tr._id, userType: 'local', paymentType: 'full' }),
    ).rejects.toMatchObject({ message: 'Please enter a user email.' });
    await expect(
      api.mutate({ email: 'nobody@example.com', treatmentId: tr._id, userType: 'local', paymentType: 'full' }),
    ).rejects.toMatchObject({
      message: 'User not found. Please check the email.',
      data: { code: 'NOT_FOUND' },
    });
    await expect(
      api.mutate({
        email: customer.email,
        treatmentId: '00000000-0000-4000-8000-000000000000',
        userType: 'local',
        paymentType: 'full',
      }),
    ).rejects.toMatchObject({
      data: { code: 'NOT_FOUND' },
    });
    await expect(
      api.mutate({ email: customer.email, treatmentId: tr._id, userType: 'martian' as never, paymentType: 'full' }),
    ).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
    });
  });
});

describe('payment status', () => {
  it('goes pending -> partially_paid -> paid and back, stored on every change', async () => {
    const tr = await treatment({ installments: 3 });
    const b = await book(tr._id, { paymentType: 'installment' });
    const [i0, i1, i2] = b.installments;
    const setPaid = (installmentId: string, isPaid: boolean) =>
      t.trpc(admin).bookings.setInstallmentPaid.mutate({ id: b._id, installmentId, isPaid });
    const stored = async () =>
      (await t.deps.db.select().from(treatmentBookings).where(eq(treatmentBookings.id, b._id)))[0]!.paymentStatus;

    let r = await setPaid(i0!._id, true);
    expect(r.paymentStatus).toBe('partially_paid');
    expect(await stored()).toBe('partially_paid');
    expect(r.installments[0]!.paidAt).not.toBeNull();
    const firstPaidAt = r.installments[0]!.paidAt;
    r = await setPaid(i0!._id, true);
    expect(r.installments[0]!.paidAt).toBe(firstPaidAt);
    await setPaid(i1!._id, true);
    r = await setPaid(i2!._id, true);
    expect(r.paymentStatus).toBe('paid');
    expect(await stored()).toBe('paid');
    r = await setPaid(i2!._id, false);
    expect(r.paymentStatus).toBe('partially_paid');
    expect(r.installments[2]!.paidAt).toBeNull();
  });

  it('becomes overdue when a day passes without any write, in lists and filters too, until that installment is paid', async () => {
    const tr = await treatment({ installments: 3 });
    const b = await book(tr._id, { paymentType: 'installment' });
    await shiftDueDates(b._id, 40); // first is 40 days late, second 10 days late, third not yet due
    const late = await t.trpc(manager).bookings.get.query({ id: b._id });
    expect(late.paymentStatus).toBe('overdue');
    // Each installment says whether it is overdue by the institute's calendar, for the screen.
    expect(late.installments.map((i) => i.isOverdue)).toEqual([true, true, false]);
    const overdue = await t.trpc(manager).bookings.list.query({ paymentStatus: 'overdue', pageSize: 200 });
    expect(overdue.items.map((x) => x._id)).toContain(b._id);
    const pending = await t.trpc(manager).bookings.list.query({ paymentStatus: 'pending', pageSize: 200 });
    expect(pending.items.map((x) => x._id)).not.toContain(b._id);
    const rest = await t.api('GET', '/api/bookings/bookings?paymentStatus=overdue', { token: manager });
    expect(rest.body.map((x: { _id: string }) => x._id)).toContain(b._id);

    let r = await t
      .trpc(admin)
      .bookings.setInstallmentPaid.mutate({ id: b._id, installmentId: b.installments[0]!._id, isPaid: true });
    expect(r.paymentStatus).toBe('overdue'); // the second is still late
    expect(r.installments.map((i) => i.isOverdue)).toEqual([false, true, false]);
    r = await t
      .trpc(admin)
      .bookings.setInstallmentPaid.mutate({ id: b._id, installmentId: b.installments[1]!._id, isPaid: true });
    expect(r.paymentStatus).toBe('partially_paid');
  });

  it('a daily refresh writes overdue into the stored column for other readers', async () => {
    const tr = await treatment({ installments: 2 });
    const b = await book(tr._id, { paymentType: 'installment' });
    await shiftDueDates(b._id, 3);
    expect(await refreshOverdueBookings(t.deps.db, today)).toBeGreaterThanOrEqual(1);
    const [row] = await t.deps.db.select().from(treatmentBookings).where(eq(treatmentBookings.id, b._id));
    expect(row!.paymentStatus).toBe('overdue');
  });

  it('filters by the payment status each row shows, for every status and both list paths', async () => {
    const c = await makeUser(t.deps.db, { role: 'customer', email: `status-filter-${Date.now()}@example.com` });
    const tr = await treatment({ installments: 3 });
    const bookOne = (paymentType: 'full' | 'installment') => book(tr._id, { email: c.email, paymentType });
    const pay = (b: { _id: string; installments: Array<{ _id: string }> }, i: number) =>
      t
        .trpc(admin)
        .bookings.setInstallmentPaid.mutate({ id: b._id, installmentId: b.installments[i]!._id, isPaid: true });
    const cancel = (id: string) => t.trpc(admin).bookings.cancel.mutate({ id });

    const storedOverdue = await bookOne('installment');
    await shiftDueDates(storedOverdue._id, 40);
    await refreshOverdueBookings(t.deps.db, today);
    await cancel(storedOverdue._id); // cancelled after the daily refresh stored overdue: shows overdue
    await bookOne('full'); // pending: due today, not yet late
    const partly = await bookOne('installment');
    await pay(partly, 0); // partially_paid
    await pay(await bookOne('full'), 0); // paid
    const paidLate = await bookOne('full');
    await pay(paidLate, 0);
    await shiftDueDates(paidLate._id, 40); // paid long ago: still paid
    await shiftDueDates((await bookOne('installment'))._id, 40); // late, stored pending: overdue
    const partlyLate = await bookOne('installment');
    await pay(partlyLate, 0);
    await shiftDueDates(partlyLate._id, 40); // late, stored partially_paid: overdue
    const cancelledLate = await bookOne('installment');
    await shiftDueDates(cancelledLate._id, 40);
    await cancel(cancelledLate._id); // cancelled with unpaid past-due installments: not chased, pending

    const list = (paymentStatus?: (typeof PAYMENT_STATUSES)[number]) =>
      t.trpc(manager).bookings.list.query({ userId: c.id, paymentStatus, pageSize: 200 });
    const rest = async (paymentStatus?: string) => {
      const res = await t.api(
        'GET',
        `/api/bookings/bookings${paymentStatus ? `?paymentStatus=${paymentStatus}` : ''}`,
        {
          token: manager,
        },
      );
      expect(res.status).toBe(200);
      return (res.body as Array<{ _id: string; paymentStatus: string; userId: { _id: string } | null }>).filter(
        (x) => x.userId?._id === c.id,
      );
    };
    const all = await list();
    const allRest = await rest();
    expect(all.items).toHaveLength(8);
    const shown = (id: string) => all.items.find((x) => x._id === id)?.paymentStatus;
    expect([shown(cancelledLate._id), shown(storedOverdue._id), shown(partlyLate._id)]).toEqual([
      'pending',
      'overdue',
      'overdue',
    ]);
    expect(new Set(all.items.map((x) => x.paymentStatus))).toEqual(new Set(PAYMENT_STATUSES));
    for (const status of PAYMENT_STATUSES) {
      const expected = all.items.filter((x) => x.paymentStatus === status).map((x) => x._id);
      const filtered = await list(status);
      expect(filtered.items.map((x) => x._id)).toEqual(expected);
      expect(filtered.items.every((x) => x.paymentStatus === status)).toBe(true);
      expect(filtered.total).toBe(expected.length);
      const filteredRest = await rest(status);
      expect(filteredRest.map((x) => x._id)).toEqual(
        allRest.filter((x) => x.paymentStatus === status).map((x) => x._id),
      );
    }
  });

  it('PUT /payment marks every installment paid or none, or sets them by position', async () => {
    const tr = await treatment({ installments: 2 });
    const b = await book(tr._id, { paymentType: 'installment' });
    let res = await t.api('PUT', `/api/bookings/payment/${b._id}`, { token: admin, body: { paymentStatus: 'paid' } });
    expect(res.status).toBe(200);
    expect(res.body.paymentStatus).toBe('paid');
    expect(res.body.installments.every((i: { isPaid: boolean }) => i.isPaid)).toBe(true);
    res = await t.api('PUT', `/api/bookings/payment/${b._id}`, {
      token: admin,
      body: { installments: [{ isPaid: false }, { isPaid: true }] },
    });
    expect(res.body.paymentStatus).toBe('partially_paid');
    res = await t.api('PUT', `/api/bookings/payment/${b._id}`, {
      token: admin,
      body: { installments: [{ isPaid: true }] },
    });
    expect(res.status).toBe(400);
    res = await t.api('PUT', `/api/bookings/payment/${b._id}`, { token: admin, body: { paymentStatus: 'overdue' } });
    expect(res.status).toBe(400);
  });
});

describe('sessions and notes', () => {
  it('keeps sessionsCompleted between 0 and maxSessions', async () => {
    const tr = await treatment({ maxSessions: 3 });
    const b = await book(tr._id);
    const set = (n: number) => t.trpc(manager).bookings.setSessions.mutate({ id: b._id, sessionsCompleted: n });
    expect((await set(3)).sessionsCompleted).toBe(3);
    expect((await set(0)).sessionsCompleted).toBe(0);
    await expect(set(4)).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
      message: 'Sessions completed must be between 0 and 3.',
    });
    await expect(set(-1)).rejects.toMatchObject({ data: { code: 'BAD_REQUEST' } });
    await expect(set(1.5)).rejects.toMatchObject({ data: { code: 'BAD_REQUEST' } });
  });

  it('accepts a note only for a completed session, dates it once', async () => {
    const tr = await treatment({ maxSessions: 4 });
    const b = await book(tr._id);
    const note = (sessionNumber: number, text: string) =>
      t.trpc(manager).bookings.saveNote.mutate({ id: b._id, sessionNumber, note: text });
    await expect(note(1, 'Too early')).rejects.toMatchObject({ data: { code: 'BAD_REQUEST' } });
    await t.trpc(manager).bookings.setSessions.mutate({ id: b._id, sessionsCompleted: 2 });
    let r = await note(2, 'Good response to oil');
    expect(r.sessionNotes).toHaveLength(1);
    expect(r.sessionNotes[0]).toMatchObject({ sessionNumber: 2, note: 'Good response to oil' });
    const firstDate = r.sessionNotes[0]!.date;
    expect(firstDate).not.toBeNull();
    r = await note(2, 'Edited');
    expect(r.sessionNotes[0]).toEqual({ sessionNumber: 2, note: 'Edited', date: firstDate });
    await expect(note(3, 'Not yet')).rejects.toMatchObject({
      message: 'Session 3 is not completed yet; notes can only be written for completed sessions.',
    });
    await expect(note(5, 'Beyond')).rejects.toMatchObject({ message: 'Session number must be between 1 and 4.' });
    await expect(note(0, 'Zero')).rejects.toMatchObject({ data: { code: 'BAD_REQUEST' } });
  });
});

describe('progress by user and treatment', () => {
  it('reads and writes the newest booking of the pair', async () => {
    const tr = await treatment({ maxSessions: 6 });
    const older = await book(tr._id);
    await new Promise((r) => setTimeout(r, 20));
    const newer = await book(tr._id, { userType: 'foreign' });
    const got = await t.api('GET', `/api/bookings/progress/${customer.id}/${tr._id}`, { token: manager });
    expect(got.status).toBe(200);
    expect(got.body._id).toBe(newer._id);
    const put = await t.api('PUT', `/api/bookings/progress/${customer.id}/${tr._id}`, {
      token: manager,
      body: {
        sessionsCompleted: 2,
        sessionNotes: [
          { sessionNumber: 1, note: 'First', date: null },
          { sessionNumber: 2, note: 'Second' },
          { sessionNumber: 3, note: '' },
        ],
      },
    });
    expect(put.status).toBe(200);
    expect(put.body._id).toBe(newer._id);
    expect(put.body.sessionsCompleted).toBe(2);
    expect(put.body.sessionNotes.map((n: { note: string }) => n.note)).toEqual(['First', 'Second']);
    expect((await t.trpc(manager).bookings.get.query({ id: older._id })).sessionsCompleted).toBe(0);
    const bad = await t.api('PUT', `/api/bookings/progress/${customer.id}/${tr._id}`, {
      token: manager,
      body: { sessionsCompleted: 7 },
    });
    expect(bad.status).toBe(400);
    const none = await t.api('GET', `/api/bookings/progress/${customer.id}/00000000-0000-4000-8000-000000000000`, {
      token: manager,
    });
    expect(none.status).toBe(404);
  });
});

describe('cancel and delete', () => {
  it('cancel keeps the booking with status cancelled and refuses further changes; delete removes it', async () => {
    const tr = await treatment();
    const b = await book(tr._id);
    const res = await t.api('PUT', `/api/bookings/bookings/${b._id}/cancel`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ _id: b._id, status: 'cancelled' });
    expect(res.body.cancelledAt).not.toBeNull();
    expect(
      (await t.trpc(manager).bookings.list.query({ status: 'active', pageSize: 200 })).items.map((x) => x._id),
    ).not.toContain(b._id);
    expect((await t.trpc(manager).bookings.list.query({ status: 'cancelled' })).items.map((x) => x._id)).toContain(
      b._id,
    );
    await expect(
      t
        .trpc(admin)
        .bookings.setInstallmentPaid.mutate({ id: b._id, installmentId: b.installments[0]!._id, isPaid: true }),
    ).rejects.toMatchObject({
      data: { code: 'CONFLICT' },
    });
    const del = await t.api('DELETE', `/api/bookings/bookings/${b._id}`, { token: admin });
    expect(del.body).toEqual({ message: 'Booking deleted successfully!' });
    expect((await t.api('GET', `/api/bookings/booking/${b._id}`, { token: manager })).status).toBe(404);
    expect((await t.api('DELETE', `/api/bookings/bookings/${b._id}`, { token: admin })).status).toBe(404);
  });
});

describe('the bookings list', () => {
  it('searches customer email and treatment name case-insensitively, filters and pages on the server', async () => {
    const other = await makeUser(t.deps.db, { role: 'customer', email: 'ruwan.g@example.com' });
    const a = await treatment({ treatmentName: 'Shirodhara Unique' });
    const b = await treatment({ treatmentName: 'Abhyanga Unique' });
    const b1 = await book(a._id, { email: other.email });
    const b2 = await book(b._id, { email: other.email, userType: 'foreign' });
    const b3 = await book(b._id);
    const list = (input: Parameters<ReturnType<TestApp['trpc']>['bookings']['list']['query']>[0]) =>
      t.trpc(manager).bookings.list.query(input);

    const byEmail = await list({ search: 'RUWAN.G@' });
    expect(byEmail.items.map((x) => x._id).sort()).toEqual([b1._id, b2._id].sort());
    const byName = await list({ search: 'abhyanga unique' });
    expect(byName.items.map((x) => x._id).sort()).toEqual([b2._id, b3._id].sort());
    expect((await list({ search: 'abhyanga unique', userType: 'foreign' })).items.map((x) => x._id)).toEqual([b2._id]);
    const paged = await list({ search: 'unique', pageSize: 2 });
    expect(paged.total).toBe(3);
    expect(paged.items).toHaveLength(2);
    expect(paged.items[0]!._id).toBe(b3._id); // newest first

    await t
      .trpc(admin)
      .bookings.setInstallmentPaid.mutate({ id: b3._id, installmentId: b3.installments[0]!._id, isPaid: true });
    expect((await list({ search: 'unique', paymentStatus: 'paid' })).items.map((x) => x._id)).toEqual([b3._id]);
    expect((await list({ search: 'unique', paymentStatus: 'pending' })).total).toBe(2);
    expect((await list({ search: '%' })).total).toBe(0);

    // One customer's bookings, as their user screen lists them; not an id matches none.
    expect((await list({ userId: other.id })).items.map((x) => x._id).sort()).toEqual([b1._id, b2._id].sort());
    expect((await list({ userId: 'not-an-id' })).total).toBe(0);
  });

  it('sorts by each sortable column both ways on the server, and refuses any other column', async () => {
    const tag = `Sortable ${Date.now()}`;
    const zed = await makeUser(t.deps.db, { role: 'customer', email: `zed.${Date.now()}@example.com` });
    const abe = await makeUser(t.deps.db, { role: 'customer', email: `abe.${Date.now()}@example.com` });
    const x = await treatment({ treatmentName: `${tag} Beta` });
    const y = await treatment({ treatmentName: `${tag} Alpha` });
    const first = await book(x._id, { email: abe.email, paymentType: 'installment' });
    const second = await book(y._id, { email: zed.email });
    await t.trpc(admin).bookings.setInstallmentPaid.mutate({
      id: second._id,
      installmentId: second.installments[0]!._id,
      isPaid: true,
    });
    const ids = async (sortBy: string, sortDir: 'asc' | 'desc') =>
      (await t.trpc(manager).bookings.list.query({ search: tag, sortBy: sortBy as never, sortDir })).items.map(
        (b) => b._id,
      );

    expect(await ids('customer', 'asc')).toEqual([first._id, second._id]);
    expect(await ids('customer', 'desc')).toEqual([second._id, first._id]);
    expect(await ids('treatmentName', 'asc')).toEqual([second._id, first._id]);
    expect(await ids('treatmentName', 'desc')).toEqual([first._id, second._id]);
    // 'paid' before 'pending'.
    expect(await ids('paymentStatus', 'asc')).toEqual([second._id, first._id]);
    // 'full' before 'installment'.
    expect(await ids('paymentType', 'asc')).toEqual([second._id, first._id]);
    expect(await ids('createdAt', 'asc')).toEqual([first._id, second._id]);
    expect(await ids('createdAt', 'desc')).toEqual([second._id, first._id]);
    expect(await ids('bookedOn', 'asc')).toHaveLength(2);

    // A column outside the allow-list is a 400 naming the choices, never SQL.
    await expect(ids('deletedEmail', 'asc')).rejects.toThrow(
      'Sort by one of: customer, treatmentName, paymentStatus, paymentType, bookedOn, createdAt.',
    );
    await expect(ids('id; drop table users', 'asc')).rejects.toMatchObject({ data: { httpStatus: 400 } });
  });

  it('keeps a deleted customer findable by the kept email', async () => {
    const gone = await makeUser(t.deps.db, { role: 'customer', email: 'leaving@example.com' });
    const tr = await treatment();
    const b = await book(tr._id, { email: gone.email });
    const { detachUserFromBookings } = await import('../../src/server/domains/bookings/bookings.service');
    const { users } = await import('../../src/server/db/schema');
    await t.deps.db.transaction(async (tx) => {
      await detachUserFromBookings(tx, gone.id);
      await tx.delete(users).where(eq(users.id, gone.id));
    });
    const after = await t.trpc(manager).bookings.get.query({ id: b._id });
    expect(after.userId).toBeNull();
    expect(after).toMatchObject({ deletedEmail: 'leaving@example.com', deletedUsername: gone.username });
    expect((await t.trpc(manager).bookings.list.query({ search: 'LEAVING@' })).items.map((x) => x._id)).toEqual([
      b._id,
    ]);
  });
});
