import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrollmentInstallments, enrollments, users } from '../../src/server/db/schema';
import { addMonthsClamped, todayIn } from '../../src/server/domains/enrollments/dates';
import { detachUserFromEnrollments } from '../../src/server/domains/enrollments/enrollments.service';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeUser } from '../helpers/factories';

let t: TestApp;
let admin: { token: string; id: string };
let manager: { token: string };
let today: string;

async function makeCourse(o: Record<string, unknown> = {}) {
  const res = await t.api('POST', '/api/course', {
    token: admin.token,
    body: {
      courseName: `Course ${Math.random().toString(36).slice(2, 8)}`,
      duration: '3 months',
      totalFee: 100000,
      installments: 3,
      category: 'Nursing',
      admissionFee: 2500,
      ...o,
    },
  });
  expect(res.status).toBe(201);
  return res.body as { _id: string; courseName: string; totalFee: number };
}

async function enrol(body: Record<string, unknown>, token = admin.token) {
  return t.api('POST', '/api/enrollments', { token, body });
}

/** Moves an enrolment's schedule into the past so its first installments are overdue. */
async function backdate(installmentIds: string[], dueDate: string) {
  for (const id of installmentIds)
    await t.deps.db.update(enrollmentInstallments).set({ dueDate }).where(eq(enrollmentInstallments.id, id));
}

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.userWithSession('admin');
  manager = await t.userWithSession('manager');
  today = todayIn(t.deps.config.TIME_ZONE);
});
afterAll(() => t.close());

describe('enrolling', () => {
  it('enrols by email typed in another case with spaces, full payment by default: one installment due today', async () => {
    const student = await makeUser(t.deps.db, { role: 'student', email: 'nimal.perera@example.com' });
    const course = await makeCourse({ totalFee: 45000.5, admissionFee: 1500 });
    const res = await enrol({ email: '  Nimal.PERERA@Example.com ', courseId: course._id });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      _id: expect.any(String),
      userId: { _id: student.id, username: student.username, email: student.email },
      courseId: { _id: course._id, courseName: course.courseName, totalFee: 45000.5 },
      paymentType: 'full',
      admissionFeePaid: false,
      admissionFee: 1500,
      totalFee: 45000.5,
      status: 'Active',
      displayStatus: 'Pending Payment',
      deletedUsername: null,
      deletedEmail: null,
      deletedCourseName: null,
      createdAt: expect.any(String),
    });
    expect(res.body.installments).toEqual([
      {
        _id: expect.any(String),
        amount: 45000.5,
        dueDate: today,
        isPaid: false,
        paidAt: null,
        isOverdue: false,
        amountPaid: 0,
      },
    ]);
  });

  it('splits an uneven fee into installments that sum exactly, due monthly', async () => {
    const student = await makeUser(t.deps.db, { role: 'student' });
    const course = await makeCourse({ totalFee: 100000, installments: 3 });
    const res = await enrol({ userId: student.id, courseId: course._id, paymentType: 'installment', currency: 'LKR' });
    expect(res.status).toBe(201);
    const inst = res.body.installments as Array<{ amount: number; dueDate: string }>;
    expect(inst.map((i) => i.amount)).toEqual([33333.33, 33333.33, 33333.34]);
    expect(Math.round(inst.reduce((s, i) => s + i.amount * 100, 0))).toBe(10000000);
    expect(inst.map((i) => i.dueDate)).toEqual([today, addMonthsClamped(today, 1), addMonthsClamped(today, 2)]);

    const odd = await makeCourse({ totalFee: 1000.01, installments: 7 });
    const s2 = await makeUser(t.deps.db, { role: 'student' });
    const r2 = await enrol({ userId: s2.id, courseId: odd._id, paymentType: 'installment' });
    const cents = (r2.body.installments as Array<{ amount: number }>).map((i) => Math.round(i.amount * 100));
    expect(cents.reduce((a, b) => a + b, 0)).toBe(100001);
    expect(cents.slice(0, 6).every((c) => c === 14285)).toBe(true);
  });

  it('snapshots the fees: a later course fee change does not rewrite the enrolment', async () => {
    const student = await makeUser(t.deps.db, { role: 'student' });
    const course = await makeCourse({ totalFee: 50000, admissionFee: 3000 });
    const e = (await enrol({ userId: student.id, courseId: course._id })).body;
    await t.api('PUT', `/api/course/${course._id}`, {
      token: admin.token,
      body: { totalFee: 90000, admissionFee: 9000 },
    });
    const after = await t.api('GET', `/api/enrollments/${e._id}`, { token: admin.token });
    expect(after.body).toMatchObject({ totalFee: 50000, admissionFee: 3000, courseId: { totalFee: 90000 } });
    expect(after.body.installments[0].amount).toBe(50000);
  });

  it('refuses a second open enrolment in the same course, also when two arrive at once', async () => {
    const student = await makeUser(t.deps.db, { role: 'student' });
    const course = await makeCourse();
    expect((await enrol({ userId: student.id, courseId: course._id })).status).toBe(201);
    const again = await enrol({ email: student.email.toUpperCase(), courseId: course._id, paymentType: 'installment' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('User is already enrolled in this course');

    const other = await makeUser(t.deps.db, { role: 'student' });
    const race = await Promise.all(Array.from({ length: 4 }, () => enrol({ userId: other.id, courseId: course._id })));
    expect(race.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    expect(
      race.filter((r) => r.status === 409).every((r) => r.body.message === 'User is already enrolled in this course'),
    ).toBe(true);
  });

  it('answers the documented messages for missing and unknown input', async () => {
    const course = await makeCourse();
    for (const body of [{ courseId: course._id }, { email: 'a@b.c' }, { email: '   ', courseId: course._id }, {}]) {
      const res = await enrol(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toBe('Please enter a valid email and select a course.');
    }
    const unknown = await enrol({ email: 'nobody@example.com', courseId: course._id });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('User not found. Please check the email.');
    const student = await makeUser(t.deps.db, { role: 'student' });
    const noCourse = await enrol({ userId: student.id, courseId: '00000000-0000-4000-8000-000000000000' });
    expect(noCourse.status).toBe(404);
    expect(noCourse.body.message).toBe('Course not found.');
    const badType = await enrol({ userId: student.id, courseId: course._id, paymentType: 'weekly' });
    expect(badType.status).toBe(400);
  });
});

describe('payments and completion', () => {
  it('marks installments paid and unpaid by id or index, idempotently, moving the display status', async () => {
    const student = await makeUser(t.deps.db, { role: 'student' });
    const course = await makeCourse({ totalFee: 30000, installments: 2 });
    const e = (await enrol({ userId: student.id, courseId: course._id, paymentType: 'installment' })).body;
    const [first, second] = e.installments as Array<{ _id: string }>;

    const paid = await t.api('POST', `/api/enrollments/${e._id}/pay-installment`, {
      token: admin.token,
      body: { installmentId: first!._id },
    });
    expect(paid.status).toBe(200);
    expect(paid.body.installments[0]).toMatchObject({ isPaid: true, paidAt: expect.any(String) });
    expect(paid.body.displayStatus).toBe('Active (Partial)');

    const again = await t.api('POST', `/api/enrollments/${e._id}/pay-installment`, {
      token: admin.token,
      body: { installmentId: first!._id },
    });
    expect(again.body.installments[0].paidAt).toBe(paid.body.installments[0].paidAt);

    const byIndex = await t.api('POST', `/api/enrollments/${e._id}/pay-installment`, {
      token: admin.token,
      body: { installmentIndex: 1, isPaid: true },
    });
    expect(byIndex.body.installments[1]).toMatchObject({ _id: second!._id, isPaid: true });
    expect(byIndex.body.displayStatus).toBe('Active (Partial)');

    const unpaid = await t
      .trpc(admin.token)
      .enrollments.payInstallment.mutate({ id: e._id, installmentIndex: 0, isPaid: false });
    expect(unpaid.installments[0]).toMatchObject({ isPaid: false, paidAt: null });

    const missing = await t.api('POST', `/api/enrollments/${e._id}/pay-installment`, {
      token: admin.token,
      body: { installmentIndex: 5, isPaid: true },
    });
    expect(missing.status).toBe(404);
    const noTarget = await t.api('POST', `/api/enrollments/${e._id}/pay-installment`, { token: admin.token, body: {} });
    expect(noTarget.status).toBe(400);
    const noFlag = await t.api('POST', `/api/enrollments/${e._id}/pay-installment`, {
      token: admin.token,
      body: { installmentIndex: 0 },
    });
    expect(noFlag.status).toBe(400);
  });

  it('toggles the admission fee and completes only when everything is paid', async () => {
    const student = await makeUser(t.deps.db, { role: 'student' });
    const course = await makeCourse({ totalFee: 20000, installments: 2, admissionFee: 1000 });
    const e = (await enrol({ userId: student.id, courseId: course._id, paymentType: 'installment' })).body;

    const refused = await t.api('PUT', `/api/enrollments/${e._id}/complete`, { token: admin.token });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      'Cannot complete this enrollment: the admission fee is unpaid and 2 installments are unpaid.',
    );

    const fee = await t.api('POST', `/api/enrollments/${e._id}/pay-admission-fee`, { token: admin.token });
    expect(fee.status).toBe(200);
    expect(fee.body).toMatchObject({ admissionFeePaid: true, displayStatus: 'Active (Partial)' });
    const undo = await t.api('POST', `/api/enrollments/${e._id}/pay-admission-fee`, {
      token: admin.token,
      body: { isPaid: false },
    });
    expect(undo.body).toMatchObject({ admissionFeePaid: false, displayStatus: 'Pending Payment' });
    await t.api('POST', `/api/enrollments/${e._id}/pay-admission-fee`, { token: admin.token, body: { isPaid: true } });

    await t.api('POST', `/api/enrollments/${e._id}/pay-installment`, {
      token: admin.token,
      body: { installmentIndex: 0, isPaid: true },
    });
    const oneLeft = await t.api('PUT', `/api/enrollments/${e._id}/complete`, { token: admin.token });
    expect(oneLeft.status).toBe(409);
    expect(oneLeft.body.message).toBe('Cannot complete this enrollment: 1 installment is unpaid.');

    const allPaid = await t.api('POST', `/api/enrollments/${e._id}/pay-installment`, {
      token: admin.token,
      body: { installmentIndex: 1, isPaid: true },
    });
    expect(allPaid.body.displayStatus).toBe('Active (Paid)');
    const done = await t.api('PUT', `/api/enrollments/${e._id}/complete`, { token: admin.token });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      status: 'Completed',
      displayStatus: 'Completed',
      completedAt: expect.any(String),
    });
    expect((await t.api('PUT', `/api/enrollments/${e._id}/complete`, { token: admin.token })).status).toBe(200);

    // A completed enrolment's money history is frozen, and it no longer blocks a new enrolment.
    const locked = await t.api('POST', `/api/enrollments/${e._id}/pay-installment`, {
      token: admin.token,
      body: { installmentIndex: 0, isPaid: false },
    });
    expect(locked.status).toBe(409);
    expect((await enrol({ userId: student.id, courseId: course._id })).status).toBe(201);
  });

  it('changes the payment plan through PUT only while nothing is paid', async () => {
    const student = await makeUser(t.deps.db, { role: 'student' });
    const course = await makeCourse({ totalFee: 9000, installments: 3 });
    const e = (await enrol({ userId: student.id, courseId: course._id })).body;
    const changed = await t.api('PUT', `/api/enrollments/${e._id}`, {
      token: admin.token,
      body: { paymentType: 'installment' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.paymentType).toBe('installment');
    expect(changed.body.installments.map((i: { amount: number }) => i.amount)).toEqual([3000, 3000, 3000]);
    await t.api('POST', `/api/enrollments/${e._id}/pay-installment`, {
      token: admin.token,
      body: { installmentIndex: 0, isPaid: true },
    });
    const refused = await t.api('PUT', `/api/enrollments/${e._id}`, {
      token: admin.token,
      body: { paymentType: 'full' },
    });
    expect(refused.status).toBe(409);
  });
});

describe('overdue installments and statistics', () => {
  it('counts unpaid installments due before today and reports them', async () => {
    const before = (await t.api('GET', '/api/enrollments/statistics', { token: manager.token })).body;
    expect(before).toEqual({
      totalEnrollments: expect.any(Number),
      completedEnrollments: expect.any(Number),
      overdueInstallments: expect.any(Number),
    });

    const student = await makeUser(t.deps.db, { role: 'student', username: `late_${Date.now()}` });
    const course = await makeCourse({ totalFee: 30000, installments: 3 });
    const e = (await enrol({ userId: student.id, courseId: course._id, paymentType: 'installment' })).body;
    const ids = (e.installments as Array<{ _id: string }>).map((i) => i._id);
    await backdate(ids.slice(0, 2), addMonthsClamped(today, -1));

    const stats = (await t.api('GET', '/api/enrollments/statistics', { token: manager.token })).body;
    expect(stats.totalEnrollments).toBe(before.totalEnrollments + 1);
    expect(stats.overdueInstallments).toBe(before.overdueInstallments + 2);

    const overdue = await t.api('GET', '/api/enrollments/overdue-installments', { token: manager.token });
    expect(overdue.status).toBe(200);
    const mine = overdue.body.filter((o: { enrollmentId: string }) => o.enrollmentId === e._id);
    expect(mine).toHaveLength(2);
    expect(mine[0]).toMatchObject({
      amount: 10000,
      isPaid: false,
      isOverdue: true,
      userId: { _id: student.id, email: student.email },
      courseId: { _id: course._id },
    });

    const detail = (await t.api('GET', `/api/enrollments/${e._id}`, { token: manager.token })).body;
    expect(detail.installments.map((i: { isOverdue: boolean }) => i.isOverdue)).toEqual([true, true, false]);

    await t.api('POST', `/api/enrollments/${e._id}/pay-installment`, {
      token: admin.token,
      body: { installmentId: ids[0] },
    });
    const afterPay = await t.trpc(manager.token).enrollments.statistics.query();
    expect(afterPay.overdueInstallments).toBe(before.overdueInstallments + 1);
  });

  it('the statistics reuse their answer until this server writes', async () => {
    const stats = async () => (await t.api('GET', '/api/enrollments/statistics', { token: manager.token })).body;
    const student = await makeUser(t.deps.db, { role: 'student', username: `cached_${Date.now()}` });
    const course = await makeCourse();
    const e = (await enrol({ userId: student.id, courseId: course._id, paymentType: 'full' })).body;
    const before = await stats();
    // A change this server did not make (another server, a script) shows only after the lifetime...
    await t.deps.db.update(enrollments).set({ status: 'completed' }).where(eq(enrollments.id, e._id));
    expect(await stats()).toEqual(before);
    // ...or as soon as this server handles a write: here one more enrolment.
    const other = await makeUser(t.deps.db, { role: 'student', username: `cached2_${Date.now()}` });
    expect((await enrol({ userId: other.id, courseId: course._id, paymentType: 'full' })).status).toBe(201);
    expect(await stats()).toMatchObject({
      totalEnrollments: before.totalEnrollments + 1,
      completedEnrollments: before.completedEnrollments + 1,
    });
  });
});

describe('deleting users, courses and enrolments', () => {
  it('keeps enrolments when their course is deleted, with the course name', async () => {
    const student = await makeUser(t.deps.db, { role: 'student' });
    const course = await makeCourse({ courseName: 'Ayurveda Foundations' });
    const e = (await enrol({ userId: student.id, courseId: course._id })).body;
    await t.api('POST', `/api/enrollments/${e._id}/pay-admission-fee`, { token: admin.token });
    expect((await t.api('DELETE', `/api/course/${course._id}`, { token: admin.token })).status).toBe(200);
    const kept = await t.api('GET', `/api/enrollments/${e._id}`, { token: admin.token });
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({
      courseId: null,
      deletedCourseName: 'Ayurveda Foundations',
      admissionFeePaid: true,
      totalFee: 100000,
    });
    expect(kept.body.installments).toHaveLength(1);
  });

  it('keeps enrolments when their user is deleted, with the username and email', async () => {
    const student = await makeUser(t.deps.db, { role: 'student', username: `gone_${Date.now()}` });
    const course = await makeCourse();
    const e = (await enrol({ userId: student.id, courseId: course._id })).body;
    await t.deps.db.transaction(async (tx) => {
      await detachUserFromEnrollments(tx, student.id);
      await tx.delete(users).where(eq(users.id, student.id));
    });
    const kept = await t.api('GET', `/api/enrollments/${e._id}`, { token: admin.token });
    expect(kept.body).toMatchObject({ userId: null, deletedUsername: student.username, deletedEmail: student.email });
    const found = await t.trpc(admin.token).enrollments.list.query({ search: student.username });
    expect(found.items.map((x) => x._id)).toEqual([e._id]);
  });

  it('keeps enrolments when an admin deletes the user through the users API', async () => {
    const student = await makeUser(t.deps.db, { role: 'student', username: `leaver_${Date.now()}` });
    const course = await makeCourse();
    const e = (await enrol({ userId: student.id, courseId: course._id, paymentType: 'installment' })).body;
    await t.api('POST', `/api/enrollments/${e._id}/pay-installment`, {
      token: admin.token,
      body: { installmentIndex: 0, isPaid: true },
    });
    const del = await t.api('DELETE', `/api/users/${student.id}`, { token: admin.token });
    expect(del.status).toBe(200);
    const kept = await t.api('GET', `/api/enrollments/${e._id}`, { token: admin.token });
    expect(kept.body).toMatchObject({
      userId: null,
      deletedUsername: student.username,
      deletedEmail: student.email,
      displayStatus: 'Active (Partial)',
    });
    expect(kept.body.installments[0].isPaid).toBe(true);
  });

  it('deletes an enrolment only with the body userId of its student', async () => {
    const student = await makeUser(t.deps.db, { role: 'student' });
    const course = await makeCourse();
    const e = (await enrol({ userId: student.id, courseId: course._id })).body;
    const without = await t.api('DELETE', `/api/enrollments/${e._id}`, { token: admin.token });
    expect(without.status).toBe(400);
    expect(without.body.message).toBe('User ID not found in enrollment data');
    const empty = await t.api('DELETE', `/api/enrollments/${e._id}`, { token: admin.token, body: { userId: '' } });
    expect(empty.body.message).toBe('User ID not found in enrollment data');
    const wrong = await t.api('DELETE', `/api/enrollments/${e._id}`, {
      token: admin.token,
      body: { userId: admin.id },
    });
    expect(wrong.status).toBe(400);
    const ok = await t.api('DELETE', `/api/enrollments/${e._id}`, { token: admin.token, body: { userId: student.id } });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ message: 'Enrollment deleted successfully!' });
    expect((await t.api('GET', `/api/enrollments/${e._id}`, { token: admin.token })).status).toBe(404);
  });
});

describe('REST list shapes', () => {
  it('answers { data } for all enrolments and bare arrays per student and per course', async () => {
    const student = await makeUser(t.deps.db, { role: 'student' });
    const course = await makeCourse();
    const e = (await enrol({ userId: student.id, courseId: course._id, paymentType: 'installment' })).body;

    const all = await t.api('GET', '/api/enrollments', { token: manager.token });
    expect(all.status).toBe(200);
    expect(Array.isArray(all.body.data)).toBe(true);
    expect(all.body.data[0]._id).toBe(e._id);
    expect(all.body.data[0].installments).toHaveLength(3);

    const byStudent = await t.api('GET', `/api/enrollments/student/${student.id}`, { token: manager.token });
    expect(byStudent.body.map((x: { _id: string }) => x._id)).toEqual([e._id]);
    const byCourse = await t.api('GET', `/api/enrollments/course/${course._id}`, { token: manager.token });
    expect(byCourse.body.map((x: { _id: string }) => x._id)).toEqual([e._id]);
    expect((await t.api('GET', '/api/enrollments/course/not-a-uuid', { token: manager.token })).status).toBe(404);
    expect((await t.api('GET', '/api/enrollments/not-a-uuid', { token: manager.token })).status).toBe(404);
  });
});

describe('tRPC enrolment lists', () => {
  it('pages, searches by student or course and filters by display status on the server', async () => {
    const tag = `q${Date.now()}`;
    const course = await makeCourse({
      courseName: `${tag} Pharmacy`,
      totalFee: 1000,
      installments: 2,
      admissionFee: 100,
    });
    const students = await Promise.all(
      [0, 1, 2, 3].map((i) => makeUser(t.deps.db, { role: 'student', username: `${tag}_s${i}` })),
    );
    const es = [];
    for (const s of students)
      es.push((await enrol({ userId: s.id, courseId: course._id, paymentType: 'installment' })).body);
    // s0 pending; s1 partial; s2 fully paid; s3 completed.
    await t.api('POST', `/api/enrollments/${es[1]._id}/pay-installment`, {
      token: admin.token,
      body: { installmentIndex: 0, isPaid: true },
    });
    for (const e of [es[2], es[3]]) {
      await t.api('POST', `/api/enrollments/${e._id}/pay-admission-fee`, { token: admin.token });
      for (const i of [0, 1])
        await t.api('POST', `/api/enrollments/${e._id}/pay-installment`, {
          token: admin.token,
          body: { installmentIndex: i, isPaid: true },
        });
    }
    await t.api('PUT', `/api/enrollments/${es[3]._id}/complete`, { token: admin.token });

    const c = t.trpc(manager.token).enrollments;
    expect((await c.list.query({ search: tag })).total).toBe(4);
    expect((await c.list.query({ search: `${tag}_s2` })).items.map((x) => x._id)).toEqual([es[2]._id]);
    const expectOnly = async (
      displayStatus: 'Pending Payment' | 'Active (Partial)' | 'Active (Paid)' | 'Completed',
      id: string,
    ) => {
      const page = await c.list.query({ courseId: course._id, displayStatus });
      expect(
        page.items.map((x) => x._id),
        displayStatus,
      ).toEqual([id]);
      expect(page.items[0]!.displayStatus).toBe(displayStatus);
    };
    await expectOnly('Pending Payment', es[0]._id);
    await expectOnly('Active (Partial)', es[1]._id);
    await expectOnly('Active (Paid)', es[2]._id);
    await expectOnly('Completed', es[3]._id);

    const paged = await c.list.query({
      courseId: course._id,
      pageSize: 3,
      page: 2,
      sortBy: 'username',
      sortDir: 'asc',
    });
    expect(paged.total).toBe(4);
    expect(paged.items.map((x) => x._id)).toEqual([es[3]._id]);
    expect((await c.currency.query()).exchangeRate).toBe(320.75);
  });
});

describe('enrolment roles', () => {
  it('lets managers enrol and read but keeps money changes and deletes to admins', async () => {
    const student = await makeUser(t.deps.db, { role: 'student' });
    const course = await makeCourse();
    const created = await enrol({ email: student.email, courseId: course._id }, manager.token);
    expect(created.status).toBe(201);
    const id = created.body._id as string;
    for (const path of [
      '/api/enrollments',
      `/api/enrollments/${id}`,
      '/api/enrollments/statistics',
      '/api/enrollments/overdue-installments',
      `/api/enrollments/course/${course._id}`,
      `/api/enrollments/student/${student.id}`,
    ]) {
      expect((await t.api('GET', path, { token: manager.token })).status, path).toBe(200);
    }
    const writes: Array<[string, string, unknown]> = [
      ['POST', `/api/enrollments/${id}/pay-installment`, { installmentIndex: 0, isPaid: true }],
      ['POST', `/api/enrollments/${id}/pay-admission-fee`, {}],
      ['PUT', `/api/enrollments/${id}/complete`, undefined],
      ['PUT', `/api/enrollments/${id}`, { admissionFeePaid: true }],
      ['DELETE', `/api/enrollments/${id}`, { userId: student.id }],
    ];
    for (const [method, path, body] of writes) {
      const res = await t.api(method, path, { token: manager.token, body });
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    await expect(
      t.trpc(manager.token).enrollments.payInstallment.mutate({ id, installmentIndex: 0, isPaid: true }),
    ).rejects.toMatchObject({ data: { code: 'FORBIDDEN' } });
    const superadmin = await t.userWithSession('superadmin');
    expect((await t.api('POST', `/api/enrollments/${id}/pay-admission-fee`, { token: superadmin.token })).status).toBe(
      200,
    );

    for (const role of ['user', 'student', 'customer'] as const) {
      const u = await t.userWithSession(role);
      expect((await t.api('GET', '/api/enrollments', { token: u.token })).status).toBe(403);
      expect((await enrol({ email: student.email, courseId: course._id }, u.token)).status).toBe(403);
      await expect(t.trpc(u.token).enrollments.statistics.query()).rejects.toMatchObject({
        data: { code: 'FORBIDDEN' },
      });
    }
    expect((await t.api('GET', '/api/enrollments/statistics')).status).toBe(401);
  });
});
