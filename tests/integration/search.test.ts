import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/server/db/schema';
import type { TSearchHit } from '../../src/shared/schemas/search';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeBranch, makeUser, postTreatment, type MadeUser } from '../helpers/factories';

/**
 * The header search (docs/architecture.md#search): `GET /api/search?q=` and `search.global` find
 * people by each of their fields, receipts by number, courses and treatments by name and the
 * people's enrolments and bookings; staff only, within the branch scope, a few hits per kind.
 */
let t: TestApp;
let admin: MadeUser & { token: string };
let managerA: MadeUser & { token: string };
let branchA: string;
let branchB: string;
let studentA: MadeUser;
let studentB: MadeUser;
let courseId: string;
let treatmentId: string;
let enrolA: string;
let enrolB: string;
let bookingA: string;
let bookingB: string;
let receiptA: { id: string; number: string };
let receiptB: { id: string; number: string };

const search = (q: string, token = admin.token) =>
  t.api<{ data: TSearchHit[]; message?: string }>('GET', `/api/search?q=${encodeURIComponent(q)}`, { token });

const hits = async (q: string, token = admin.token) => {
  const res = await search(q, token);
  expect(res.status).toBe(200);
  return res.body.data;
};
const ofKind = (list: TSearchHit[], kind: TSearchHit['kind']) => list.filter((h) => h.kind === kind);
const idsOf = (list: TSearchHit[], kind: TSearchHit['kind']) => ofKind(list, kind).map((h) => h.id);

async function setScope(on: boolean) {
  await t.trpc(admin.token).settings.updateAccess.mutate({ managersOwnBranchOnly: on });
}

async function pay(enrollmentId: string) {
  const res = await t.api('POST', '/api/payments', {
    token: admin.token,
    body: { enrollmentId, amount: 1500, method: 'cash' },
  });
  expect(res.status).toBe(201);
  return { id: res.body._id as string, number: res.body.receiptNumber as string };
}

beforeAll(async () => {
  t = await startTestApp();
  branchA = (await makeBranch(t.deps.db, { name: 'Galle' })).id;
  branchB = (await makeBranch(t.deps.db, { name: 'Kandy' })).id;
  admin = await t.userWithSession('admin', { branchId: branchB });
  managerA = await t.userWithSession('manager', { branchId: branchA });
  studentA = await makeUser(t.deps.db, {
    role: 'student',
    branchId: branchA,
    fullName: 'Nadeesha Wickramasinghe',
    username: 'nadee_quokka',
    email: 'nadeesha.quokka@example.com',
  });
  await t.deps.db.update(users).set({ phone: '0779182736' }).where(eq(users.id, studentA.id));
  studentB = await makeUser(t.deps.db, {
    role: 'student',
    branchId: branchB,
    fullName: 'Ruwan Wickramasinghe',
    username: 'ruwan_quokka',
    email: 'ruwan.quokka@example.com',
  });

  const course = await t.api('POST', '/api/course', {
    token: admin.token,
    body: {
      courseName: 'Zygomatic Anatomy Basics',
      duration: '3 months',
      totalFee: 90000,
      installments: 3,
      category: 'Nursing',
      admissionFee: 1000,
    },
  });
  courseId = course.body._id;
  const enrol = async (s: MadeUser) => {
    const res = await t.api('POST', '/api/enrollments', {
      token: admin.token,
      body: { email: s.email, courseId, paymentType: 'installment' },
    });
    expect(res.status).toBe(201);
    return res.body._id as string;
  };
  enrolA = await enrol(studentA);
  enrolB = await enrol(studentB);

  treatmentId = (
    await postTreatment(t, admin.token, {
      treatmentName: 'Quetzal Reflexology',
      localPrice: 10000,
      foreignPrice: 40,
      maxSessions: 4,
      installments: 2,
      duration: { weeks: 1, days: 0, months: 0 },
    })
  )._id;
  const book = async (s: MadeUser) => {
    const res = await t.api('POST', '/api/bookings/book', {
      token: admin.token,
      body: { userId: s.id, treatmentId, userType: 'local', paymentType: 'installment' },
    });
    expect(res.status).toBe(201);
    return res.body._id as string;
  };
  bookingA = await book(studentA);
  bookingB = await book(studentB);
  receiptA = await pay(enrolA);
  receiptB = await pay(enrolB);
});
afterAll(() => t.close());

describe('finding each kind', () => {
  it.each([
    ['part of the full name', 'eesha wick'],
    ['the username', 'NADEE_QUOKKA'],
    ['part of the e-mail', 'nadeesha.quokka@'],
    ['part of the phone number', '9182736'],
  ])('finds a person by %s, shown by full name with username and e-mail', async (_what, q) => {
    const found = ofKind(await hits(q), 'user');
    expect(found[0]).toEqual({
      kind: 'user',
      id: studentA.id,
      title: 'Nadeesha Wickramasinghe',
      subtitle: 'nadee_quokka · nadeesha.quokka@example.com',
      url: `/users/${studentA.id}`,
    });
  });

  it("lists the people's enrolments and bookings, each opening its details screen", async () => {
    const found = await hits('nadeesha.quokka');
    expect(ofKind(found, 'enrollment')).toEqual([
      {
        kind: 'enrollment',
        id: enrolA,
        title: 'Zygomatic Anatomy Basics',
        subtitle: expect.stringMatching(/^Nadeesha Wickramasinghe · /),
        url: `/courses/${courseId}/enrollment/${enrolA}`,
      },
    ]);
    expect(ofKind(found, 'booking')).toEqual([
      {
        kind: 'booking',
        id: bookingA,
        title: 'Quetzal Reflexology',
        subtitle: 'Nadeesha Wickramasinghe · Pending',
        url: `/booking-details/${bookingA}`,
      },
    ]);
    // The urls name records the screens' own calls answer.
    expect((await t.api('GET', `/api/enrollments/${enrolA}`, { token: admin.token })).status).toBe(200);
    expect((await t.api('GET', `/api/bookings/booking/${bookingA}`, { token: admin.token })).status).toBe(200);
  });

  it('finds a course and a treatment by part of the name', async () => {
    expect(ofKind(await hits('matic anat'), 'course')).toEqual([
      {
        kind: 'course',
        id: courseId,
        title: 'Zygomatic Anatomy Basics',
        subtitle: 'Nursing · 3 months',
        url: `/courses/${courseId}`,
      },
    ]);
    expect(ofKind(await hits('etzal refl'), 'treatment')).toEqual([
      {
        kind: 'treatment',
        id: treatmentId,
        title: 'Quetzal Reflexology',
        subtitle: 'Treatment',
        url: '/treatment/all-treatment?q=Quetzal%20Reflexology',
      },
    ]);
  });

  it('finds a receipt by its exact number, in any case, and the newest of a series by its start', async () => {
    expect(receiptA.number).toMatch(/^GAL-\d{4}-\d{6}$/);
    for (const q of [receiptA.number, receiptA.number.toLowerCase()]) {
      const found = ofKind(await hits(q), 'receipt');
      expect(found).toEqual([
        {
          kind: 'receipt',
          id: receiptA.id,
          title: receiptA.number,
          subtitle: 'nadee_quokka · Zygomatic Anatomy Basics', // the payer's name as the receipt keeps it
          url: `/payments?q=${encodeURIComponent(receiptA.number)}`,
        },
      ]);
    }
    expect(idsOf(await hits('GAL-'), 'receipt')).toEqual([receiptA.id]);
    expect(idsOf(await hits(receiptB.number.slice(0, 8)), 'receipt')).toContain(receiptB.id);
    // Found from its start only: the middle of a number is not a receipt search.
    expect(ofKind(await hits(receiptA.number.slice(4)), 'receipt')).toEqual([]);
  });

  it('answers the same on tRPC as on REST', async () => {
    const rest = await hits('quokka');
    const trpc = await t.trpc(admin.token).search.global.query({ q: 'quokka' });
    expect(trpc).toEqual({ data: rest });
    expect(idsOf(rest, 'user').sort()).toEqual([studentA.id, studentB.id].sort());
  });

  it('answers a two-character text in name order', async () => {
    const found = ofKind(await hits('wI'), 'user');
    expect(found.map((h) => h.title)).toEqual(['Nadeesha Wickramasinghe', 'Ruwan Wickramasinghe']);
  });

  it('takes the text literally: LIKE wildcards match only themselves', async () => {
    expect(await hits('%%')).toEqual([]);
    expect(await hits('__')).toEqual([]);
  });
});

describe('bounds and input', () => {
  it('answers at most 5 hits of a kind, exact username first', async () => {
    for (let i = 0; i < 7; i++) {
      await makeUser(t.deps.db, { role: 'student', fullName: `Pangolin Person ${i}`, username: `pangolin_${i}` });
    }
    const found = await hits('pangolin');
    expect(ofKind(found, 'user')).toHaveLength(5);
    expect(found.length).toBeLessThanOrEqual(20);
    expect(ofKind(await hits('PANGOLIN_6'), 'user')[0]?.title).toBe('Pangolin Person 6');
  });

  it.each(['', ' ', 'a', '  b  '])('refuses %j with 400 and a clear message', async (q) => {
    const res = await search(q);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Type at least 2 characters to search.');
  });

  it('refuses a missing q and an over-long one with 400, on tRPC too', async () => {
    const missing = await t.api('GET', '/api/search', { token: admin.token });
    expect(missing).toMatchObject({ status: 400, body: { message: 'Type at least 2 characters to search.' } });
    const long = await search('x'.repeat(201));
    expect(long).toMatchObject({ status: 400, body: { message: 'Search must be at most 200 characters.' } });
    await expect(t.trpc(admin.token).search.global.query({ q: 'x' })).rejects.toMatchObject({
      message: 'Type at least 2 characters to search.',
      data: { httpStatus: 400 },
    });
  });
});

describe('who may search', () => {
  it.each(['user', 'student', 'customer'] as const)('refuses a %s with 403', async (role) => {
    const { token } = await t.userWithSession(role);
    const res = await search('quokka', token);
    expect(res).toMatchObject({ status: 403, body: { message: 'You do not have permission to access this page.' } });
    await expect(t.trpc(token).search.global.query({ q: 'quokka' })).rejects.toMatchObject({
      data: { httpStatus: 403 },
    });
  });

  it('refuses a caller without a session with 401', async () => {
    expect((await t.api('GET', '/api/search?q=quokka')).status).toBe(401);
  });

  it.each(['manager', 'superadmin'] as const)('lets a %s search', async (role) => {
    const { token } = await t.userWithSession(role);
    expect(idsOf(await hits('quokka', token), 'user')).toHaveLength(2);
  });
});

describe('branch scope', () => {
  afterAll(() => setScope(false));

  it('off: a manager finds every branch', async () => {
    await setScope(false);
    const found = await hits('wickramasinghe', managerA.token);
    expect(idsOf(found, 'user').sort()).toEqual([studentA.id, studentB.id].sort());
    expect(idsOf(found, 'enrollment').sort()).toEqual([enrolA, enrolB].sort());
    expect(idsOf(found, 'booking').sort()).toEqual([bookingA, bookingB].sort());
    expect(idsOf(await hits(receiptB.number, managerA.token), 'receipt')).toEqual([receiptB.id]);
  });

  it("on: a manager of branch A finds only branch A's people, records and receipts; the catalogue stays", async () => {
    await setScope(true);
    const found = await hits('wickramasinghe', managerA.token);
    expect(idsOf(found, 'user')).toEqual([studentA.id]);
    expect(idsOf(found, 'enrollment')).toEqual([enrolA]);
    expect(idsOf(found, 'booking')).toEqual([bookingA]);
    expect(ofKind(await hits(receiptB.number, managerA.token), 'receipt')).toEqual([]);
    expect(idsOf(await hits(receiptA.number, managerA.token), 'receipt')).toEqual([receiptA.id]);
    expect(await hits('ruwan_quokka', managerA.token)).toEqual([]);
    expect(idsOf(await hits('Zygomatic', managerA.token), 'course')).toEqual([courseId]);
    expect(idsOf(await hits('Quetzal', managerA.token), 'treatment')).toEqual([treatmentId]);
    // Admins are never limited.
    expect(idsOf(await hits('wickramasinghe'), 'user')).toHaveLength(2);
  });

  it('on: a manager without a branch finds no people or receipts', async () => {
    await setScope(true);
    const { token } = await t.userWithSession('manager', { branchId: null });
    const found = await hits('wickramasinghe', token);
    expect(found).toEqual([]);
    expect(ofKind(await hits(receiptA.number, token), 'receipt')).toEqual([]);
  });
});
