import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeUser, TEST_PASSWORD } from '../helpers/factories';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('sign-in', () => {
  it('answers the user and a token, sets an HttpOnly cookie, never the password', async () => {
    const u = await makeUser(t.deps.db, { role: 'admin', email: 'Ada@Example.com' });
    const res = await t.api('POST', '/api/users/auth', {
      body: { email: '  ADA@example.com ', password: TEST_PASSWORD },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ _id: u.id, email: 'ada@example.com', role: 'admin', branch: null, image: null });
    expect(res.body.token).toMatch(/^[a-z2-7]{32}$/);
    expect(JSON.stringify(res.body)).not.toMatch(/password/i);
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^session=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
  });

  it('refuses a wrong password with 401 and a clear message', async () => {
    const u = await makeUser(t.deps.db, { role: 'manager' });
    const res = await t.api('POST', '/api/users/auth', { body: { email: u.email, password: 'wrong-password' } });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Invalid email or password.');
    expect(res.body.token).toBeUndefined();
  });

  it('answers an unknown email exactly like a wrong password', async () => {
    const res = await t.api('POST', '/api/users/auth', {
      body: { email: 'nobody@example.com', password: 'whatever-1' },
    });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Invalid email or password.');
  });

  it('rejects a missing field with 400, not 500', async () => {
    const res = await t.api('POST', '/api/users/auth', { body: { email: 'a@b.c' } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Please enter your email and password.');
    const bad = await t.api('POST', '/api/users/auth', {
      body: '{not json',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
  });

  it('throttles after 5 failures for one email within 15 minutes, even with the right password', async () => {
    const u = await makeUser(t.deps.db, { role: 'admin' });
    for (let i = 0; i < 5; i++) {
      const r = await t.api('POST', '/api/users/auth', { body: { email: u.email, password: `nope-${i}-xxxx` } });
      expect(r.status).toBe(401);
    }
    const blocked = await t.api('POST', '/api/users/auth', {
      body: { email: u.email.toUpperCase(), password: TEST_PASSWORD },
    });
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toBe('Too many failed sign-in attempts. Please try again in 15 minutes.');
    // Another account is not affected.
    const other = await makeUser(t.deps.db, { role: 'admin' });
    const ok = await t.api('POST', '/api/users/auth', { body: { email: other.email, password: TEST_PASSWORD } });
    expect(ok.status).toBe(200);
  });

  it('issues a new token at every sign-in', async () => {
    const u = await makeUser(t.deps.db, { role: 'admin' });
    const a = await t.api('POST', '/api/users/auth', { body: { email: u.email, password: TEST_PASSWORD } });
    const b = await t.api('POST', '/api/users/auth', { body: { email: u.email, password: TEST_PASSWORD } });
    expect(a.body.token).not.toBe(b.body.token);
  });
});

describe('sessions', () => {
  it('accepts the bearer token and the cookie, and logout ends the session for both', async () => {
    const u = await makeUser(t.deps.db, { role: 'admin' });
    const login = await t.api('POST', '/api/users/auth', { body: { email: u.email, password: TEST_PASSWORD } });
    const token = login.body.token as string;
    expect((await t.api('GET', '/api/branch', { token })).status).toBe(200);
    const cookieHeader = { cookie: `session=${token}` };
    expect((await t.api('GET', '/api/branch', { headers: cookieHeader })).status).toBe(200);
    expect((await t.trpc(token).auth.me.query())?.email).toBe(u.email);

    const out = await t.api('POST', '/api/users/logout', { token });
    expect(out.status).toBe(200);
    expect((await t.api('GET', '/api/branch', { token })).status).toBe(401);
    expect((await t.api('GET', '/api/branch', { headers: cookieHeader })).status).toBe(401);
  });

  it('answers 401 without a session and for a made-up token', async () => {
    expect((await t.api('GET', '/api/branch')).status).toBe(401);
    const res = await t.api('GET', '/api/branch', { token: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('You must be signed in.');
  });

  it('refuses a cookie-authenticated write from another origin, accepts it from the app', async () => {
    const { token } = await t.userWithSession('admin');
    const body = { name: 'Cross Site', location: 'Nowhere' };
    const foreign = await t.api('POST', '/api/branch', {
      body,
      headers: { cookie: `session=${token}`, origin: 'https://evil.example' },
    });
    expect(foreign.status).toBe(403);
    const noOrigin = await t.api('POST', '/api/branch', { body, headers: { cookie: `session=${token}` } });
    expect(noOrigin.status).toBe(403);
    const own = await t.api('POST', '/api/branch', {
      body,
      headers: { cookie: `session=${token}`, origin: t.baseUrl },
    });
    expect(own.status).toBe(201);
  });

  it('refuses text/plain and urlencoded writes', async () => {
    const { token } = await t.userWithSession('admin');
    const plain = await t.api('POST', '/api/branch', {
      token,
      body: 'name=a&location=b',
      headers: { 'content-type': 'text/plain' },
    });
    expect(plain.status).toBe(415);
    const form = await t.api('POST', '/api/branch', {
      token,
      body: 'name=a&location=b',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);
    // Multipart is read on the picture paths alone.
    const multipart = new FormData();
    multipart.append('name', 'a');
    multipart.append('location', 'b');
    const res = await fetch(`${t.baseUrl}/api/branch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: multipart,
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ message: expect.stringMatching(/media type/i) });
    expect((await t.api('GET', '/api/branch', { token })).body).not.toContainEqual(
      expect.objectContaining({ name: 'a', location: 'b' }),
    );
  });

  it('expires a session after the idle limit', async () => {
    const idle = await startTestApp({ SESSION_IDLE_HOURS: 0.0000001 });
    try {
      const { token } = await idle.userWithSession('admin');
      await new Promise((r) => setTimeout(r, 50));
      expect((await idle.api('GET', '/api/branch', { token })).status).toBe(401);
    } finally {
      await idle.close();
    }
  });
});
