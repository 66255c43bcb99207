import { randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/server/db/schema';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeBranch, makeUser, postCourse, postTreatment, type MadeUser } from '../helpers/factories';

/** The bookings, enrolments and payments lists find a person by full name, phone or NIC (docs/users.md). */
let t: TestApp;
let admin: MadeUser & { token: string };
let person: MadeUser;
let other: MadeUser;
const digits = String(randomInt(0, 10_000_000)).padStart(7, '0');
const phone = `+9477${digits}`;
const nic = `85${String(randomInt(1, 366)).padStart(3, '0')}${String(randomInt(0, 10_000)).padStart(4, '0')}V`;
const fullName = `Tharindu Wickramasinghe ${digits}`;

let ids: { booking: string; enrollment: string; payment: string };

beforeAll(async () => {
  t = await startTestApp();
  const branchId = (await makeBranch(t.deps.db)).id;
  admin = await t.userWithSession('admin', { branchId });
  person = await makeUser(t.deps.db, { role: 'student', branchId, fullName });
  other = await makeUser(t.deps.db, { role: 'student', branchId });
  await t.deps.db.update(users).set({ phone, nic }).where(eq(users.id, person.id));

  const treatment = await postTreatment(t, admin.token, {
    treatmentName: `Search Treatment ${digits}`,
    localPrice: 10000,
    foreignPrice: 100,
    maxSessions: 5,
    installments: 1,
    duration: { weeks: 0, days: 0, months: 0 },
  });
  const courseId = await postCourse(t, admin.token, 'Search', { totalFee: 30000, admissionFee: 3000, installments: 3 });
  const made = { booking: '', enrollment: '', payment: '' };
  for (const who of [person, other]) {
    const booking = await t.trpc(admin.token).bookings.book.mutate({
      email: who.email,
      treatmentId: treatment._id,
      userType: 'local',
      paymentType: 'full',
    });
    const enrolled = await t.api('POST', '/api/enrollments', {
      token: admin.token,
      body: { email: who.email, courseId, paymentType: 'installment' },
    });
    expect(enrolled.status).toBe(201);
    const paid = await t.api('POST', '/api/payments', {
      token: admin.token,
      body: { method: 'cash', enrollmentId: enrolled.body._id, amount: 1000 },
    });
    expect(paid.status).toBe(201);
    if (who === person)
      Object.assign(made, { booking: booking._id, enrollment: enrolled.body._id, payment: paid.body._id });
  }
  ids = made;
});
afterAll(() => t.close());

describe('finding a person on the lists', () => {
  const queries = [
    ['full name', () => fullName.toLowerCase()],
    ['part of the full name', () => `Wickramasinghe ${digits}`],
    ['phone in E.164', () => phone],
    ['phone in the local form', () => `077 ${digits.slice(0, 3)} ${digits.slice(3)}`],
    ['part of the phone, local', () => `077${digits}`.slice(0, 8)],
    ['NIC', () => nic.toLowerCase()],
  ] as const;

  it.each(queries)('finds bookings, enrolments and payments by %s', async (_what, query) => {
    const search = query();
    const trpc = t.trpc(admin.token);
    const bookings = await trpc.bookings.list.query({ search });
    const enrollments = await trpc.enrollments.list.query({ search });
    const payments = await trpc.payments.list.query({ search });
    // A short part of a phone may match other people elsewhere in the run; the person is among them.
    if (search.length < 9) {
      expect(bookings.items.map((b) => b._id)).toContain(ids.booking);
      expect(enrollments.items.map((e) => e._id)).toContain(ids.enrollment);
      expect(payments.items.map((p) => p._id)).toContain(ids.payment);
      return;
    }
    expect(bookings.items.map((b) => b._id)).toEqual([ids.booking]);
    expect(enrollments.items.map((e) => e._id)).toEqual([ids.enrollment]);
    expect(payments.items.map((p) => p._id)).toEqual([ids.payment]);
  });

  it('finds nobody by a phone or NIC that is not theirs', async () => {
    const trpc = t.trpc(admin.token);
    for (const search of ['+94112345678', '850011234V']) {
      expect((await trpc.bookings.list.query({ search })).items.map((b) => b._id)).not.toContain(ids.booking);
      expect((await trpc.enrollments.list.query({ search })).items.map((e) => e._id)).not.toContain(ids.enrollment);
      expect((await trpc.payments.list.query({ search })).items.map((p) => p._id)).not.toContain(ids.payment);
    }
  });
});
