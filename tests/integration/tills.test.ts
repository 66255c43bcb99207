import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrollments, tills } from '../../src/server/db/schema';
import { todayIn } from '../../src/shared/calendar';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeBranch, makeUser, postCourse, type MadeUser } from '../helpers/factories';

/**
 * Tills (docs/payments.md#tills) on a real PostgreSQL: opening with a float, one open till per
 * cashier and branch under parallel requests, the expected figure from cash payments, closing with
 * a difference and its note, the day lock, voids of a locked day, the till setting and roles.
 */
let t: TestApp;
let admin: MadeUser & { token: string };
let courseId: string;
const TZ = 'Asia/Colombo';

/** A branch with a cashier (a manager there) and a student enrolled on a 30,000 course. */
async function desk() {
  const branch = await makeBranch(t.deps.db);
  const cashier = await t.userWithSession('manager', {
    branchId: branch.id,
    fullName: `Cashier ${branch.id.slice(0, 8)}`,
  });
  return { branch, cashier };
}

async function enrol(branchId: string) {
  const student = await makeUser(t.deps.db, { role: 'student', branchId });
  const res = await t.api('POST', '/api/enrollments', {
    token: admin.token,
    body: { email: student.email, courseId, paymentType: 'installment' },
  });
  expect(res.status).toBe(201);
  return res.body._id as string;
}

const open = (token: string, body: unknown) => t.api('POST', '/api/tills', { token, body });
const close = (token: string, id: string, body: unknown) => t.api('POST', `/api/tills/${id}/close`, { token, body });
const pay = (token: string, body: Record<string, unknown>) => t.api('POST', '/api/payments', { token, body });

/** Noon of the day `daysAgo` days before today, in the organisation's zone. */
function noonDaysAgo(daysAgo: number): { day: string; at: string } {
  const day = todayIn(TZ, new Date(Date.now() - daysAgo * 86_400_000));
  return { day, at: new Date(`${day}T12:00:00+05:30`).toISOString() };
}

beforeAll(async () => {
  t = await startTestApp();
  expect(t.deps.config.TIME_ZONE).toBe(TZ);
  admin = await t.userWithSession('admin');
  courseId = await postCourse(t, admin.token, 'Till', { totalFee: 30000, admissionFee: 3000, installments: 3 });
});
afterAll(() => t.close());

describe('opening a till', () => {
  it('opens with a float per currency and answers 201 with the till', async () => {
    const { branch, cashier } = await desk();
    const res = await open(cashier.token, {
      branchId: branch.id,
      openingFloat: [
        { currency: 'lkr', amount: 5000 },
        { currency: 'USD', amount: 20.5 },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      _id: expect.any(String),
      branch: { _id: branch.id, name: branch.name },
      // The cash-up lists a till by its cashier's full name beside the username.
      cashier: { _id: cashier.id, username: cashier.username, fullName: `Cashier ${branch.id.slice(0, 8)}` },
      openedAt: expect.any(String),
      openingDay: todayIn(TZ),
      openingFloat: [
        { currency: 'LKR', amount: 5000 },
        { currency: 'USD', amount: 20.5 },
      ],
      status: 'open',
      closedAt: null,
      counted: null,
    });
    const list = await t.api('GET', `/api/tills?branchId=${branch.id}`, { token: cashier.token });
    expect(list.status).toBe(200);
    expect(list.body.data.map((x: { _id: string }) => x._id)).toEqual([res.body._id]);
  });

  it('allows one open till per cashier and branch: of parallel opens exactly one succeeds, the rest 409', async () => {
    const { branch, cashier } = await desk();
    const body = { branchId: branch.id, openingFloat: [{ currency: 'LKR', amount: 1000 }] };
    const answers = await Promise.all(Array.from({ length: 6 }, () => open(cashier.token, body)));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect(answers.find((a) => a.status === 409)!.body.message).toBe(
      'You already have an open till at this branch. Close it before opening another.',
    );
    const rows = await t.deps.db.select().from(tills).where(eq(tills.branchId, branch.id));
    expect(rows).toHaveLength(1);
    // Another cashier at the same branch has a till of their own.
    const other = await t.userWithSession('manager', { branchId: branch.id });
    expect((await open(other.token, body)).status).toBe(201);
  });

  it('refuses bad input with 400 and a clear message, and an unknown branch with 404', async () => {
    const { branch, cashier } = await desk();
    const cases: Array<[unknown, number, string]> = [
      [
        { branchId: branch.id, openingFloat: [{ currency: 'LKR', amount: -1 }] },
        400,
        'Each amount must be 0 or more with at most two decimals.',
      ],
      [
        { branchId: branch.id, openingFloat: [{ currency: 'LKR', amount: 1.005 }] },
        400,
        'Each amount must be 0 or more with at most two decimals.',
      ],
      [
        { branchId: branch.id, openingFloat: [{ currency: 'RUPEES', amount: 1 }] },
        400,
        'Currency must be a 3-letter currency code, such as LKR or USD.',
      ],
      [
        {
          branchId: branch.id,
          openingFloat: [
            { currency: 'LKR', amount: 1 },
            { currency: 'lkr', amount: 2 },
          ],
        },
        400,
        'Each currency can be listed only once.',
      ],
      [{ branchId: '00000000-0000-4000-8000-000000000000' }, 404, 'Branch not found.'],
      [{ branchId: 'nope' }, 404, 'Branch not found.'],
    ];
    for (const [body, status, message] of cases) {
      const res = await open(cashier.token, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.message).toBe(message);
    }
    expect(await t.deps.db.select().from(tills).where(eq(tills.branchId, branch.id))).toHaveLength(0);
  });
});

describe('closing a till', () => {
  it('expects the float plus the cash payments taken into it, and needs a note when the count differs', async () => {
    const { branch, cashier } = await desk();
    const till = (await open(cashier.token, { branchId: branch.id, openingFloat: [{ currency: 'LKR', amount: 5000 }] }))
      .body;
    const e = await enrol(branch.id);
    expect((await pay(cashier.token, { enrollmentId: e, amount: 3000, method: 'cash' })).status).toBe(201);
    expect((await pay(cashier.token, { enrollmentId: e, amount: 1500.25, method: 'cash' })).status).toBe(201);
    // Not cash, and cash taken by someone else: neither goes into this till.
    expect((await pay(cashier.token, { enrollmentId: e, amount: 700, method: 'card' })).status).toBe(201);
    expect((await pay(admin.token, { enrollmentId: e, amount: 100, method: 'cash' })).status).toBe(201);
    // A voided cash payment leaves the till.
    const voided = await pay(cashier.token, { enrollmentId: e, amount: 200, method: 'cash' });
    expect(
      (await t.api('POST', `/api/payments/${voided.body._id}/void`, { token: admin.token, body: { reason: 'typo' } }))
        .status,
    ).toBe(200);

    const live = await t.api('GET', `/api/tills/${till._id}`, { token: cashier.token });
    expect(live.body).toMatchObject({ expected: [{ currency: 'LKR', amount: 9500.25 }], payments: 2 });

    const short = await close(cashier.token, till._id, { counted: [{ currency: 'LKR', amount: 9400.25 }] });
    expect(short.status).toBe(400);
    expect(short.body.message).toBe('The counted cash differs from the expected amount: add a note saying why.');
    expect((await t.api('GET', `/api/tills/${till._id}`, { token: cashier.token })).body.status).toBe('open');

    const closed = await close(cashier.token, till._id, {
      counted: [{ currency: 'LKR', amount: 9400.25 }],
      note: 'Change given twice',
    });
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({
      status: 'closed',
      closedAt: expect.any(String),
      closedBy: { _id: cashier.id, username: cashier.username, fullName: cashier.fullName },
      openingFloat: [{ currency: 'LKR', amount: 5000 }],
      expected: [{ currency: 'LKR', amount: 9500.25 }],
      counted: [{ currency: 'LKR', amount: 9400.25 }],
      difference: [{ currency: 'LKR', amount: -100 }],
      note: 'Change given twice',
    });
    expect(
      (await close(cashier.token, till._id, { counted: [{ currency: 'LKR', amount: 1 }], note: 'x' })).status,
    ).toBe(409);
  });

  it('closes without a note when the count matches; a currency only counted shows as a difference', async () => {
    const { branch, cashier } = await desk();
    const till = (await open(cashier.token, { branchId: branch.id, openingFloat: [{ currency: 'LKR', amount: 2000 }] }))
      .body;
    const ok = await close(cashier.token, till._id, { counted: [{ currency: 'LKR', amount: 2000 }] });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ difference: [{ currency: 'LKR', amount: 0 }], note: null });

    const again = (await open(cashier.token, { branchId: branch.id, openingFloat: [] })).body;
    const extra = await close(cashier.token, again._id, { counted: [{ currency: 'USD', amount: 10 }] });
    expect(extra.status).toBe(400);
    const noted = await close(cashier.token, again._id, { counted: [{ currency: 'USD', amount: 10 }], note: 'Found' });
    expect(noted.body).toMatchObject({
      openingFloat: [],
      expected: [{ currency: 'USD', amount: 0 }],
      difference: [{ currency: 'USD', amount: 10 }],
    });
  });

  it('lets the cashier close their own till and an admin anyone’s, not another manager', async () => {
    const { branch, cashier } = await desk();
    const till = (await open(cashier.token, { branchId: branch.id })).body;
    const colleague = await t.userWithSession('manager', { branchId: branch.id });
    const refused = await close(colleague.token, till._id, { counted: [{ currency: 'LKR', amount: 0 }] });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Only the cashier who opened this till or an admin can close it.');
    expect((await close(admin.token, till._id, { counted: [{ currency: 'LKR', amount: 0 }] })).body).toMatchObject({
      status: 'closed',
      closedBy: { _id: admin.id, username: admin.username, fullName: admin.fullName },
    });
    expect((await close(admin.token, '00000000-0000-4000-8000-000000000000', { counted: [] })).status).toBe(400);
    expect(
      (await close(admin.token, '00000000-0000-4000-8000-000000000000', { counted: [{ currency: 'LKR', amount: 0 }] }))
        .status,
    ).toBe(404);
  });
});

describe('the audit trail', () => {
  it('records the open with its float and the close with its count and difference', async () => {
    const { branch, cashier } = await desk();
    const till = (
      await open(cashier.token, {
        branchId: branch.id,
        openingFloat: [{ currency: 'LKR', amount: 2500 }],
      })
    ).body;
    const history = async () =>
      (await t.trpc(admin.token).audit.forEntity.query({ entityType: 'till', entityId: till._id })).items;
    const [opened] = await history();
    expect(opened).toMatchObject({
      action: 'open',
      actor: { id: cashier.id },
      summary: `Opened a till at ${branch.name} with Rs. 2,500.00`,
    });
    expect(opened!.changes).toContainEqual({
      field: 'openingFloat',
      before: null,
      after: [{ currency: 'LKR', amount: 2500 }],
    });

    // A refused close (a difference without a note) records nothing.
    expect((await close(cashier.token, till._id, { counted: [{ currency: 'LKR', amount: 2400 }] })).status).toBe(400);
    expect(await history()).toHaveLength(1);
    expect(
      (await close(admin.token, till._id, { counted: [{ currency: 'LKR', amount: 2400 }], note: 'Short' })).status,
    ).toBe(200);
    const entries = await history();
    expect(entries.map((e) => e.action)).toEqual(['close', 'open']);
    expect(entries[0]).toMatchObject({
      actor: { id: admin.id },
      summary: `Closed the till of ${cashier.username} at ${branch.name}: Rs. 2,400.00 counted, difference -Rs. 100.00`,
    });
    expect(entries[0]!.changes).toEqual([
      { field: 'status', before: 'open', after: 'closed' },
      { field: 'amounts', before: null, after: [{ currency: 'LKR', expected: 2500, counted: 2400, difference: -100 }] },
      { field: 'note', before: null, after: 'Short' },
    ]);
  });
});

describe('the day lock', () => {
  it('refuses a payment back-dated into a day whose tills are all closed, and a payment today once today is closed', async () => {
    const { branch, cashier } = await desk();
    const e = await enrol(branch.id);
    // The enrolment was entered a week ago, so back-dated payments are not refused as before it existed.
    await t.deps.db
      .update(enrollments)
      .set({ createdAt: new Date(Date.now() - 7 * 86_400_000), enrolledOn: noonDaysAgo(7).day })
      .where(eq(enrollments.id, e));
    const yesterday = noonDaysAgo(1);
    // A till of yesterday's, closed (tills open "now", so it is written as it would have been).
    await t.deps.db.insert(tills).values({
      branchId: branch.id,
      branchName: branch.name,
      cashierId: cashier.id,
      cashierName: cashier.username,
      openedAt: new Date(yesterday.at),
      openingDay: yesterday.day,
      status: 'closed',
      closedAt: new Date(yesterday.at),
      closedByName: cashier.username,
    });
    const refused = await pay(cashier.token, {
      enrollmentId: e,
      amount: 100,
      method: 'card',
      receivedAt: yesterday.at,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/is closed at this branch: every till opened there that day has been closed/);
    // The day before has no tills: it is open.
    const twoDaysAgo = noonDaysAgo(2);
    expect(
      (await pay(cashier.token, { enrollmentId: e, amount: 100, method: 'card', receivedAt: twoDaysAgo.at })).status,
    ).toBe(201);

    // Today: open while a till is open, locked once it is closed, open again with a new till.
    const till = (await open(cashier.token, { branchId: branch.id })).body;
    expect((await pay(cashier.token, { enrollmentId: e, amount: 100, method: 'cash' })).status).toBe(201);
    expect((await close(cashier.token, till._id, { counted: [{ currency: 'LKR', amount: 100 }] })).status).toBe(200);
    expect((await pay(cashier.token, { enrollmentId: e, amount: 100, method: 'cash' })).status).toBe(409);
    expect((await open(cashier.token, { branchId: branch.id })).status).toBe(201);
    expect((await pay(cashier.token, { enrollmentId: e, amount: 100, method: 'cash' })).status).toBe(201);
  });

  it('lets only an admin void a payment of a locked day; the closed till keeps its figures', async () => {
    const { branch, cashier } = await desk();
    const e = await enrol(branch.id);
    const till = (await open(cashier.token, { branchId: branch.id })).body;
    const p = (await pay(cashier.token, { enrollmentId: e, amount: 400, method: 'cash' })).body;
    await close(cashier.token, till._id, { counted: [{ currency: 'LKR', amount: 400 }] });

    const byManager = await t.api('POST', `/api/payments/${p._id}/void`, {
      token: cashier.token,
      body: { reason: 'wrong student' },
    });
    expect(byManager.status).toBe(403);
    const byAdmin = await t.api('POST', `/api/payments/${p._id}/void`, {
      token: admin.token,
      body: { reason: 'wrong student' },
    });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body).toMatchObject({ status: 'void', voidedAt: expect.any(String) });
    // Closed figures are what the close showed; the void is dated the day it was made.
    expect((await t.api('GET', `/api/tills/${till._id}`, { token: admin.token })).body).toMatchObject({
      expected: [{ currency: 'LKR', amount: 400 }],
      counted: [{ currency: 'LKR', amount: 400 }],
      difference: [{ currency: 'LKR', amount: 0 }],
    });
  });

  it('waits for a payment being written before closing the till, so the close counts it', async () => {
    const { branch, cashier } = await desk();
    const e = await enrol(branch.id);
    const till = (await open(cashier.token, { branchId: branch.id })).body;
    const payments = Array.from({ length: 4 }, () =>
      pay(cashier.token, { enrollmentId: e, amount: 50, method: 'cash' }),
    );
    const closing = close(cashier.token, till._id, { counted: [{ currency: 'LKR', amount: 0 }], note: 'count later' });
    const [answers, closed] = await Promise.all([Promise.all(payments), closing]);
    const taken = answers.filter((a) => a.status === 201).length;
    // Every payment either went into the till before it closed, or was refused after (the day is locked).
    expect(answers.every((a) => a.status === 201 || a.status === 409)).toBe(true);
    expect(closed.body.expected).toEqual([{ currency: 'LKR', amount: taken * 50 }]);
    expect(closed.body.payments).toBe(taken);
  });
});

describe('the till setting', () => {
  it('is off by default; when on, a cash payment without an open till is refused with 409', async () => {
    const { branch, cashier } = await desk();
    const e = await enrol(branch.id);
    expect((await t.api('GET', '/api/tills/settings', { token: cashier.token })).body).toEqual({ tillRequired: false });
    expect((await pay(cashier.token, { enrollmentId: e, amount: 10, method: 'cash' })).status).toBe(201);
    expect(
      (await t.api('PUT', '/api/tills/settings', { token: cashier.token, body: { tillRequired: true } })).status,
    ).toBe(403);
    expect(
      (await t.api('PUT', '/api/tills/settings', { token: admin.token, body: { tillRequired: true } })).body,
    ).toEqual({ tillRequired: true });
    try {
      const refused = await pay(cashier.token, { enrollmentId: e, amount: 10, method: 'cash' });
      expect(refused.status).toBe(409);
      expect(refused.body.message).toBe('Open a till at this branch before taking a cash payment.');
      expect((await pay(cashier.token, { enrollmentId: e, amount: 10, method: 'card' })).status).toBe(201);
      await open(cashier.token, { branchId: branch.id });
      expect((await pay(cashier.token, { enrollmentId: e, amount: 10, method: 'cash' })).status).toBe(201);
    } finally {
      await t.api('PUT', '/api/tills/settings', { token: admin.token, body: { tillRequired: false } });
    }
  });
});

describe('roles', () => {
  it('lets staff work with tills and nobody else', async () => {
    const { branch } = await desk();
    const student = await t.userWithSession('student', { branchId: branch.id });
    expect((await open(student.token, { branchId: branch.id })).status).toBe(403);
    expect((await t.api('GET', '/api/tills', { token: student.token })).status).toBe(403);
    expect((await t.api('GET', '/api/tills')).status).toBe(401);
    await expect(t.trpc(student.token).tills.list.query({})).rejects.toMatchObject({ data: { code: 'FORBIDDEN' } });
    const superadmin = await t.userWithSession('superadmin');
    const mine = await t.trpc(superadmin.token).tills.open.mutate({ branchId: branch.id, openingFloat: [] });
    expect(mine.status).toBe('open');
    const list = await t.trpc(superadmin.token).tills.list.query({ mine: true, status: 'open' });
    expect(list.data.map((x) => x._id)).toEqual([mine._id]);
  });

  it('keeps a manager limited to their branch to that branch', async () => {
    const { branch, cashier } = await desk();
    const other = await makeBranch(t.deps.db);
    await t.trpc(admin.token).settings.updateAccess.mutate({ managersOwnBranchOnly: true });
    try {
      const refused = await open(cashier.token, { branchId: other.id });
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe('You can only open a till at your own branch.');
      const theirs = (await open(admin.token, { branchId: other.id })).body;
      expect((await t.api('GET', `/api/tills/${theirs._id}`, { token: cashier.token })).status).toBe(404);
      expect((await open(cashier.token, { branchId: branch.id })).status).toBe(201);
    } finally {
      await t.trpc(admin.token).settings.updateAccess.mutate({ managersOwnBranchOnly: false });
    }
  });
});
