import { createTRPCClient, httpLink } from '@trpc/client';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, courses, enrollments, treatmentBookings, treatments } from '../../src/server/db/schema';
import type { AppRouter } from '../../src/server/trpc/root';
import { formatMoney } from '../../src/shared/format';
import type { AuditChange } from '../../src/shared/audit';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeBranch, makeUser, type MadeUser } from '../helpers/factories';

/**
 * docs/audit.md#what-is-recorded: enrolments, their installments and admission fee, bookings,
 * their sessions and notes, payments, voids and receipts each write exactly one entry with the
 * change, none when the change is refused, and the same entry whichever way (REST or tRPC) it
 * came in. The server's close scans every entry for secrets (tests/helpers/audit-secrets.ts).
 */

const UA = 'audit-records-test/1.0';
let t: TestApp;
let admin: MadeUser & { token: string };
let student: MadeUser;
let customer: MadeUser;
let courseId = '';
let treatmentId = '';

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.userWithSession('admin', { username: 'auditadmin' });
  const branch = await makeBranch(t.deps.db, { name: 'Records Branch' });
  student = await makeUser(t.deps.db, { role: 'student', username: 'student1', branchId: branch.id });
  customer = await makeUser(t.deps.db, { role: 'customer', username: 'customer1', branchId: branch.id });
  const [course] = await t.deps.db
    .insert(courses)
    .values({
      courseName: 'Yoga Instruction',
      duration: '3 months',
      totalFee: 300000,
      installments: 3,
      category: 'Wellness',
      admissionFee: 50000,
    })
    .returning();
  courseId = course!.id;
  const [treatment] = await t.deps.db
    .insert(treatments)
    .values({ treatmentName: 'Massage', localPrice: 200000, foreignPrice: 10000, maxSessions: 4, installments: 2 })
    .returning();
  treatmentId = treatment!.id;
});
afterAll(() => t.close());

const api = (method: string, path: string, body?: unknown) =>
  t.api(method, path, { token: admin.token, body, headers: { 'user-agent': UA } });
/** A tRPC client with the same user agent as the REST calls (the helper's own sends node's). */
const trpc = () =>
  createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: `${t.baseUrl}/trpc`,
        headers: () => ({ 'user-agent': UA, authorization: `Bearer ${admin.token}` }),
      }),
    ],
  });

type Row = typeof auditLog.$inferSelect;

async function mark(): Promise<Set<string>> {
  return new Set((await t.deps.db.select({ id: auditLog.id }).from(auditLog)).map((r) => r.id));
}
async function since(seen: Set<string>): Promise<Row[]> {
  const rows = await t.deps.db.select().from(auditLog).orderBy(asc(auditLog.createdAt), asc(auditLog.id));
  return rows.filter((r) => !seen.has(r.id));
}
/** Acts and answers the one entry the act wrote (fails on none or several). */
async function oneEntry(act: () => Promise<unknown>, label?: string): Promise<Row> {
  const seen = await mark();
  const answer = await act();
  const rows = await since(seen);
  // With a label, a failure also shows what the call answered.
  const what = label
    ? `${label}: ${JSON.stringify((answer as { body?: unknown } | undefined)?.body ?? null)}`
    : undefined;
  expect(
    rows.map((r) => `${r.action} ${r.entityType}: ${r.summary}`),
    what,
  ).toHaveLength(1);
  return rows[0]!;
}
/** Acts (a refused change) and checks that nothing was written. */
async function noEntry(act: () => Promise<unknown>) {
  const seen = await mark();
  await act();
  expect((await since(seen)).map((r) => r.summary)).toEqual([]);
}
const change = (row: Row, field: string) => row.changes.find((c: AuditChange) => c.field === field);
const rs = (n: number) => formatMoney(n, 'LKR');

async function enrol(paymentType: 'full' | 'installment' = 'installment') {
  const res = await api('POST', '/api/enrollments', { userId: student.id, courseId, paymentType });
  expect(res.status).toBe(201);
  return res.body as { _id: string; installments: Array<{ _id: string }> };
}

describe('enrolments', () => {
  it('records the create, plan change, toggles, completion and delete once each, and nothing refused', async () => {
    let e = { _id: '', installments: [] as Array<{ _id: string }> };
    const created = await oneEntry(async () => (e = await enrol()));
    expect(created).toMatchObject({
      action: 'create',
      entityType: 'enrollment',
      entityId: e._id,
      parentType: null,
      summary: 'Enrolled student1 in Yoga Instruction (3 installments)',
      actorId: admin.id,
      actorUsername: 'auditadmin',
      userAgent: UA,
    });
    expect(change(created, 'student')).toEqual({ field: 'student', before: null, after: 'student1' });
    expect(change(created, 'totalFee')).toEqual({ field: 'totalFee', before: null, after: 3000 });
    expect(change(created, 'installments')).toEqual({ field: 'installments', before: null, after: 3 });

    // A second active enrolment in the same course is refused (409): nothing recorded.
    await noEntry(async () =>
      expect((await api('POST', '/api/enrollments', { userId: student.id, courseId })).status).toBe(409),
    );

    const plan = await oneEntry(() => trpc().enrollments.update.mutate({ id: e._id, paymentType: 'full' }));
    expect(plan).toMatchObject({
      action: 'update',
      entityType: 'enrollment',
      summary: 'Changed the payment plan of Yoga Instruction for student1 from 3 installments to full payment',
      changes: [
        { field: 'paymentType', before: 'installment', after: 'full' },
        { field: 'installments', before: 3, after: 1 },
      ],
    });
    // The same plan again changes nothing.
    await noEntry(() => trpc().enrollments.update.mutate({ id: e._id, paymentType: 'full' }));
    await oneEntry(() => api('PUT', `/api/enrollments/${e._id}`, { paymentType: 'installment' }));
    e = (await api('GET', `/api/enrollments/${e._id}`)).body;

    const fee = await oneEntry(() => api('PUT', `/api/enrollments/${e._id}`, { admissionFeePaid: true }));
    expect(fee).toMatchObject({
      action: 'mark_paid',
      entityType: 'admission_fee',
      entityId: e._id,
      parentType: 'enrollment',
      parentId: e._id,
      summary: 'Marked the admission fee of Yoga Instruction for student1 as paid',
    });
    expect(change(fee, 'isPaid')).toEqual({ field: 'isPaid', before: false, after: true });
    expect(change(fee, 'amountPaid')).toEqual({ field: 'amountPaid', before: 0, after: 500 });
    expect(change(fee, 'receipt')?.after).toMatch(/^[A-Z0-9]+-\d{4}-\d+$/);

    const second = e.installments[1]!._id;
    const paid = await oneEntry(() =>
      api('POST', `/api/enrollments/${e._id}/pay-installment`, { installmentId: second, method: 'cash' }),
    );
    expect(paid).toMatchObject({
      action: 'mark_paid',
      entityType: 'installment',
      entityId: second,
      parentType: 'enrollment',
      parentId: e._id,
      summary: 'Marked installment 2 of Yoga Instruction for student1 as paid',
    });
    expect(change(paid, 'amountPaid')).toEqual({ field: 'amountPaid', before: 0, after: 1000 });
    const receipt = change(paid, 'receipt')?.after;
    // Paid again: already paid, nothing changes, nothing is recorded.
    await noEntry(() => trpc().enrollments.payInstallment.mutate({ id: e._id, installmentId: second }));

    const unpaid = await oneEntry(() =>
      trpc().enrollments.payInstallment.mutate({ id: e._id, installmentIndex: 1, isPaid: false }),
    );
    expect(unpaid).toMatchObject({
      action: 'mark_unpaid',
      summary: 'Marked installment 2 of Yoga Instruction for student1 as unpaid',
      changes: [
        { field: 'isPaid', before: true, after: false },
        { field: 'amountPaid', before: 1000, after: 0 },
        { field: 'voidedReceipts', before: receipt, after: null },
      ],
    });
    // An installment that does not exist (404) and completing with money owed (409): nothing.
    await noEntry(async () =>
      expect(
        (await api('POST', `/api/enrollments/${e._id}/pay-installment`, { installmentIndex: 9, isPaid: true })).status,
      ).toBe(404),
    );
    await noEntry(async () => expect((await api('PUT', `/api/enrollments/${e._id}/complete`)).status).toBe(409));

    for (const i of [0, 1, 2])
      await trpc().enrollments.payInstallment.mutate({ id: e._id, installmentIndex: i, isPaid: true });
    const done = await oneEntry(() => api('PUT', `/api/enrollments/${e._id}/complete`));
    expect(done).toMatchObject({
      action: 'complete',
      entityType: 'enrollment',
      summary: 'Completed Yoga Instruction for student1',
    });
    expect(change(done, 'status')).toEqual({ field: 'status', before: 'active', after: 'completed' });
    await noEntry(() => api('PUT', `/api/enrollments/${e._id}/complete`));
    // A completed enrolment's payments are locked (409).
    await noEntry(async () =>
      expect(
        (await api('POST', `/api/enrollments/${e._id}/pay-installment`, { installmentIndex: 0, isPaid: false })).status,
      ).toBe(409),
    );

    // The wrong student named as the guard (400): nothing.
    await noEntry(async () =>
      expect((await api('DELETE', `/api/enrollments/${e._id}`, { userId: customer.id })).status).toBe(400),
    );
    const deleted = await oneEntry(() => trpc().enrollments.delete.mutate({ id: e._id, userId: student.id }));
    expect(deleted).toMatchObject({
      action: 'delete',
      entityType: 'enrollment',
      entityId: e._id,
      summary: 'Deleted the enrolment of student1 in Yoga Instruction',
    });
    expect(change(deleted, 'course')).toEqual({ field: 'course', before: 'Yoga Instruction', after: null });
    expect(change(deleted, 'amountPaid')).toEqual({ field: 'amountPaid', before: 3500, after: null });

    // Its History keeps the parts' entries after it is gone, newest first; the student's holds none of them.
    const history = await trpc().audit.forEntity.query({ entityType: 'enrollment', entityId: e._id, limit: 100 });
    const kinds = history.items.map((i) => `${i.action} ${i.entityType}`);
    expect(kinds[0]).toBe('delete enrollment');
    expect(kinds.at(-1)).toBe('create enrollment');
    expect(kinds).toContain('mark_paid admission_fee');
    expect(kinds).toContain('mark_unpaid installment');
    expect(kinds).toContain('complete enrollment');
    const ofStudent = await trpc().audit.forEntity.query({ entityType: 'user', entityId: student.id });
    expect(ofStudent.items).toEqual([]);
  });
});

describe('bookings', () => {
  it('records the booking, sessions, notes, toggles, cancel and delete once each, and nothing refused', async () => {
    let b = { _id: '', installments: [] as Array<{ _id: string }> };
    const booked = await oneEntry(async () => {
      b = await trpc().bookings.book.mutate({
        email: customer.email,
        treatmentId,
        userType: 'local',
        paymentType: 'installment',
      });
    });
    expect(booked).toMatchObject({
      action: 'create',
      entityType: 'booking',
      entityId: b._id,
      summary: 'Booked Massage for customer1 (local, installments)',
    });
    expect(change(booked, 'price')).toEqual({ field: 'price', before: null, after: 2000 });

    const sessions = await oneEntry(() => trpc().bookings.setSessions.mutate({ id: b._id, sessionsCompleted: 2 }));
    expect(sessions).toMatchObject({
      action: 'update',
      entityType: 'session',
      entityId: b._id,
      parentType: 'booking',
      parentId: b._id,
      summary: 'Set the completed sessions of Massage for customer1 from 0 to 2 (of 4)',
      changes: [{ field: 'sessionsCompleted', before: 0, after: 2 }],
    });
    // Out of range (400) and the same count again: nothing.
    await noEntry(async () =>
      expect(
        (await api('PUT', `/api/bookings/progress/${customer.id}/${treatmentId}`, { sessionsCompleted: 9 })).status,
      ).toBe(400),
    );
    await noEntry(() => trpc().bookings.setSessions.mutate({ id: b._id, sessionsCompleted: 2 }));

    const wrote = await oneEntry(() =>
      trpc().bookings.saveNote.mutate({ id: b._id, sessionNumber: 2, note: 'Lower back, light pressure' }),
    );
    expect(wrote).toMatchObject({
      action: 'create',
      entityType: 'session_note',
      entityId: `${b._id}/2`,
      parentType: 'booking',
      summary: 'Wrote the note of session 2 of Massage for customer1',
    });
    expect(change(wrote, 'note')).toEqual({ field: 'note', before: null, after: 'Lower back, light pressure' });
    // A note for a session not yet completed (400): nothing.
    await noEntry(async () =>
      expect(
        (
          await api('PUT', `/api/bookings/progress/${customer.id}/${treatmentId}`, {
            sessionNotes: [{ sessionNumber: 3, note: 'Too early' }],
          })
        ).status,
      ).toBe(400),
    );
    // The whole list sent back with one note edited: one entry, for that note.
    const edited = await oneEntry(() =>
      api('PUT', `/api/bookings/progress/${customer.id}/${treatmentId}`, {
        sessionNotes: [
          { sessionNumber: 1, note: '' },
          { sessionNumber: 2, note: 'Lower back, firm pressure' },
        ],
      }),
    );
    expect(edited).toMatchObject({
      action: 'update',
      summary: 'Edited the note of session 2 of Massage for customer1',
      changes: [{ field: 'note', before: 'Lower back, light pressure', after: 'Lower back, firm pressure' }],
    });
    const cleared = await oneEntry(() => trpc().bookings.saveNote.mutate({ id: b._id, sessionNumber: 2, note: '' }));
    expect(cleared).toMatchObject({
      action: 'delete',
      summary: 'Cleared the note of session 2 of Massage for customer1',
    });
    expect(change(cleared, 'note')).toEqual({ field: 'note', before: 'Lower back, firm pressure', after: null });

    const first = b.installments[0]!._id;
    const paid = await oneEntry(() =>
      trpc().bookings.setInstallmentPaid.mutate({ id: b._id, installmentId: first, isPaid: true, method: 'card' }),
    );
    expect(paid).toMatchObject({
      action: 'mark_paid',
      entityType: 'booking_installment',
      entityId: first,
      parentType: 'booking',
      parentId: b._id,
      summary: 'Marked installment 1 of Massage for customer1 as paid',
    });
    expect(change(paid, 'amountPaid')).toEqual({ field: 'amountPaid', before: 0, after: 1000 });

    const all = await oneEntry(() => api('PUT', `/api/bookings/payment/${b._id}`, { paymentStatus: 'paid' }));
    expect(all).toMatchObject({
      action: 'mark_paid',
      entityType: 'booking',
      entityId: b._id,
      summary: 'Marked installment 2 of Massage for customer1 as paid',
    });
    expect(change(all, 'installment 2.isPaid')).toEqual({ field: 'installment 2.isPaid', before: false, after: true });
    // One { isPaid } per installment is required (400): nothing.
    await noEntry(async () =>
      expect((await api('PUT', `/api/bookings/payment/${b._id}`, { installments: [{ isPaid: false }] })).status).toBe(
        400,
      ),
    );
    const none = await oneEntry(() => api('PUT', `/api/bookings/payment/${b._id}`, { paymentStatus: 'pending' }));
    expect(none).toMatchObject({
      action: 'mark_unpaid',
      summary: 'Marked installments 1 and 2 of Massage for customer1 as unpaid',
    });

    const cancelled = await oneEntry(() => api('PUT', `/api/bookings/bookings/${b._id}/cancel`));
    expect(cancelled).toMatchObject({
      action: 'cancel',
      entityType: 'booking',
      summary: 'Cancelled the booking of Massage for customer1',
    });
    expect(change(cancelled, 'status')).toEqual({ field: 'status', before: 'active', after: 'cancelled' });
    await noEntry(() => trpc().bookings.cancel.mutate({ id: b._id }));
    // A cancelled booking cannot change (409): nothing.
    await noEntry(async () =>
      expect(
        (await api('PUT', `/api/bookings/progress/${customer.id}/${treatmentId}`, { sessionsCompleted: 3 })).status,
      ).toBe(409),
    );

    const deleted = await oneEntry(() => trpc().bookings.delete.mutate({ id: b._id }));
    expect(deleted).toMatchObject({
      action: 'delete',
      entityType: 'booking',
      entityId: b._id,
      summary: 'Deleted the booking of Massage for customer1',
    });
    expect(change(deleted, 'sessionsCompleted')).toEqual({ field: 'sessionsCompleted', before: 2, after: null });
    await noEntry(async () => expect((await api('DELETE', `/api/bookings/bookings/${b._id}`)).status).toBe(404));

    const history = await trpc().audit.forEntity.query({ entityType: 'booking', entityId: b._id, limit: 100 });
    expect(history.items.map((i) => `${i.action} ${i.entityType}`)).toEqual([
      'delete booking',
      'cancel booking',
      'mark_unpaid booking',
      'mark_paid booking',
      'mark_paid booking_installment',
      'delete session_note',
      'update session_note',
      'create session_note',
      'update session',
      'create booking',
    ]);
  });
});

describe('the unpaid toggle of a part-paid installment', () => {
  it('is one entry naming every receipt it voided and nothing left paid', async () => {
    const payer = await makeUser(t.deps.db, { role: 'customer', username: 'customer2' });
    const b = await trpc().bookings.book.mutate({
      email: payer.email,
      treatmentId,
      userType: 'local',
      paymentType: 'installment',
    });
    const receipts: string[] = [];
    for (const amount of [300, 200])
      receipts.push((await trpc().payments.record.mutate({ bookingId: b._id, amount, method: 'cash' })).receiptNumber);
    const first = b.installments[0]!._id;
    const unpaid = await oneEntry(() =>
      trpc().bookings.setInstallmentPaid.mutate({ id: b._id, installmentId: first, isPaid: false }),
    );
    expect(unpaid).toMatchObject({
      action: 'mark_unpaid',
      entityType: 'booking_installment',
      entityId: first,
      parentType: 'booking',
      parentId: b._id,
      summary: 'Marked installment 1 of Massage for customer2 as unpaid',
    });
    expect(change(unpaid, 'isPaid')).toEqual({ field: 'isPaid', before: false, after: false });
    expect(change(unpaid, 'amountPaid')).toEqual({ field: 'amountPaid', before: 500, after: 0 });
    const voided = change(unpaid, 'voidedReceipts');
    const named = voided?.before;
    expect(typeof named === 'string' ? named.split(', ').sort() : named).toEqual([...receipts].sort());
    expect(voided?.after).toBeNull();
    const after = await trpc().bookings.get.query({ id: b._id });
    expect(after.installments[0]).toMatchObject({ isPaid: false, amountPaid: 0 });
  });
});

describe('payments', () => {
  it('records a payment, its receipt downloads and e-mails and its void once each, and nothing refused', async () => {
    const e = await enrol('full');
    const recorded = await oneEntry(async () => {
      const res = await api('POST', '/api/payments', {
        enrollmentId: e._id,
        amount: 1200,
        method: 'bank_transfer',
        reference: 'TX-88',
      });
      expect(res.status).toBe(201);
    });
    const [payment] = (await api('GET', `/api/enrollments/${e._id}/payments`)).body as Array<{
      _id: string;
      receiptNumber: string;
    }>;
    expect(recorded).toMatchObject({
      action: 'create',
      entityType: 'payment',
      entityId: payment!._id,
      parentType: 'enrollment',
      parentId: e._id,
      summary: `Recorded payment ${payment!.receiptNumber} of ${rs(1200)} (Bank transfer) for Yoga Instruction for student1`,
    });
    expect(change(recorded, 'amount')).toEqual({ field: 'amount', before: null, after: 1200 });
    expect(change(recorded, 'allocations')).toEqual({
      field: 'allocations',
      before: null,
      after: ['the admission fee: 500', 'installment 1: 700'],
    });
    // More than is owed (409) and a future date (400): nothing.
    await noEntry(async () =>
      expect((await api('POST', '/api/payments', { enrollmentId: e._id, amount: 999999, method: 'cash' })).status).toBe(
        409,
      ),
    );
    await noEntry(async () =>
      expect(
        (
          await api('POST', '/api/payments', {
            enrollmentId: e._id,
            amount: 1,
            method: 'cash',
            receivedAt: '2999-01-01T00:00:00Z',
          })
        ).status,
      ).toBe(400),
    );

    const download = await oneEntry(async () =>
      expect((await api('GET', `/api/payments/${payment!._id}/receipt`)).status).toBe(200),
    );
    expect(download).toMatchObject({
      action: 'download',
      entityType: 'receipt',
      entityId: payment!._id,
      parentType: 'enrollment',
      summary: `Downloaded receipt ${payment!.receiptNumber} of student1 for Yoga Instruction`,
    });
    const emailed = await oneEntry(() => trpc().payments.emailReceipt.mutate({ id: payment!._id }));
    expect(emailed).toMatchObject({
      action: 'email',
      entityType: 'receipt',
      summary: `E-mailed receipt ${payment!.receiptNumber} to ${student.email}`,
    });

    const voided = await oneEntry(() => trpc().payments.void.mutate({ id: payment!._id, reason: 'Wrong amount' }));
    expect(voided).toMatchObject({
      action: 'void',
      entityType: 'payment',
      entityId: payment!._id,
      parentType: 'enrollment',
      parentId: e._id,
      summary: `Voided receipt ${payment!.receiptNumber} (${rs(1200)}) of student1 for Yoga Instruction: Wrong amount`,
      changes: [
        { field: 'status', before: 'valid', after: 'void' },
        { field: 'voidReason', before: null, after: 'Wrong amount' },
      ],
    });
    await noEntry(async () =>
      expect((await api('POST', `/api/payments/${payment!._id}/void`, { reason: 'Again' })).status).toBe(409),
    );
    const kinds = (await trpc().audit.forEntity.query({ entityType: 'enrollment', entityId: e._id })).items.map(
      (i) => `${i.action} ${i.entityType}`,
    );
    expect(kinds).toEqual(['void payment', 'email receipt', 'download receipt', 'create payment', 'create enrollment']);
    await t.deps.db.delete(enrollments).where(eq(enrollments.id, e._id));
  });
});

describe('the same change through REST and tRPC', () => {
  const comparable = (r: Row) => {
    const { id: _id, createdAt: _at, requestId: _req, ...rest } = r;
    // A paid toggle writes a new receipt each time: its number is the one part that must differ.
    return { ...rest, changes: rest.changes.map((c) => (c.field === 'receipt' ? { ...c, after: 'new' } : c)) };
  };

  it('writes entries identical apart from the request id', async () => {
    const e = await enrol('installment');
    const b = await trpc().bookings.book.mutate({
      email: customer.email,
      treatmentId,
      userType: 'foreign',
      paymentType: 'full',
    });
    const progress = `/api/bookings/progress/${customer.id}/${treatmentId}`;
    await trpc().bookings.setSessions.mutate({ id: b._id, sessionsCompleted: 1 });
    await trpc().payments.record.mutate({ bookingId: b._id, amount: 10, method: 'cash' });
    const [payment] = await trpc().payments.ofBooking.query({ id: b._id });
    const cases: Array<{
      name: string;
      rest: () => Promise<unknown>;
      trpc: () => Promise<unknown>;
      undo: () => Promise<unknown>;
    }> = [
      {
        name: 'plan change',
        rest: () => api('PUT', `/api/enrollments/${e._id}`, { paymentType: 'full' }),
        trpc: () => trpc().enrollments.update.mutate({ id: e._id, paymentType: 'full' }),
        undo: () => trpc().enrollments.update.mutate({ id: e._id, paymentType: 'installment' }),
      },
      {
        name: 'installment paid',
        rest: () => api('POST', `/api/enrollments/${e._id}/pay-installment`, { installmentIndex: 0, isPaid: true }),
        trpc: () => trpc().enrollments.payInstallment.mutate({ id: e._id, installmentIndex: 0, isPaid: true }),
        undo: () => trpc().enrollments.payInstallment.mutate({ id: e._id, installmentIndex: 0, isPaid: false }),
      },
      {
        name: 'sessions',
        rest: () => api('PUT', progress, { sessionsCompleted: 2 }),
        trpc: () => trpc().bookings.setSessions.mutate({ id: b._id, sessionsCompleted: 2 }),
        undo: () => trpc().bookings.setSessions.mutate({ id: b._id, sessionsCompleted: 1 }),
      },
      {
        name: 'note',
        rest: () =>
          api('PUT', progress, {
            sessionNotes: [{ sessionNumber: 1, note: 'Calm', date: '2026-01-05T10:00:00.000Z' }],
          }),
        trpc: () =>
          trpc().bookings.saveNote.mutate({
            id: b._id,
            sessionNumber: 1,
            note: 'Calm',
            date: '2026-01-05T10:00:00.000Z',
          }),
        undo: () => trpc().bookings.saveNote.mutate({ id: b._id, sessionNumber: 1, note: '' }),
      },
      {
        name: 'receipt e-mail',
        rest: () => api('POST', `/api/payments/${payment!._id}/email`),
        trpc: () => trpc().payments.emailReceipt.mutate({ id: payment!._id }),
        undo: async () => {},
      },
      {
        name: 'cancel',
        rest: () => api('PUT', `/api/bookings/bookings/${b._id}/cancel`),
        trpc: () => trpc().bookings.cancel.mutate({ id: b._id }),
        undo: () =>
          t.deps.db
            .update(treatmentBookings)
            .set({ status: 'active', cancelledAt: null })
            .where(eq(treatmentBookings.id, b._id)),
      },
    ];
    for (const c of cases) {
      const viaRest = await oneEntry(c.rest, `${c.name} (REST)`);
      await c.undo();
      const viaTrpc = await oneEntry(c.trpc, `${c.name} (tRPC)`);
      expect(viaTrpc.requestId, c.name).not.toBe(viaRest.requestId);
      expect(viaTrpc.requestId, c.name).toMatch(/^req-/);
      const [restSide, trpcSide] = [comparable(viaRest), comparable(viaTrpc)];
      if (c.name === 'cancel') {
        // The cancellation time is the moment of each call.
        for (const side of [restSide, trpcSide]) side.changes = side.changes.filter((x) => x.field !== 'cancelledAt');
      }
      expect(trpcSide, c.name).toEqual(restSide);
      expect(viaRest.changes.length, c.name).toBeGreaterThan(0);
    }
  });
});
