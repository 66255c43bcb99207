import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeBranch, makeUser, postCourse, postTreatment, type MadeUser } from '../helpers/factories';

/**
 * Keyset paging (docs/performance.md#keyset-paging): following `nextCursor` page by page returns
 * every row that existed when paging began exactly once, while new rows are written between
 * pages; and the same page number without a cursor still answers the page by its number.
 */
let t: TestApp;
let admin: MadeUser & { token: string };
let branchId: string;
let courseId: string;

beforeAll(async () => {
  t = await startTestApp();
  branchId = (await makeBranch(t.deps.db, { name: 'Negombo' })).id;
  admin = await t.userWithSession('superadmin');
  courseId = await postCourse(t, admin.token, 'Keyset', { totalFee: 1000, installments: 2, admissionFee: 0 });
});
afterAll(async () => {
  await t?.close();
});

interface Listed {
  items: Array<{ _id: string }>;
  total: number;
  nextCursor?: string | null;
}

/** Every page from 1 on, following the cursor; `between` writes rows after each page. */
async function pageThrough(list: (page: number, cursor?: string) => Promise<Listed>, between: () => Promise<void>) {
  const seen: string[] = [];
  let cursor: string | undefined;
  for (let page = 1; page < 100; page++) {
    const res = await list(page, cursor);
    seen.push(...res.items.map((r) => r._id));
    if (!res.nextCursor) return seen;
    cursor = res.nextCursor;
    await between();
  }
  throw new Error('paging did not end');
}

function expectEachOnce(seen: string[], before: string[]) {
  expect(new Set(seen).size).toBe(seen.length);
  expect(new Set(seen)).toEqual(new Set(before));
}

let n = 0;
const newStudent = () => makeUser(t.deps.db, { role: 'student', branchId, username: `keyset${++n}` });
const enrol = async (student: MadeUser) => {
  const api = t.trpc(admin.token);
  return api.enrollments.create.mutate({ userId: student.id, courseId, paymentType: 'installment' });
};

describe('keyset paging', () => {
  it('users: every row exactly once while users are added between pages, in both orders', async () => {
    for (let i = 0; i < 30; i++) await newStudent();
    const api = t.trpc(admin.token);
    for (const [sortBy, sortDir] of [
      ['createdAt', 'desc'],
      ['username', 'asc'],
    ] as const) {
      const all = await api.users.list.query({ page: 1, pageSize: 200, sortBy, sortDir });
      const before = all.items.map((u) => u._id);
      const seen = await pageThrough(
        (page, cursor) => api.users.list.query({ page, pageSize: 7, sortBy, sortDir, cursor }),
        async () => {
          // New rows at both ends of either order.
          await newStudent();
          await makeUser(t.deps.db, { role: 'student', branchId, username: `aaa${++n}` });
        },
      );
      const added = seen.filter((id) => !before.includes(id));
      expectEachOnce(
        seen.filter((id) => before.includes(id)),
        before,
      );
      expect(new Set(added).size).toBe(added.length);
    }
  });

  it('page numbers without a cursor shift when rows are added (what the cursor avoids)', async () => {
    const api = t.trpc(admin.token);
    const page1 = await api.users.list.query({ page: 1, pageSize: 5 });
    await newStudent();
    const page2 = await api.users.list.query({ page: 2, pageSize: 5 });
    expect(page2.items[0]!._id).toBe(page1.items[4]!._id);
    const byCursor = await api.users.list.query({ page: 2, pageSize: 5, cursor: page1.nextCursor! });
    expect(byCursor.items.map((u) => u._id)).not.toContain(page1.items[4]!._id);
  });

  it('enrolments: every row exactly once while enrolments are added, sorted by date and by student', async () => {
    for (let i = 0; i < 24; i++) await enrol(await newStudent());
    const api = t.trpc(admin.token);
    for (const [sortBy, sortDir] of [
      ['createdAt', 'desc'],
      ['username', 'asc'],
    ] as const) {
      const all = await api.enrollments.list.query({ page: 1, pageSize: 200, sortBy, sortDir });
      const before = all.items.map((e) => e._id);
      const seen = await pageThrough(
        (page, cursor) => api.enrollments.list.query({ page, pageSize: 5, sortBy, sortDir, cursor }),
        async () => {
          await enrol(await newStudent());
        },
      );
      expectEachOnce(
        seen.filter((id) => before.includes(id)),
        before,
      );
    }
  });

  it('payments: every row exactly once while payments are recorded between pages', async () => {
    const api = t.trpc(admin.token);
    const targets: Array<{ _id: string }> = [];
    for (let i = 0; i < 20; i++) targets.push(await enrol(await newStudent()));
    for (const e of targets.slice(0, 14))
      await api.payments.record.mutate({ enrollmentId: e._id, amount: 100, method: 'cash' });
    const all = await api.payments.list.query({ page: 1, pageSize: 200 });
    const before = all.items.map((p) => p._id);
    let next = 14;
    const seen = await pageThrough(
      (page, cursor) => api.payments.list.query({ page, pageSize: 4, cursor }),
      async () => {
        await api.payments.record.mutate({
          enrollmentId: targets[next++ % targets.length]!._id,
          amount: 50,
          method: 'cash',
        });
      },
    );
    expectEachOnce(
      seen.filter((id) => before.includes(id)),
      before,
    );
  });

  it('bookings: every row exactly once while bookings are made between pages', async () => {
    const tr = await postTreatment(t, admin.token, {
      treatmentName: 'Keyset Therapy',
      localPrice: 3000,
      foreignPrice: 30,
      maxSessions: 2,
      installments: 1,
      duration: { weeks: 1, days: 0, months: 0 },
    });
    const book = async () => {
      const customer = await makeUser(t.deps.db, { role: 'customer', branchId, username: `keysetc${++n}` });
      const res = await t.api('POST', '/api/bookings/book', {
        token: admin.token,
        body: { userId: customer.id, treatmentId: tr._id, userType: 'local', paymentType: 'full' },
      });
      expect(res.status).toBe(201);
    };
    for (let i = 0; i < 13; i++) await book();
    const api = t.trpc(admin.token);
    const all = await api.bookings.list.query({ page: 1, pageSize: 200 });
    const before = all.items.map((b) => b._id);
    const seen = await pageThrough((page, cursor) => api.bookings.list.query({ page, pageSize: 4, cursor }), book);
    expectEachOnce(
      seen.filter((id) => before.includes(id)),
      before,
    );
  });

  it('a cursor of another order, or of a deleted row, falls back to the page number', async () => {
    const api = t.trpc(admin.token);
    const byName = await api.users.list.query({ page: 1, pageSize: 5, sortBy: 'username', sortDir: 'asc' });
    const page2 = await api.users.list.query({ page: 2, pageSize: 5 });
    const wrongOrder = await api.users.list.query({ page: 2, pageSize: 5, cursor: byName.nextCursor! });
    expect(wrongOrder.items.map((u) => u._id)).toEqual(page2.items.map((u) => u._id));

    const victim = await newStudent();
    const first = await api.users.list.query({ page: 1, pageSize: 1 });
    expect(first.items[0]!._id).toBe(victim.id);
    expect((await t.api('DELETE', `/api/users/${victim.id}`, { token: admin.token })).status).toBe(200);
    const afterGone = await api.users.list.query({ page: 2, pageSize: 1, cursor: first.nextCursor! });
    const numbered = await api.users.list.query({ page: 2, pageSize: 1 });
    expect(afterGone.items).toEqual(numbered.items);

    await expect(api.users.list.query({ page: 2, cursor: 'x'.repeat(201) })).rejects.toThrow(
      'The list cursor is too long.',
    );
  });
});

describe('list totals', () => {
  it('page 1 reuses its count until this server writes, and another server sees a change within the lifetime', async () => {
    const api = t.trpc(admin.token);
    const total = async (server = api) => (await server.users.list.query({ page: 1, pageSize: 5 })).total;
    const counted = await total();
    // A row this server did not write (another server, a script) is not counted yet: page 1 reuses
    // the total (the row itself is listed: only the count is reused)...
    const outside = await newStudent();
    const page1 = await api.users.list.query({ page: 1, pageSize: 5 });
    expect(page1.total).toBe(counted);
    expect(page1.items.map((u) => u._id)).toContain(outside.id);
    // ...until this server handles a write, whoever makes it: here a new branch.
    await api.branches.create.mutate({ name: `Totals ${Date.now()}`, location: 'Kandy' });
    expect(await total()).toBe(counted + 1);

    // A second server on the same database, reusing reads for 1 second: a user added outside it
    // shows in its total once that second has passed, never later.
    const other = await startTestApp({ DASHBOARD_CACHE_SECONDS: 1 }, { sameDatabaseAs: t });
    try {
      const otherApi = other.trpc(admin.token);
      const seen = await total(otherApi);
      await newStudent();
      expect(await total(otherApi)).toBe(seen);
      await new Promise((r) => setTimeout(r, 1_100));
      expect(await total(otherApi)).toBe(seen + 1);
    } finally {
      await other.close();
    }
  });
});
