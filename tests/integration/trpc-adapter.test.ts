import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { startTestApp, type TestApp } from '../helpers/app';

/*
 * The server answers plain tRPC calls itself instead of through tRPC's Fetch adapter
 * (src/server/trpc/http-handler.ts, docs/performance.md#where-the-products-time-goes). Every
 * request here goes to this server and to one built with the stock adapter on the same database,
 * and both must answer the same status, the same JSON and the same tRPC headers.
 */

let t: TestApp;
let stock: FastifyInstance;
let admin: string;
let student: string;

beforeAll(async () => {
  t = await startTestApp();
  stock = await buildApp(t.deps, { serveClient: false, stockTrpcAdapter: true });
  admin = (await t.userWithSession('admin')).token;
  student = (await t.userWithSession('student')).token;
});
afterAll(async () => {
  await stock?.close();
  await t?.close();
});

const q = (input: unknown) => encodeURIComponent(JSON.stringify(input));

async function both(req: InjectOptions) {
  const [ours, theirs] = [await t.app.inject(req), await stock.inject(req)];
  const headersOf = (h: Record<string, unknown>) => ({
    'content-type': h['content-type'],
    vary: h.vary,
    'retry-after': h['retry-after'],
    'set-cookie': h['set-cookie'],
  });
  const bodyOf = (text: string) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  };
  expect({ status: ours.statusCode, headers: headersOf(ours.headers), body: bodyOf(ours.body) }).toEqual({
    status: theirs.statusCode,
    headers: headersOf(theirs.headers),
    body: bodyOf(theirs.body),
  });
  return { status: ours.statusCode, body: bodyOf(ours.body) };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('tRPC answers: own handler and stock adapter', () => {
  it('a batched and an unbatched query', async () => {
    const page = { page: 1, pageSize: 25 };
    const batched = await both({
      method: 'GET',
      url: `/trpc/users.list?batch=1&input=${q({ 0: page })}`,
      headers: bearer(admin),
    });
    expect(batched.status).toBe(200);
    expect(batched.body).toMatchObject([{ result: { data: { page: 1, pageSize: 25 } } }]);
    const single = await both({ method: 'GET', url: `/trpc/users.list?input=${q(page)}`, headers: bearer(admin) });
    expect(single.body).toMatchObject({ result: { data: { page: 1 } } });
    // No input at all, batched and not.
    expect((await both({ method: 'GET', url: '/trpc/auth.me?batch=1', headers: bearer(admin) })).status).toBe(200);
    expect((await both({ method: 'GET', url: '/trpc/auth.me', headers: bearer(admin) })).status).toBe(200);
  });

  it('a batch of several calls, one of them refused: 207 with each answer in its place', async () => {
    const url = `/trpc/users.list,branches.list,users.list?batch=1&input=${q({ 0: { page: 1, pageSize: 5 }, 1: { page: 1, pageSize: 5 }, 2: { page: 0 } })}`;
    const res = await both({ method: 'GET', url, headers: bearer(admin) });
    expect(res.status).toBe(207);
    const forbidden = await both({
      method: 'GET',
      url: `/trpc/users.list,auth.me?batch=1&input=${q({ 0: { page: 1, pageSize: 5 } })}`,
      headers: bearer(student),
    });
    expect(forbidden.status).toBe(207);
  });

  it('errors: signed out, forbidden, bad input, unknown procedure, wrong method, input not JSON', async () => {
    const list = `/trpc/users.list?batch=1&input=${q({ 0: { page: 1, pageSize: 25 } })}`;
    expect((await both({ method: 'GET', url: list })).status).toBe(401);
    expect((await both({ method: 'GET', url: list, headers: bearer(student) })).status).toBe(403);
    const bad = await both({
      method: 'GET',
      url: `/trpc/users.list?input=${q({ page: 'x' })}`,
      headers: bearer(admin),
    });
    expect(bad.status).toBe(400);
    expect((await both({ method: 'GET', url: '/trpc/users.nope?batch=1', headers: bearer(admin) })).status).toBe(404);
    expect((await both({ method: 'POST', url: '/trpc/users.list', headers: bearer(admin), payload: {} })).status).toBe(
      405,
    );
    expect((await both({ method: 'GET', url: '/trpc/auth.logout', headers: bearer(admin) })).status).toBe(405);
    expect((await both({ method: 'GET', url: '/trpc/users.list?input=%7Bnope', headers: bearer(admin) })).status).toBe(
      400,
    );
    expect(
      (await both({ method: 'GET', url: '/trpc/users.list?batch=1&input=3', headers: bearer(admin) })).status,
    ).toBe(400);
    expect(
      (await both({ method: 'GET', url: '/trpc/users.list,branches.create?batch=1', headers: bearer(admin) })).status,
    ).toBe(400);
    const tooMany = Array.from({ length: 21 }, () => 'auth.me').join(',');
    expect((await both({ method: 'GET', url: `/trpc/${tooMany}?batch=1`, headers: bearer(admin) })).status).toBe(400);
  });

  it('mutations: JSON body, batched sign-ins refused, a sign-out clearing the cookie', async () => {
    const login = { email: 'nobody@example.com', password: 'wrong-password-' };
    const refused = await both({
      method: 'POST',
      url: '/trpc/auth.login,auth.login?batch=1',
      payload: { 0: login, 1: login },
      headers: { 'content-type': 'application/json' },
    });
    expect(refused.status).toBe(400);
    // Each server signs out a session of its own; both answer the same and clear the cookie. A
    // body that is not JSON does not stop a call that takes no input (tRPC reads input lazily).
    for (const [url, payload] of [
      ['/trpc/auth.logout?batch=1', '{}'],
      ['/trpc/auth.logout', '{not json'],
    ] as const) {
      const [a, b] = [(await t.userWithSession('admin')).token, (await t.userWithSession('admin')).token];
      const req = (token: string): InjectOptions => ({
        method: 'POST',
        url,
        payload,
        headers: { 'content-type': 'application/json', ...bearer(token) },
      });
      const [ours, theirs] = [await t.app.inject(req(a)), await stock.inject(req(b))];
      expect(ours.statusCode).toBe(200);
      expect([ours.statusCode, ours.json(), ours.headers['set-cookie'], ours.headers.vary]).toEqual([
        theirs.statusCode,
        theirs.json(),
        theirs.headers['set-cookie'],
        theirs.headers.vary,
      ]);
    }
    // Input that is not JSON, for a call that reads it.
    const notJson = await both({
      method: 'POST',
      url: '/trpc/branches.create',
      payload: '{not json',
      headers: { 'content-type': 'application/json', ...bearer(admin) },
    });
    expect(notJson.status).toBe(400);
  });

  it('what the own handler leaves to the stock adapter: HEAD, streaming, other content types', async () => {
    await both({ method: 'HEAD', url: '/trpc/auth.me', headers: bearer(admin) });
    await both({
      method: 'GET',
      url: '/trpc/auth.me?batch=1',
      headers: { ...bearer(admin), 'trpc-accept': 'application/jsonl' },
    });
    await both({
      method: 'POST',
      url: '/trpc/auth.logout',
      payload: 'x',
      headers: { ...bearer(admin), 'content-type': 'application/octet-stream' },
    });
  });
});
