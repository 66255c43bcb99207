import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { invalidateSession, readSession, sessionIdOf } from '../../src/server/auth/sessions';
import { assembleDeps } from '../../src/server/bootstrap';
import type { Db, DbHandle } from '../../src/server/db/client';
import * as schema from '../../src/server/db/schema';
import { startTestApp, type TestApp } from '../helpers/app';
import { codeIn, waitForEmail } from '../helpers/email';

// Two server instances on one database, as behind a load balancer. Each keeps its own short
// memory of validated sessions (1 s here); ending a session must hold at once on the server that
// did it and within that lifetime on the other.
const CACHE_SECONDS = 1;
let a: TestApp;
let b: TestApp;

beforeAll(async () => {
  a = await startTestApp({ SESSION_CACHE_SECONDS: CACHE_SECONDS });
  b = await startTestApp({ SESSION_CACHE_SECONDS: CACHE_SECONDS }, { sameDatabaseAs: a });
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

const me = (app: TestApp, user: { id: string; token: string }) =>
  app.api('GET', `/api/users/${user.id}`, { token: user.token });
const afterCacheLifetime = () => new Promise((r) => setTimeout(r, CACHE_SECONDS * 1000 + 200));

describe('session cache across two servers', () => {
  it('sign-out ends the session at once where it happened and within the cache lifetime elsewhere', async () => {
    const manager = await a.userWithSession('manager');
    expect((await me(a, manager)).status).toBe(200);
    expect((await me(b, manager)).status).toBe(200);

    expect((await a.api('POST', '/api/users/logout', { token: manager.token })).status).toBe(200);
    expect((await me(a, manager)).status).toBe(401);
    await afterCacheLifetime();
    expect((await me(b, manager)).status).toBe(401);
  });

  it('a role change ends the user’s sessions on both servers', async () => {
    const admin = await a.userWithSession('admin');
    const manager = await a.userWithSession('manager');
    expect((await me(a, manager)).status).toBe(200);
    expect((await me(b, manager)).status).toBe(200);

    const changed = await a.api('PUT', `/api/users/${manager.id}`, { token: admin.token, body: { role: 'student' } });
    expect(changed.status).toBe(200);
    expect((await me(a, manager)).status).toBe(401);
    await afterCacheLifetime();
    expect((await me(b, manager)).status).toBe(401);
  });

  it('deleting a user ends their sessions on both servers', async () => {
    const admin = await a.userWithSession('admin');
    const manager = await a.userWithSession('manager');
    expect((await me(b, manager)).status).toBe(200);
    expect((await me(a, manager)).status).toBe(200);

    expect((await b.api('DELETE', `/api/users/${manager.id}`, { token: admin.token })).status).toBe(200);
    expect((await me(b, manager)).status).toBe(401);
    await afterCacheLifetime();
    expect((await me(a, manager)).status).toBe(401);
  });

  it('a password reset ends the user’s sessions on both servers', async () => {
    const manager = await a.userWithSession('manager');
    expect((await me(a, manager)).status).toBe(200);
    expect((await me(b, manager)).status).toBe(200);

    expect((await a.api('POST', '/api/users/forgot-password', { body: { email: manager.email } })).status).toBe(200);
    const otp = codeIn(await waitForEmail(a.deps.db, manager.email));
    const reset = await a.api('POST', '/api/users/reset-password', {
      body: { email: manager.email, otp, password: 'a-new-secret-42' },
    });
    expect(reset.status).toBe(200);
    expect((await me(a, manager)).status).toBe(401);
    await afterCacheLifetime();
    expect((await me(b, manager)).status).toBe(401);
  });

  it('another server keeps a remembered session no longer than the cache lifetime', async () => {
    const admin = await a.userWithSession('admin');
    const manager = await a.userWithSession('manager');
    expect((await me(b, manager)).status).toBe(200);
    const changed = await a.api('PUT', `/api/users/${manager.id}`, { token: admin.token, body: { role: 'student' } });
    expect(changed.status).toBe(200);
    const started = Date.now();
    // Polled until refused: it must be refused, and within the lifetime (plus the request's own time).
    while ((await me(b, manager)).status === 200) await new Promise((r) => setTimeout(r, 50));
    expect(Date.now() - started).toBeLessThanOrEqual(CACHE_SECONDS * 1000 + 500);
  });
});

/**
 * A third server on the same database, whose every statement is written down (the job queue's own
 * background work left out).
 */
async function loggedServer() {
  const statements: string[] = [];
  const client = postgres(a.deps.config.DATABASE_URL!, { max: 2, onnotice: () => {} });
  const db: Db = drizzle({ client, schema, logger: { logQuery: (q) => statements.push(q) } });
  const handle: DbHandle = { db, kind: 'postgres', migrate: async () => {}, close: () => client.end({ timeout: 5 }) };
  const deps = await assembleDeps({ ...a.deps.config, SESSION_CACHE_SECONDS: CACHE_SECONDS }, a.deps.log, handle);
  const app = await buildApp(deps, { serveClient: false });
  return {
    app,
    deps,
    /** The user's own record, asked with their token. */
    me: (user: { id: string; token: string }) =>
      app.inject({ method: 'GET', url: `/api/users/${user.id}`, headers: { authorization: `Bearer ${user.token}` } }),
    /** Statements run since `from` (an earlier `statements.length`), background work aside. */
    since: (from: number) => statements.slice(from).filter((q) => !/outbox|job/i.test(q)),
    count: () => statements.length,
    async close() {
      await app.close();
      await deps.jobs.close();
      await handle.close();
    },
  };
}
const sessionLookUp = /from "sessions" inner join "users"/;

type LoggedServer = Awaited<ReturnType<typeof loggedServer>>;
type SignedIn = Awaited<ReturnType<TestApp['userWithSession']>>;
/** Runs `body` on a fresh logged server with a manager signed in, then closes the server. */
async function onLoggedServer(body: (server: LoggedServer, manager: SignedIn) => Promise<void>) {
  const server = await loggedServer();
  try {
    await body(server, await a.userWithSession('manager'));
  } finally {
    await server.close();
  }
}

describe('database round trips of the sign-in check', () => {
  it('one session look-up per signed-in request, none while the session is remembered', () =>
    onLoggedServer(async (server, manager) => {
      /** The statements a request ran. */
      const ranBy = async (headers: Record<string, string>) => {
        const from = server.count();
        const res = await server.app.inject({ method: 'GET', url: '/api/health', headers });
        expect(res.statusCode).toBe(200);
        return server.since(from);
      };
      const bearer = { authorization: `Bearer ${manager.token}` };

      expect(await ranBy({})).toEqual([]);
      const first = await ranBy(bearer);
      expect(first).toHaveLength(1);
      expect(first[0]).toMatch(sessionLookUp);
      expect(await ranBy(bearer)).toEqual([]);
      expect(await ranBy(bearer)).toEqual([]);
      await afterCacheLifetime();
      expect(await ranBy(bearer)).toHaveLength(1);
    }));

  it('requests that arrive together once the remembered copy ran out share one look-up', () =>
    onLoggedServer(async (server, manager) => {
      for (const round of [1, 2]) {
        if (round === 2) await afterCacheLifetime();
        const from = server.count();
        const answers = await Promise.all(Array.from({ length: 6 }, () => server.me(manager)));
        expect(answers.map((r) => r.statusCode)).toEqual(Array(6).fill(200));
        expect(server.since(from).filter((q) => sessionLookUp.test(q))).toHaveLength(1);
      }
    }));

  it('a look-up under way when the session is signed out does not keep it', () =>
    onLoggedServer(async (server, manager) => {
      const id = sessionIdOf(manager.token)!;
      const { db, sessionPolicy, sessionCache } = server.deps;
      // The read is sent first and finds the row; the sign-out ends the session before it is answered.
      const reading = readSession(db, id, sessionPolicy, sessionCache);
      await invalidateSession(db, id, sessionCache);
      await reading;
      expect((await server.me(manager)).statusCode).toBe(401);
    }));
});
