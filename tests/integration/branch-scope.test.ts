import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeBranch, makeUser, postTreatment, type MadeUser } from '../helpers/factories';

/**
 * The "managers see only their own branch" setting (docs/security.md#branch-scope): with it off a
 * manager sees every branch, as the product always did; with it on, a manager of branch A reaches
 * only the people of branch A and their enrolments and bookings, on REST and tRPC alike, and what
 * lies outside answers exactly like something that does not exist.
 */
let t: TestApp;
let admin: MadeUser & { token: string };
let managerA: MadeUser & { token: string };
let managerNoBranch: MadeUser & { token: string };
let branchA: string;
let branchB: string;
let studentA: MadeUser;
let studentB: MadeUser;
let enrolA: string;
let enrolB: string;
let bookingA: string;
let bookingB: string;
let treatmentId: string;
let courseId: string;

async function setScope(on: boolean) {
  await t.trpc(admin.token).settings.updateAccess.mutate({ managersOwnBranchOnly: on });
}

const ids = (list: Array<{ _id: string }>) => list.map((x) => x._id);

beforeAll(async () => {
  t = await startTestApp();
  branchA = (await makeBranch(t.deps.db, { name: 'Galle' })).id;
  branchB = (await makeBranch(t.deps.db, { name: 'Kandy' })).id;
  admin = await t.userWithSession('admin', { branchId: branchB });
  managerA = await t.userWithSession('manager', { branchId: branchA });
  managerNoBranch = await t.userWithSession('manager', { branchId: null });
  studentA = await makeUser(t.deps.db, { role: 'student', branchId: branchA });
  studentB = await makeUser(t.deps.db, { role: 'student', branchId: branchB });

  const course = await t.api('POST', '/api/course', {
    token: admin.token,
    body: {
      courseName: 'Branch scope course',
      duration: '3 months',
      totalFee: 90000,
      installments: 3,
      category: 'Nursing',
      admissionFee: 1000,
    },
  });
  courseId = course.body._id;
  const enrol = async (s: MadeUser) =>
    (
      await t.api('POST', '/api/enrollments', {
        token: admin.token,
        body: { email: s.email, courseId: course.body._id, paymentType: 'installment' },
      })
    ).body._id as string;
  enrolA = await enrol(studentA);
  enrolB = await enrol(studentB);

  treatmentId = (
    await postTreatment(t, admin.token, {
      treatmentName: 'Branch scope massage',
      localPrice: 10000,
      foreignPrice: 40,
      maxSessions: 4,
      installments: 2,
      duration: { weeks: 1, days: 0, months: 0 },
    })
  )._id;
  const book = async (s: MadeUser) =>
    (
      await t.api('POST', '/api/bookings/book', {
        token: admin.token,
        body: { userId: s.id, treatmentId, userType: 'local', paymentType: 'installment' },
      })
    ).body._id as string;
  bookingA = await book(studentA);
  bookingB = await book(studentB);
});
afterAll(() => t.close());

describe('the setting', () => {
  it('is off by default, and only admins and superadmins change it', async () => {
    expect(await t.trpc(managerA.token).settings.getAccess.query()).toEqual({ managersOwnBranchOnly: false });
    await expect(
      t.trpc(managerA.token).settings.updateAccess.mutate({ managersOwnBranchOnly: true }),
    ).rejects.toMatchObject({ data: { httpStatus: 403 } });
    await expect(
      // A string is not a yes or no: refused with the field's message, nothing stored.
      t.trpc(admin.token).settings.updateAccess.mutate({ managersOwnBranchOnly: 'yes' as unknown as boolean }),
    ).rejects.toMatchObject({ data: { httpStatus: 400 } });
    expect(await t.trpc(admin.token).settings.getAccess.query()).toEqual({ managersOwnBranchOnly: false });
  });

  it('off: a manager sees and reaches every branch', async () => {
    await setScope(false);
    const users = await t.api('GET', '/api/users', { token: managerA.token });
    expect(ids(users.body)).toEqual(expect.arrayContaining([studentA.id, studentB.id]));
    expect((await t.api('GET', `/api/enrollments/${enrolB}`, { token: managerA.token })).status).toBe(200);
    expect((await t.api('GET', `/api/bookings/booking/${bookingB}`, { token: managerA.token })).status).toBe(200);
  });
});

describe('on: a manager of branch A', () => {
  beforeAll(() => setScope(true));

  it('lists only branch A people, on REST and tRPC', async () => {
    const rest = await t.api('GET', '/api/users', { token: managerA.token });
    expect(rest.status).toBe(200);
    expect(ids(rest.body)).toContain(studentA.id);
    expect(ids(rest.body)).not.toContain(studentB.id);
    expect(rest.body.every((u: { branch: { _id: string } | null }) => u.branch?._id === branchA)).toBe(true);

    const page = await t.trpc(managerA.token).users.list.query({ page: 1, pageSize: 50 });
    expect(page.items.map((u) => u._id)).not.toContain(studentB.id);
    expect(page.total).toBe(page.items.length);
    // Filtering for the other branch finds nothing rather than leaking it.
    const other = await t.trpc(managerA.token).users.list.query({ page: 1, pageSize: 50, branchId: branchB });
    expect(other.total).toBe(0);

    const students = await t.api('GET', '/api/users/students', { token: managerA.token });
    expect(ids(students.body)).toEqual([studentA.id]);
  });

  it('answers 404 for a person of branch B, as if they did not exist', async () => {
    const get = await t.api('GET', `/api/users/${studentB.id}`, { token: managerA.token });
    expect(get).toMatchObject({ status: 404, body: { message: 'User not found.' } });
    const put = await t.api('PUT', `/api/users/${studentB.id}`, { token: managerA.token, body: { fullName: 'X' } });
    expect(put.status).toBe(404);
    expect((await t.api('GET', `/api/users/${studentB.id}`, { token: admin.token })).body.fullName).not.toBe('X');
    // Their own account stays theirs.
    expect((await t.api('GET', `/api/users/${managerA.id}`, { token: managerA.token })).status).toBe(200);
  });

  it('adds and moves people only within branch A', async () => {
    const body = (branch: string) => ({
      username: `scoped_${Math.random().toString(36).slice(2, 8)}`,
      fullName: 'Scoped Person',
      email: `scoped.${Math.random().toString(36).slice(2, 8)}@example.com`,
      password: 'correct-horse-9',
      role: 'student',
      branch,
    });
    const other = await t.api('POST', '/api/users', { token: managerA.token, body: body(branchB) });
    expect(other).toMatchObject({
      status: 403,
      body: { message: 'You can only add users to your own branch or move them within it.' },
    });
    const own = await t.api('POST', '/api/users', { token: managerA.token, body: body(branchA) });
    expect(own.status).toBe(201);
    const move = await t.api('PUT', `/api/users/${own.body._id}`, {
      token: managerA.token,
      body: { branchId: branchB },
    });
    expect(move).toMatchObject({ status: 403 });
    expect((await t.api('GET', `/api/users/${own.body._id}`, { token: admin.token })).body.branch._id).toBe(branchA);
  });

  it('sees only branch A enrolments, and none of branch B by id', async () => {
    const list = await t.api('GET', '/api/enrollments', { token: managerA.token });
    expect(ids(list.body.data)).toContain(enrolA);
    expect(ids(list.body.data)).not.toContain(enrolB);
    const page = await t.trpc(managerA.token).enrollments.list.query({ page: 1, pageSize: 50 });
    expect(page.items.map((e) => e._id)).toEqual([enrolA]);
    expect(page.total).toBe(1);

    expect(await t.api('GET', `/api/enrollments/${enrolB}`, { token: managerA.token })).toMatchObject({
      status: 404,
      body: { message: 'Enrollment not found.' },
    });
    expect((await t.api('GET', `/api/enrollments/student/${studentB.id}`, { token: managerA.token })).body).toEqual([]);
    const stats = await t.api('GET', '/api/enrollments/statistics', { token: managerA.token });
    expect(stats.body.totalEnrollments).toBe(1);
    const adminStats = await t.api('GET', '/api/enrollments/statistics', { token: admin.token });
    expect(adminStats.body.totalEnrollments).toBe(2);
  });

  it('cannot enrol or book a person of branch B', async () => {
    const enrol = await t.api('POST', '/api/enrollments', {
      token: managerA.token,
      body: { email: studentB.email, courseId },
    });
    expect(enrol).toMatchObject({ status: 404, body: { message: 'User not found. Please check the email.' } });
  });

  it('sees only branch A bookings and cannot change those of branch B', async () => {
    const all = await t.api('GET', '/api/bookings/bookings', { token: managerA.token });
    expect(ids(all.body)).toEqual([bookingA]);
    const page = await t.trpc(managerA.token).bookings.list.query({ page: 1, pageSize: 50 });
    expect(page.items.map((b) => b._id)).toEqual([bookingA]);

    expect((await t.api('GET', `/api/bookings/booking/${bookingB}`, { token: managerA.token })).status).toBe(404);
    expect((await t.api('GET', `/api/bookings/bookings/${studentB.id}`, { token: managerA.token })).status).toBe(404);
    const progress = await t.api('PUT', `/api/bookings/progress/${studentB.id}/${treatmentId}`, {
      token: managerA.token,
      body: { sessionsCompleted: 2 },
    });
    expect(progress.status).toBe(404);
    const b = await t.api('GET', `/api/bookings/booking/${bookingB}`, { token: admin.token });
    expect(b.body.sessionsCompleted).toBe(0);
    const own = await t.api('PUT', `/api/bookings/progress/${studentA.id}/${treatmentId}`, {
      token: managerA.token,
      body: { sessionsCompleted: 1 },
    });
    expect(own.status).toBe(200);
  });

  it('counts only branch A in the statistics', async () => {
    const users = await t.api('GET', '/api/reports/users/stats', { token: managerA.token });
    expect(users.body.data.branchCounts.map((b: { branch: { _id: string } }) => b.branch._id)).toEqual([branchA]);
    const adminUsers = await t.api('GET', '/api/reports/users/stats', { token: admin.token });
    expect(users.body.data.totalUsers).toBeLessThan(adminUsers.body.data.totalUsers);
    const treatments = await t.api('GET', '/api/treatment-reports/stats', { token: managerA.token });
    expect(treatments.body.data.popularTreatments).toEqual([
      expect.objectContaining({ bookingCount: 1, treatment: expect.objectContaining({ _id: treatmentId }) }),
    ]);
  });

  it('reports hold only branch A rows; catalogue reports are shared', async () => {
    const json = async (path: string, token = managerA.token) => {
      const res = await t.api('GET', `${path}?format=json`, { token });
      expect(res.status).toBe(200);
      return res.body as { total: number; data: Array<Record<string, unknown>> };
    };
    const users = await json('/api/reports/users/excel');
    expect(users.data.map((u) => u.email)).toContain(studentA.email);
    expect(users.data.map((u) => u.email)).not.toContain(studentB.email);
    const enrolments = await json('/api/course-reports/enrollments');
    expect(enrolments.data.map((e) => e.student)).toEqual([studentA.username]);
    const revenue = await json('/api/course-reports/revenue');
    expect(revenue.data).toEqual([expect.objectContaining({ name: 'Branch scope course', count: 1 })]);
    const bookings = await json('/api/treatment-reports/bookings');
    expect(bookings.total).toBe(1);
    expect((await json('/api/course-reports/enrollments', admin.token)).total).toBe(2);
    expect((await json('/api/course-reports/excel')).total).toBe(
      (await json('/api/course-reports/excel', admin.token)).total,
    );
  });

  it('a report built later by the worker keeps the scope it was asked with', async () => {
    const worker = await startTestApp({ REPORT_JOB_THRESHOLD: 0 }, { sameDatabaseAs: t });
    try {
      const queued = await worker.api('GET', '/api/course-reports/enrollments?format=json', { token: managerA.token });
      expect(queued.status).toBe(202);
      let status = queued.body;
      for (let i = 0; i < 100 && status.status !== 'ready'; i++) {
        await new Promise((r) => setTimeout(r, 100));
        status = (await worker.api('GET', `/api/reports/files/${queued.body.reportId}`, { token: managerA.token }))
          .body;
      }
      const file = await worker.api('GET', `/api/reports/files/${queued.body.reportId}/download`, {
        token: managerA.token,
      });
      expect(file.body.data.map((e: { student: string }) => e.student)).toEqual([studentA.username]);
    } finally {
      await worker.close();
    }
  });

  it('a manager without a branch sees no one but themselves', async () => {
    expect((await t.api('GET', '/api/users', { token: managerNoBranch.token })).body).toEqual([]);
    expect((await t.api('GET', '/api/enrollments', { token: managerNoBranch.token })).body.data).toEqual([]);
    expect((await t.api('GET', `/api/users/${managerNoBranch.id}`, { token: managerNoBranch.token })).status).toBe(200);
    expect((await t.api('GET', `/api/enrollments/${enrolA}`, { token: managerNoBranch.token })).status).toBe(404);
  });

  it('leaves admins unlimited', async () => {
    const users = await t.api('GET', '/api/users', { token: admin.token });
    expect(ids(users.body)).toEqual(expect.arrayContaining([studentA.id, studentB.id]));
    expect((await t.api('GET', `/api/enrollments/${enrolA}`, { token: admin.token })).status).toBe(200);
  });

  it('is lifted at once when the setting is switched off', async () => {
    await setScope(false);
    expect((await t.api('GET', `/api/enrollments/${enrolB}`, { token: managerA.token })).status).toBe(200);
    await setScope(true);
  });
});
