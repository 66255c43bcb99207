import { TRPCClientError } from '@trpc/client';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeBranch } from '../helpers/factories';

/*
 * One mapping answers every error on both transports (answerFor in src/server/errors.ts). A
 * constraint that a service's own check cannot see is made here for real: a second connection
 * holds a conflicting row in an open transaction, so the service's check passes (the row is not
 * committed), its INSERT waits on the row's lock, and fails when the holder commits. The same
 * race goes once over REST and once over tRPC, and both answer 409 with the same message.
 */

let t: TestApp;
let admin: string;
let sql: postgres.Sql;

beforeAll(async () => {
  t = await startTestApp();
  admin = (await t.userWithSession('superadmin')).token;
  sql = postgres(t.deps.config.DATABASE_URL!, { max: 1, onnotice: () => {} });
  // A first call of each kind, so that the raced ones meet a warm server.
  await t.api('GET', '/api/branch', { token: admin });
  await t.trpc(admin).branches.options.query();
});
afterAll(async () => {
  await sql?.end();
  await t?.close();
});

/**
 * Resolves once some statement of the server waits on a lock, i.e. it reached the held row. The
 * call cannot finish before that (its INSERT needs the lock), so this only waits for a busy
 * machine: up to a minute.
 */
async function someoneWaitsOnALock(tx: postgres.TransactionSql) {
  for (let i = 0; i < 3000; i++) {
    const [row] = await tx<{ n: number }[]>`
      select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`;
    if (row!.n > 0) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('no statement ever waited on the held row');
}

/**
 * Runs `hold` in a transaction on the second connection, then `call` while it is open; commits
 * once the call waits on the lock, and answers what the call answered.
 */
async function raced<T>(hold: (tx: postgres.TransactionSql) => Promise<unknown>, call: () => Promise<T>): Promise<T> {
  let answer!: Promise<T>;
  await sql.begin(async (tx) => {
    await hold(tx);
    answer = call();
    // Not awaited here: a failed call is read below, after the commit let it finish.
    answer.catch(() => {});
    await someoneWaitsOnALock(tx);
  });
  return answer;
}

/** A tRPC call's failure as the caller reads it: the HTTP status and the message. */
async function trpcFailure(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    if (!(err instanceof TRPCClientError)) throw err;
    const data = err.data as { httpStatus?: number; code?: string } | undefined;
    return { status: data?.httpStatus, code: data?.code, message: err.message };
  }
  throw new Error('the call succeeded');
}

describe('a unique violation the service could not see', { timeout: 120_000 }, () => {
  const holdName = (name: string) => (tx: postgres.TransactionSql) =>
    tx`insert into branches (name, location) values (${name}, 'Held')`;

  it('answers 409 over REST (POST /api/branch)', async () => {
    const res = await raced(holdName('Race REST'), () =>
      t.api('POST', '/api/branch', { token: admin, body: { name: 'RACE rest', location: 'Road' } }),
    );
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: 'That record already exists.', code: 'CONFLICT' });
  });

  it('answers 409 over tRPC (branches.create), with the same message', async () => {
    const res = await trpcFailure(
      raced(holdName('Race tRPC'), () => t.trpc(admin).branches.create.mutate({ name: 'race TRPC', location: 'Road' })),
    );
    expect(res).toEqual({ status: 409, code: 'CONFLICT', message: 'That record already exists.' });
  });

  it('leaves only the row that won', async () => {
    const rows = await sql`select name from branches where lower(name) in ('race rest', 'race trpc') order by name`;
    expect(rows.map((r) => r.name)).toEqual(['Race REST', 'Race tRPC']);
  });
});

describe('a foreign-key violation the service could not see', { timeout: 120_000 }, () => {
  /** The user's branch is deleted by another transaction while the user is being created. */
  const user = (name: string, branchId: string) => ({
    username: name,
    fullName: 'Raced User',
    email: `${name}@example.com`,
    password: 'a-long-password-1',
    role: 'user' as const,
    branchId,
  });
  const holdDelete = (id: string) => (tx: postgres.TransactionSql) => tx`delete from branches where id = ${id}`;

  it('answers 409 over REST (POST /api/users) and over tRPC (users.create)', async () => {
    const first = await makeBranch(t.deps.db);
    const rest = await raced(holdDelete(first.id), () =>
      t.api('POST', '/api/users', { token: admin, body: user('raced-rest', first.id) }),
    );
    expect(rest.status).toBe(409);
    expect(rest.body).toEqual({ message: 'That record is still referenced elsewhere.', code: 'CONFLICT' });

    const second = await makeBranch(t.deps.db);
    const trpc = await trpcFailure(
      raced(holdDelete(second.id), () => t.trpc(admin).users.create.mutate(user('raced-trpc', second.id))),
    );
    expect(trpc).toEqual({ status: 409, code: 'CONFLICT', message: 'That record is still referenced elsewhere.' });
    const [left] = await sql`select count(*)::int as n from users where username in ('raced-rest', 'raced-trpc')`;
    expect(left!.n).toBe(0);
  });
});

describe('the same answer for the same refusal on both transports', () => {
  it('a refused input: 400 with the first issue and its details', async () => {
    const rest = await t.api('POST', '/api/branch', { token: admin, body: { name: 'x'.repeat(101), location: 'y' } });
    const trpc = await trpcFailure(t.trpc(admin).branches.create.mutate({ name: 'x'.repeat(101), location: 'y' }));
    expect(rest.status).toBe(400);
    expect(trpc).toMatchObject({ status: 400, message: rest.body.message });
    expect(rest.body.message).toBe('Branch name must be at most 100 characters.');
  });

  it("a service's own conflict: 409 with its message", async () => {
    await makeBranch(t.deps.db, { name: 'Kandy Twice' });
    const rest = await t.api('POST', '/api/branch', { token: admin, body: { name: 'kandy twice', location: 'y' } });
    const trpc = await trpcFailure(t.trpc(admin).branches.create.mutate({ name: 'KANDY TWICE', location: 'y' }));
    expect(rest).toMatchObject({ status: 409, body: { message: 'A branch with this name already exists.' } });
    expect(trpc).toEqual({ status: 409, code: 'CONFLICT', message: 'A branch with this name already exists.' });
  });
});

describe("tRPC's own refusals, through its Fastify plugin", () => {
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${admin}` } });
  const q = (input: unknown) => encodeURIComponent(JSON.stringify(input));

  it('a batch of more than 20 calls: 400, and none of them runs', async () => {
    const calls = (n: number) => Array.from({ length: n }, () => 'auth.me').join(',');
    expect((await get(`/trpc/${calls(20)}?batch=1`)).statusCode).toBe(200);
    const res = await get(`/trpc/${calls(21)}?batch=1`);
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).not.toContain('"result"');
  });

  it('a mutation by GET and a query by POST: 405; nothing is created', async () => {
    const create = await get(`/trpc/branches.create?input=${q({ name: 'By GET', location: 'x' })}`);
    expect(create.statusCode).toBe(405);
    const list = await t.app.inject({
      method: 'POST',
      url: '/trpc/branches.list',
      payload: {},
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
    });
    expect(list.statusCode).toBe(405);
    expect(await sql`select 1 from branches where name = 'By GET'`).toHaveLength(0);
  });

  it('an unknown procedure: 404; input that is not JSON: 400', async () => {
    expect((await get('/trpc/branches.nope')).statusCode).toBe(404);
    expect((await get('/trpc/branches.list?input=%7Bnope')).statusCode).toBe(400);
  });
});
