import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readSession, sessionIdOf } from '../../src/server/auth/sessions';
import { invalidateReads } from '../../src/server/domains/read-cache';
import { updateUser } from '../../src/server/domains/users/users.service';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeBranch, makeUser, type MadeUser } from '../helpers/factories';

/**
 * The embedded mode's reused pages (docs/performance.md#embedded-reuse), on the server as
 * `npm start` runs it without DATABASE_URL: a list page asked for again with nothing changed is
 * not read from the database again, and a change made by the server's services (through a
 * request, or outside one as an in-process job does) shows on the next read; one caller's page is
 * never another's.
 */
let t: TestApp;
let admin: MadeUser & { token: string };
let managerA: MadeUser & { token: string };
let branchA: string;
let branchB: string;
/** The PGlite client under the server's drizzle: the statements it runs are counted here. */
let client: PGlite;

beforeAll(async () => {
  t = await startTestApp({}, { embedded: true });
  expect(t.deps.dbHandle.kind).toBe('pglite');
  client = (t.deps.db as unknown as { $client: PGlite }).$client;
  branchA = (await makeBranch(t.deps.db, { name: 'Kandy' })).id;
  branchB = (await makeBranch(t.deps.db, { name: 'Galle' })).id;
  admin = await t.userWithSession('superadmin');
  managerA = await t.userWithSession('manager', { branchId: branchA });
  for (let i = 0; i < 3; i++) {
    await makeUser(t.deps.db, { role: 'student', branchId: branchA });
    await makeUser(t.deps.db, { role: 'student', branchId: branchB });
  }
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const firstPage = { page: 1, pageSize: 10, sortBy: 'createdAt', sortDir: 'desc' } as const;

/** The statements the database ran while `run` ran, and its answer. */
async function counted<T>(run: () => Promise<T>): Promise<{ answer: T; statements: number }> {
  const spy = vi.spyOn(client, 'query');
  try {
    const answer = await run();
    return { answer, statements: spy.mock.calls.length };
  } finally {
    spy.mockRestore();
  }
}

describe('embedded list pages', () => {
  it('are not read again while nothing changed', async () => {
    const api = t.trpc(admin.token);
    const first = await api.users.list.query(firstPage);
    const again = await counted(() => api.users.list.query(firstPage));
    expect(again.answer).toEqual(first);
    expect(again.statements).toBe(0);
    // Another page, or another order, is another answer.
    const other = await counted(() => api.users.list.query({ ...firstPage, sortDir: 'asc' }));
    expect(other.statements).toBeGreaterThan(0);
    expect(other.answer.items.map((u) => u._id)).not.toEqual(first.items.map((u) => u._id));
  });

  it('show a change a service made outside a request (as an in-process job does) on the next read', async () => {
    const api = t.trpc(admin.token);
    const student = await makeUser(t.deps.db, { role: 'student', branchId: branchB, fullName: 'Before' });
    // The factory writes straight to the database, as no service does: it says so itself.
    invalidateReads(t.deps);
    const before = await api.users.list.query(firstPage);
    expect(before.items[0]).toMatchObject({ _id: student.id, fullName: 'Before' });

    const actor = (await readSession(t.deps.db, sessionIdOf(admin.token)!, t.deps.sessionPolicy))!;
    await updateUser(
      { db: t.deps.db, actor, deps: t.deps },
      { id: student.id, fullName: 'Renamed By A Service', branchId: undefined },
    );
    const after = await api.users.list.query(firstPage);
    expect(after.items[0]).toMatchObject({ _id: student.id, fullName: 'Renamed By A Service' });
  });

  it('show a change made through a request at once', async () => {
    const api = t.trpc(admin.token);
    const student = await makeUser(t.deps.db, { role: 'student', branchId: branchA });
    await api.users.list.query(firstPage);
    const updated = await t.api('PUT', `/api/users/${student.id}`, {
      token: admin.token,
      body: { fullName: 'Changed Over REST' },
    });
    expect(updated.status).toBe(200);
    const after = await api.users.list.query(firstPage);
    expect(after.items.find((u) => u._id === student.id)).toMatchObject({ fullName: 'Changed Over REST' });
  });

  it('are read again after a write through tRPC', async () => {
    const api = t.trpc(admin.token);
    const student = await makeUser(t.deps.db, { role: 'student', branchId: branchA });
    await api.users.list.query(firstPage);
    await api.users.update.mutate({ id: student.id, fullName: 'Changed Over tRPC' });
    const after = await counted(() => api.users.list.query(firstPage));
    expect(after.statements).toBeGreaterThan(0);
    expect(after.answer.items.find((u) => u._id === student.id)).toMatchObject({ fullName: 'Changed Over tRPC' });
  });

  it("never give one caller's page to another, nor one from before the branch setting changed", async () => {
    const wide = { ...firstPage, pageSize: 100 };
    const all = await t.trpc(admin.token).users.list.query(wide);
    expect(new Set(all.items.map((u) => u.branch?._id))).toEqual(new Set([branchA, branchB, undefined]));
    // "Managers see only their own branch" is off: the manager sees everyone, like the superadmin.
    expect((await t.trpc(managerA.token).users.list.query(wide)).total).toBe(all.total);

    await t.trpc(admin.token).settings.updateAccess.mutate({ managersOwnBranchOnly: true });
    const mine = await t.trpc(managerA.token).users.list.query(wide);
    expect(mine.items.length).toBeGreaterThan(0);
    expect(mine.items.every((u) => u.branch?._id === branchA)).toBe(true);
    expect(mine.total).toBeLessThan(all.total);
    expect((await t.trpc(admin.token).users.list.query(wide)).total).toBe(all.total);
  });
});
