import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeBranch, makeUser, TEST_PASSWORD } from '../helpers/factories';

const lines: string[] = [];
const sink = new Writable({
  write(chunk: Buffer, _enc, done) {
    lines.push(chunk.toString());
    done();
  },
});

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({}, { logTo: sink });
  // A rule the application does not know about, so an insert fails in the database with every
  // column's value in the statement's parameters and in PostgreSQL's own detail.
  await t.deps.db.execute(
    sql`alter table users add constraint test_no_such_address check (full_name is distinct from 'Private Failing Person')`,
  );
});
afterAll(() => t?.close());

describe('server log', () => {
  it('logs a failed statement by its SQL text and error code, without the values it carried', async () => {
    const admin = await t.userWithSession('superadmin');
    const branch = await makeBranch(t.deps.db);
    const secret = {
      email: 'private.person@example.com',
      fullName: 'Private Failing Person',
      password: 'never-in-logs-42',
    };
    const res = await t.api('POST', '/api/users', {
      token: admin.token,
      body: { username: 'privateperson', role: 'student', branch: branch.id, ...secret },
    });
    expect(res.status).toBe(500);
    expect(res.body.message).toBe('Something went wrong. Please try again.');

    // Sign-ins and searches leave no values behind either.
    await t.api('POST', '/api/users/auth', { body: { email: 'someone.else@example.com', password: TEST_PASSWORD } });
    await t.api(
      'GET',
      `/trpc/users.list?input=${encodeURIComponent(JSON.stringify({ search: 'private.person@example.com' }))}`,
      { token: admin.token },
    );

    const log = lines.join('');
    const failure = lines
      .map((l) => JSON.parse(l) as { msg: string; err?: { query?: string; cause?: { code?: string } } })
      .find((l) => l.msg === 'unexpected error');
    expect(failure?.err?.query).toMatch(/^insert into "users"/);
    expect(failure?.err?.cause?.code).toBe('23514');
    for (const value of [
      ...Object.values(secret),
      'someone.else@example.com',
      '$argon2id',
      TEST_PASSWORD,
      admin.token,
    ]) {
      expect(log).not.toContain(value);
    }
  });
});

type RequestLine = {
  msg: string;
  level: number;
  reqId?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
};

const requestLines = (from: string[], url: string) =>
  from.map((l) => JSON.parse(l) as RequestLine).filter((l) => l.req?.url === url || l.msg === 'incoming request');

describe('request log', () => {
  const search = 'findme.person@example.com';
  const usersList = `/trpc/users.list?input=${encodeURIComponent(JSON.stringify({ search }))}`;

  it('writes one info line per refused or failed request: method, path without its query, status and time taken', async () => {
    const student = await t.userWithSession('student');
    const before = lines.length;
    const res = await t.api('GET', usersList, { token: student.token });
    expect(res.status).toBe(403);
    const entries = requestLines(lines.slice(before), '/trpc/users.list');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      msg: 'request completed',
      level: 30,
      req: { method: 'GET', url: '/trpc/users.list' },
      res: { statusCode: 403 },
    });
    expect(entries[0]!.responseTime).toBeGreaterThan(0);
    expect(entries[0]!.reqId).toBeTruthy();
    expect(lines.slice(before).join('')).not.toContain('findme');
  });

  it('writes one info line per write, and none at info for a quick successful read', async () => {
    const admin = await t.userWithSession('superadmin');
    const before = lines.length;
    expect((await t.api('GET', usersList, { token: admin.token })).status).toBe(200);
    const branch = await t.api('POST', '/api/branch', {
      token: admin.token,
      body: { name: 'Log Test Branch', location: 'Main Street' },
    });
    expect(branch.status).toBe(201);
    expect(requestLines(lines.slice(before), '/trpc/users.list')).toHaveLength(0);
    expect(requestLines(lines.slice(before), '/api/branch')).toMatchObject([
      { msg: 'request completed', level: 30, req: { method: 'POST' }, res: { statusCode: 201 } },
    ]);
  });

  it('logs every read at info when LOG_SLOW_MS is 0', async () => {
    const own: string[] = [];
    const ownSink = new Writable({
      write(chunk: Buffer, _enc, done) {
        own.push(chunk.toString());
        done();
      },
    });
    const everything = await startTestApp({ LOG_SLOW_MS: 0 }, { sameDatabaseAs: t, logTo: ownSink });
    try {
      const admin = await everything.userWithSession('superadmin');
      expect((await everything.api('GET', usersList, { token: admin.token })).status).toBe(200);
      expect(requestLines(own, '/trpc/users.list')).toMatchObject([
        { msg: 'request completed', level: 30, req: { method: 'GET' }, res: { statusCode: 200 } },
      ]);
      // A streamed answer (an Excel export) is logged once, when its last byte is sent.
      const excel = await everything.api('GET', '/api/payments/excel', { token: admin.token });
      expect(excel.status).toBe(200);
      const streamed = requestLines(own, '/api/payments/excel');
      expect(streamed).toMatchObject([
        { msg: 'request completed', level: 30, req: { method: 'GET' }, res: { statusCode: 200 } },
      ]);
      expect(streamed[0]!.responseTime).toBeGreaterThan(0);
      expect(own.join('')).not.toContain('findme');
    } finally {
      await everything.close();
    }
  });

  it('does not log the session a sign-in hands out (its cookie is a response header)', async () => {
    const u = await makeUser(t.deps.db, { role: 'admin' });
    const before = lines.length;
    const login = await t.api('POST', '/api/users/auth', { body: { email: u.email, password: TEST_PASSWORD } });
    expect(login.status).toBe(200);
    const token = login.body.token as string;
    expect(token).toBeTruthy();
    const logged = lines.slice(before).join('');
    expect(logged).toContain('request completed');
    expect(logged).not.toContain(token);
  });
});
