import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addToDate, todayIn } from '../../src/shared/calendar';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeBranch, makeUser, postCourse, postTreatment } from '../helpers/factories';

/*
 * The receivables report (docs/payments.md#receivables) and back-dated enrolments and bookings.
 * Days are built in Asia/Colombo, the institute's zone, as the server counts them.
 */

const TZ = 'Asia/Colombo';
let t: TestApp;
let admin: string;
let manager: string;
let today: string;
let branchId: string;
let otherBranchId: string;
let courseId: string;
let treatmentId: string;
const daysAgo = (n: number) => addToDate(today, { days: -n });

type Row = {
  person: { _id: string | null; fullName: string; phone: string | null };
  currency: string;
  buckets: { d1_30: number; d31_60: number; d61_90: number; d90_plus: number };
  total: number;
  oldestDue: string;
};
type Answer = {
  data: Row[];
  totals: Array<{ currency: string; buckets: Row['buckets']; total: number }>;
  total: number;
};

const get = (query: string, token = admin) => t.api<Answer>('GET', `/api/reports/receivables${query}`, { token });

/** A student of `branch` enrolled `days` ago, in full: one part of 1,000.00 due that day. */
async function enrolledDaysAgo(days: number, branch = branchId, name = `Aged ${days}`) {
  const u = await makeUser(t.deps.db, { role: 'student', branchId: branch, fullName: name });
  const res = await t.api('POST', '/api/enrollments', {
    token: admin,
    body: { userId: u.id, courseId, paymentType: 'full', enrolledOn: daysAgo(days) },
  });
  expect(res.status).toBe(201);
  return u;
}

beforeAll(async () => {
  t = await startTestApp({ TIME_ZONE: TZ });
  admin = (await t.userWithSession('admin')).token;
  today = todayIn(TZ);
  branchId = (await makeBranch(t.deps.db, { name: 'Aging' })).id;
  otherBranchId = (await makeBranch(t.deps.db, { name: 'Elsewhere' })).id;
  manager = (await t.userWithSession('manager', { branchId: otherBranchId })).token;
  courseId = await postCourse(t, admin, 'Ageing', { totalFee: 1000, admissionFee: 0, installments: 1 });
  treatmentId = (
    await postTreatment(t, admin, {
      treatmentName: 'Aged massage',
      localPrice: 500,
      foreignPrice: 10,
      maxSessions: 4,
      installments: 1,
      duration: { weeks: 0, days: 0, months: 0 },
    })
  )._id;
});
afterAll(() => t.close());

describe('receivables', () => {
  it('ages each overdue amount in buckets at the 30/31, 60/61 and 90/91 day boundaries', async () => {
    const ages = [0, 1, 30, 31, 60, 61, 90, 91];
    const people = new Map<number, string>();
    for (const d of ages) people.set(d, (await enrolledDaysAgo(d)).id);
    const res = await get(`?branchId=${branchId}&limit=200`);
    expect(res.status).toBe(200);
    const byPerson = new Map(res.body.data.map((r) => [r.person._id, r]));
    // Due today is not overdue yet.
    expect(byPerson.has(people.get(0)!)).toBe(false);
    const expected: Record<number, keyof Row['buckets']> = {
      1: 'd1_30',
      30: 'd1_30',
      31: 'd31_60',
      60: 'd31_60',
      61: 'd61_90',
      90: 'd61_90',
      91: 'd90_plus',
    };
    for (const [d, bucket] of Object.entries(expected)) {
      const row = byPerson.get(people.get(Number(d))!);
      expect(row, `${d} days`).toBeDefined();
      expect(row!.buckets[bucket], `${d} days in ${bucket}`).toBe(1000);
      expect(row!.total).toBe(1000);
      expect(row!.oldestDue).toBe(daysAgo(Number(d)));
      expect(row!.currency).toBe('LKR');
      expect(row!.person.fullName).toBe(`Aged ${d}`);
    }
    // The most overdue come first.
    expect(res.body.data[0]!.person._id).toBe(people.get(91));
    expect(res.body.totals).toEqual([
      { currency: 'LKR', buckets: { d1_30: 2000, d31_60: 2000, d61_90: 2000, d90_plus: 1000 }, total: 7000 },
    ]);
    expect(res.body.total).toBe(7);

    // Counted at another day: a day earlier, 31 days is 30 and the one due yesterday is not yet due.
    const earlier = await get(`?branchId=${branchId}&asOf=${daysAgo(1)}&limit=200`);
    expect(earlier.body.totals[0]).toEqual({
      currency: 'LKR',
      buckets: { d1_30: 2000, d31_60: 2000, d61_90: 2000, d90_plus: 0 },
      total: 6000,
    });
  });

  it('totals equal the dashboard overdue figure, for a branch and for all', async () => {
    await enrolledDaysAgo(45, otherBranchId, 'Other branch');
    const b = await t.api('POST', '/api/bookings/book', {
      token: admin,
      body: {
        treatmentId,
        userId: (await makeUser(t.deps.db, { role: 'customer', branchId })).id,
        userType: 'local',
        paymentType: 'full',
        bookedOn: daysAgo(10),
      },
    });
    expect(b.status).toBe(201);
    for (const branch of [branchId, otherBranchId, undefined]) {
      const dash = await t.trpc(admin).payments.dashboard.query(branch ? { branchId: branch } : {});
      const rec = await get(branch ? `?branchId=${branch}` : '');
      expect(rec.status).toBe(200);
      const overdue = Object.fromEntries(dash.overdue.filter((o) => o.amount > 0).map((o) => [o.currency, o.amount]));
      expect(Object.fromEntries(rec.body.totals.map((x) => [x.currency, x.total]))).toEqual(overdue);
      const viaTrpc = await t.trpc(admin).receivables.list.query(branch ? { branchId: branch } : {});
      expect(viaTrpc.totals).toEqual(rec.body.totals);
    }
  });

  it('filters by course or treatment, and pages on the server', async () => {
    const course = await get(`?branchId=${branchId}&courseId=${courseId}`);
    expect(course.body.totals[0]!.total).toBe(7000);
    const treatment = await get(`?branchId=${branchId}&treatmentId=${treatmentId}`);
    expect(treatment.body.totals).toEqual([
      { currency: 'LKR', buckets: { d1_30: 500, d31_60: 0, d61_90: 0, d90_plus: 0 }, total: 500 },
    ]);
    expect(treatment.body.data).toHaveLength(1);
    const both = await get(`?branchId=${branchId}&courseId=${courseId}&treatmentId=${treatmentId}`);
    expect(both.body.totals[0]!.total).toBe(7500);

    const first = await get(`?branchId=${branchId}&limit=3`);
    const second = await get(`?branchId=${branchId}&limit=3&page=2`);
    expect(first.body.data).toHaveLength(3);
    expect(first.body.total).toBe(8);
    expect(second.body.data).toHaveLength(3);
    const ids = [...first.body.data, ...second.body.data].map((r) => r.person._id);
    expect(new Set(ids).size).toBe(6);
  });

  it('refuses bad filters with 400', async () => {
    expect((await get('?branchId=nope')).body).toMatchObject({ message: 'Branch is not valid.' });
    expect((await get('?branchId=nope')).status).toBe(400);
    expect((await get('?courseId=nope')).status).toBe(400);
    expect((await get('?asOf=2025-02-30')).status).toBe(400);
    expect((await get('?limit=500')).status).toBe(400);
  });

  it('is for staff only, and a limited manager sees only their branch', async () => {
    const student = await t.userWithSession('student');
    for (const path of ['', '/excel', '/pdf']) {
      expect((await t.api('GET', `/api/reports/receivables${path}`, { token: student.token })).status).toBe(403);
      expect((await t.api('GET', `/api/reports/receivables${path}`)).status).toBe(401);
    }
    await expect(t.trpc(student.token).receivables.list.query({})).rejects.toMatchObject({
      data: { httpStatus: 403 },
    });
    expect((await get('', manager)).body.total).toBeGreaterThan(1);
    await t.trpc(admin).settings.updateAccess.mutate({ managersOwnBranchOnly: true });
    try {
      // Asking for another branch still answers the manager's own.
      const mine = await get(`?branchId=${branchId}`, manager);
      expect(mine.status).toBe(200);
      expect(mine.body.data.map((r) => r.person.fullName)).toEqual(['Other branch']);
    } finally {
      await t.trpc(admin).settings.updateAccess.mutate({ managersOwnBranchOnly: false });
    }
  });

  it('answers Excel and PDF files of the whole list', async () => {
    const xlsx = await fetch(`${t.baseUrl}/api/reports/receivables/excel?branchId=${branchId}`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(xlsx.headers.get('content-disposition')).toBe(`attachment; filename="receivables_${today}.xlsx"`);
    const xb = Buffer.from(await xlsx.arrayBuffer());
    expect(xb.subarray(0, 2).toString()).toBe('PK');

    const pdf = await fetch(`${t.baseUrl}/api/reports/receivables/pdf?treatmentId=${treatmentId}`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    expect((await t.api('GET', '/api/reports/receivables/excel?branchId=x', { token: admin })).status).toBe(400);
  });
});

describe('enrolments and bookings that started earlier', () => {
  it('an admin may enrol up to 12 months back; the due dates follow and show as overdue', async () => {
    const course3 = await postCourse(t, admin, 'Three parts', { totalFee: 3000, admissionFee: 0, installments: 3 });
    const u = await makeUser(t.deps.db, { role: 'student', branchId });
    const start = addToDate(today, { months: -12 });
    const res = await t.api<{ enrolledOn: string; installments: Array<{ dueDate: string; isOverdue: boolean }> }>(
      'POST',
      '/api/enrollments',
      { token: admin, body: { userId: u.id, courseId: course3, paymentType: 'installment', enrolledOn: start } },
    );
    expect(res.status).toBe(201);
    expect(res.body.enrolledOn).toBe(start);
    expect(res.body.installments.map((i) => i.dueDate)).toEqual([
      start,
      addToDate(start, { months: 1 }),
      addToDate(start, { months: 2 }),
    ]);
    expect(res.body.installments.every((i) => i.isOverdue)).toBe(true);
    const row = (await get(`?courseId=${course3}`)).body.data[0]!;
    expect(row).toMatchObject({ person: { _id: u.id }, total: 3000, oldestDue: start });
    expect(row.buckets.d90_plus).toBe(3000);
  });

  it('refuses a day too far back or in the future (400) and a manager naming one (403)', async () => {
    const u = await makeUser(t.deps.db, { role: 'student', branchId });
    const enrol = (enrolledOn: string, token = admin) =>
      t.api('POST', '/api/enrollments', { token, body: { userId: u.id, courseId, paymentType: 'full', enrolledOn } });
    const tooFar = await enrol(addToDate(today, { months: -12, days: -1 }));
    expect(tooFar.status).toBe(400);
    expect((tooFar.body as { message: string }).message).toMatch(/^Enrolled on can be at most 12 months back/);
    const future = await enrol(addToDate(today, { days: 1 }));
    expect(future.status).toBe(400);
    expect((future.body as { message: string }).message).toBe('Enrolled on cannot be in the future.');
    expect((await enrol('2025-13-01')).status).toBe(400);
    const byManager = await enrol(daysAgo(5), manager);
    expect(byManager.status).toBe(403);
    expect((byManager.body as { message: string }).message).toBe('Only an admin can set enrolled on.');
    // Without a day, or with today, a manager enrols as before.
    expect((await enrol(today, manager)).status).toBe(201);
  });

  it('a booking made through tRPC takes bookedOn too, and is overdue at once', async () => {
    const u = await makeUser(t.deps.db, { role: 'customer', branchId: otherBranchId });
    const booked = await t.trpc(admin).bookings.book.mutate({
      treatmentId,
      email: u.email,
      userType: 'local',
      paymentType: 'full',
      bookedOn: daysAgo(40),
    });
    expect(booked.bookedOn).toBe(daysAgo(40));
    expect(booked.installments[0]).toMatchObject({ dueDate: daysAgo(40), isOverdue: true });
    expect(booked.paymentStatus).toBe('overdue');
    await expect(
      t.trpc(admin).bookings.book.mutate({
        treatmentId,
        email: u.email,
        userType: 'local',
        paymentType: 'full',
        bookedOn: addToDate(today, { days: 2 }),
      }),
    ).rejects.toMatchObject({ data: { httpStatus: 400 } });
  });
});
