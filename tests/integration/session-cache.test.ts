import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';

// Two server instances on one database, as behind a load balancer. (A password reset ends
// sessions through the same eviction; password-reset.test.ts checks it with the cache on.) Each keeps its own short
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
});
