import http from 'node:http';
import zlib from 'node:zlib';
import type { PGlite } from '@electric-sql/pglite';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { users } from '../../src/server/db/schema';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeBranch, makeUser, type MadeUser } from '../helpers/factories';

/**
 * The embedded mode's reused pages (docs/performance.md#embedded-reuse), on the server as
 * `npm start` runs it without DATABASE_URL: a list page asked for again with nothing changed is
 * not read from the database again, and any change, made through a request or straight in the
 * database (as an in-process job writes), shows on the next read; one caller's page is never
 * another's.
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

  it('show a change made straight in the database (as an in-process job writes) on the next read', async () => {
    const api = t.trpc(admin.token);
    const before = await api.users.list.query(firstPage);
    const added = await makeUser(t.deps.db, { role: 'student', branchId: branchB, fullName: 'Straight In' });
    const after = await api.users.list.query(firstPage);
    expect(after.total).toBe(before.total + 1);
    expect(after.items[0]).toMatchObject({ _id: added.id, fullName: 'Straight In' });

    // In a transaction, as the services write.
    await t.deps.db.transaction(async (tx) => {
      await tx.update(users).set({ fullName: 'Renamed In A Transaction' }).where(eq(users.id, added.id));
    });
    const renamed = await api.users.list.query(firstPage);
    expect(renamed.items[0]).toMatchObject({ _id: added.id, fullName: 'Renamed In A Transaction' });

    await t.deps.db.delete(users).where(eq(users.id, added.id));
    const removed = await api.users.list.query(firstPage);
    expect(removed.total).toBe(before.total);
    expect(removed.items.map((u) => u._id)).not.toContain(added.id);
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

  it('are still reused after a write that touched no row', async () => {
    const api = t.trpc(admin.token);
    const first = await api.users.list.query(firstPage);
    await t.deps.db
      .update(users)
      .set({ fullName: 'Nobody' })
      .where(eq(users.id, '00000000-0000-0000-0000-000000000000'));
    const again = await counted(() => api.users.list.query(firstPage));
    expect(again.statements).toBe(0);
    expect(again.answer).toEqual(first);
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

/** A raw GET, so the answer's bytes and headers are seen as sent (fetch would decode them). */
function rawGet(path: string, token: string, acceptEncoding?: string) {
  return new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (acceptEncoding !== undefined) headers['accept-encoding'] = acceptEncoding;
    http
      .get(t.baseUrl + path, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

describe('a reused page over the wire', () => {
  it('is compressed as the client asks, like any other answer', async () => {
    const path = `/trpc/users.list?batch=1&input=${encodeURIComponent(JSON.stringify({ 0: firstPage }))}`;
    const plain = await rawGet(path, admin.token);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);
    const first = await rawGet(path, admin.token, 'gzip, deflate, br');
    expect(first.headers['content-encoding']).toBe('br');
    expect(first.headers.vary).toContain('accept-encoding');
    expect(zlib.brotliDecompressSync(first.body)).toEqual(plain.body);
    // The client's preferences decide, as for any other answer.
    const gzip = await rawGet(path, admin.token, 'br;q=0, gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.body)).toEqual(plain.body);
    const none = await rawGet(path, admin.token, 'identity');
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(none.body).toEqual(plain.body);
  });
});
