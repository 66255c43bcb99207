import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { otpEvents, passwordResets } from '../../src/server/db/schema';
import { startTestApp, type TestApp } from '../helpers/app';
import { codeIn, waitForEmail } from '../helpers/email';
import { makeUser, TEST_PASSWORD } from '../helpers/factories';

// The server sits behind one proxy on loopback, so each test can speak as a different client
// address through X-Forwarded-For, as staff and attackers behind a real proxy would appear.
let t: TestApp;
let direct: TestApp;
beforeAll(async () => {
  t = await startTestApp({ TRUST_PROXY: '127.0.0.1' });
  direct = await startTestApp();
});
afterAll(async () => {
  await direct?.close();
  await t?.close();
});

let nextClient = 1;
/** A fresh client address for each scenario, so the per-client counts start at zero. */
const newClient = () => `198.51.100.${nextClient++}`;

const signIn = (app: TestApp, email: string, password: string, ip?: string) =>
  app.api('POST', '/api/users/auth', { body: { email, password }, headers: ip ? { 'x-forwarded-for': ip } : {} });

describe('sign-in limits', () => {
  it('checks at most 5 passwords of a 50-request burst for one account, and every refusal says when to retry', async () => {
    const user = await makeUser(t.deps.db, { role: 'admin' });
    const ip = newClient();
    const burst = await Promise.all(
      Array.from({ length: 50 }, (_, i) => signIn(t, user.email, `wrong-password-${i}`, ip)),
    );
    const checked = burst.filter((r) => r.status === 401);
    const refused = burst.filter((r) => r.status === 429);
    expect(checked.length).toBe(5);
    expect(refused.length).toBe(45);
    for (const r of refused) {
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(r.body.message).toMatch(/^Too many failed sign-in attempts\. Please try again in \d+ minutes?\.$/);
    }
    // The right password from that client waits for the window too.
    const right = await signIn(t, user.email, TEST_PASSWORD, ip);
    expect(right.status).toBe(429);
    expect(right.body.message).toBe('Too many failed sign-in attempts. Please try again in 15 minutes.');
  });

  it('does not lock the owner out because of a stranger’s failures from another address', async () => {
    const owner = await makeUser(t.deps.db, { role: 'manager' });
    const attacker = newClient();
    for (let i = 0; i < 8; i++) await signIn(t, owner.email, `guess-${i}-xxxx`, attacker);
    expect((await signIn(t, owner.email, TEST_PASSWORD, attacker)).status).toBe(429);
    const fromOffice = await signIn(t, owner.email, TEST_PASSWORD, newClient());
    expect(fromOffice.status).toBe(200);
    expect(fromOffice.body.email).toBe(owner.email);
  });

  it('refuses a client after 30 failures across accounts, while other clients sign in', async () => {
    const ip = newClient();
    const victims = await Promise.all(Array.from({ length: 8 }, () => makeUser(t.deps.db)));
    let failures = 0;
    for (const v of victims) {
      for (let i = 0; i < 4 && failures < 30; i++, failures++) {
        expect((await signIn(t, v.email, `nope-${i}-xxxxx`, ip)).status).toBe(401);
      }
    }
    const fresh = await makeUser(t.deps.db);
    const blocked = await signIn(t, fresh.email, TEST_PASSWORD, ip);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await signIn(t, fresh.email, TEST_PASSWORD, newClient())).status).toBe(200);
  });

  it('lets a whole office sign in from one address', async () => {
    const ip = newClient();
    const staff = await Promise.all(Array.from({ length: 20 }, () => makeUser(t.deps.db, { role: 'manager' })));
    for (let round = 0; round < 5; round++) {
      const answers = await Promise.all(staff.map((s) => signIn(t, s.email, TEST_PASSWORD, ip)));
      expect(answers.map((a) => a.status)).toEqual(staff.map(() => 200));
    }
  });

  it('believes X-Forwarded-For only from a trusted proxy', async () => {
    const user = await makeUser(direct.deps.db);
    for (let i = 0; i < 5; i++) {
      // A different forged address each time: without TRUST_PROXY they are all the connection's.
      expect((await signIn(direct, user.email, `wrong-${i}-xxxxx`, `203.0.113.${i}`)).status).toBe(401);
    }
    expect((await signIn(direct, user.email, TEST_PASSWORD, '203.0.113.99')).status).toBe(429);
  });
});

describe('device cookies', () => {
  const deviceCookieOf = (res: { headers: Headers }) => {
    const set = res.headers.getSetCookie().find((c) => c.startsWith('device='));
    return set?.split(';')[0];
  };
  const signInWith = (email: string, password: string, ip: string, cookie?: string) =>
    t.api('POST', '/api/users/auth', {
      body: { email, password },
      headers: { 'x-forwarded-for': ip, ...(cookie ? { cookie } : {}) },
    });

  async function lockAddress(ip: string) {
    const strangers = await Promise.all(Array.from({ length: 8 }, () => makeUser(t.deps.db)));
    let failures = 0;
    for (const v of strangers) {
      for (let i = 0; i < 4 && failures < 30; i++, failures++) {
        expect((await signInWith(v.email, `nope-${i}-xxxxx`, ip)).status).toBe(401);
      }
    }
  }

  it('sets an HttpOnly, SameSite=Lax, long-lived signed cookie on a successful sign-in', async () => {
    const user = await makeUser(t.deps.db, { role: 'manager' });
    const res = await signInWith(user.email, TEST_PASSWORD, newClient());
    expect(res.status).toBe(200);
    const set = res.headers.getSetCookie().find((c) => c.startsWith('device='))!;
    expect(set).toMatch(/; HttpOnly/i);
    expect(set).toMatch(/; SameSite=Lax/i);
    expect(Number(/Max-Age=(\d+)/i.exec(set)?.[1])).toBeGreaterThan(300 * 24 * 3600);
    expect(set).toContain(user.id);
    expect(set).not.toContain(user.email);
  });

  it('30 failures from one address lock a new device out, but a colleague who signed in there before still signs in', async () => {
    const office = newClient();
    const colleague = await makeUser(t.deps.db, { role: 'manager' });
    const earlier = await signInWith(colleague.email, TEST_PASSWORD, office);
    expect(earlier.status).toBe(200);
    const cookie = deviceCookieOf(earlier)!;
    expect(cookie).toMatch(/^device=/);

    await lockAddress(office);
    const newcomer = await makeUser(t.deps.db, { role: 'manager' });
    const blocked = await signInWith(newcomer.email, TEST_PASSWORD, office);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);

    const trusted = await signInWith(colleague.email, TEST_PASSWORD, office, cookie);
    expect(trusted.status).toBe(200);
    expect(trusted.body.email).toBe(colleague.email);
    // The cookie is renewed, and the renewed one works as well.
    const renewed = deviceCookieOf(trusted)!;
    expect(renewed).not.toBe(cookie);
    expect((await signInWith(colleague.email, TEST_PASSWORD, office, renewed)).status).toBe(200);

    // It names its account: another account from that browser is held with the address, and so
    // is a cookie whose signature was altered.
    expect((await signInWith(newcomer.email, TEST_PASSWORD, office, cookie)).status).toBe(429);
    const forged = `${cookie.slice(0, -2)}${cookie.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await signInWith(colleague.email, TEST_PASSWORD, office, forged)).status).toBe(429);
    // Over tRPC too.
    const viaTrpc = await fetch(`${t.baseUrl}/trpc/auth.login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': office, cookie: renewed },
      body: JSON.stringify({ email: colleague.email, password: TEST_PASSWORD }),
    });
    expect(viaTrpc.status).toBe(200);
    expect(deviceCookieOf(viaTrpc)).toMatch(/^device=/);
  });

  it('is signed with a key every server of the deployment shares (stored in the database)', async () => {
    const other = await startTestApp({ TRUST_PROXY: '127.0.0.1' }, { sameDatabaseAs: t });
    try {
      const ip = newClient();
      const user = await makeUser(t.deps.db);
      const cookie = deviceCookieOf(await signInWith(user.email, TEST_PASSWORD, ip))!;
      await lockAddress(ip);
      const res = await other.api('POST', '/api/users/auth', {
        body: { email: user.email, password: TEST_PASSWORD },
        headers: { 'x-forwarded-for': ip, cookie },
      });
      expect(res.status).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('holds a device cookie for its account after 5 failures through it, not the others', async () => {
    const ip = newClient();
    const owner = await makeUser(t.deps.db);
    const other = await makeUser(t.deps.db);
    const ownerCookie = deviceCookieOf(await signInWith(owner.email, TEST_PASSWORD, ip))!;
    const otherCookie = deviceCookieOf(await signInWith(other.email, TEST_PASSWORD, ip))!;
    for (let i = 0; i < 5; i++) {
      expect((await signInWith(owner.email, `wrong-${i}-xxxxx`, ip, ownerCookie)).status).toBe(401);
    }
    const held = await signInWith(owner.email, TEST_PASSWORD, ip, ownerCookie);
    expect(held.status).toBe(429);
    expect(held.body.message).toBe('Too many failed sign-in attempts. Please try again in 15 minutes.');
    expect(Number(held.headers.get('retry-after'))).toBeGreaterThan(800);
    expect((await signInWith(other.email, TEST_PASSWORD, ip, otherCookie)).status).toBe(200);
    // The address was not charged for the device's failures: the owner signs in without the cookie.
    expect((await signInWith(owner.email, TEST_PASSWORD, ip)).status).toBe(200);
  });
});

describe('tRPC batches', () => {
  const batch = (app: TestApp, calls: number, email: string, password: string, ip: string) => {
    const path = Array.from({ length: calls }, () => 'auth.login').join(',');
    const body = Object.fromEntries(
      Array.from({ length: calls }, (_, i) => [String(i), { email, password: `${password}${i}` }]),
    );
    return fetch(`${app.baseUrl}/trpc/${path}?batch=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
      body: JSON.stringify(body),
    });
  };

  it('checks no password when sign-ins are batched, and signs in alone as usual', async () => {
    const user = await makeUser(t.deps.db, { role: 'admin' });
    const ip = newClient();
    for (const calls of [2, 10, 45]) {
      const res = await batch(t, calls, user.email, 'wrong-password-', ip);
      expect(res.status).toBe(400);
    }
    // Had any of those 57 guesses been checked, 5 failures would now block this client.
    const alone = await t.trpc().auth.login.mutate({ email: user.email, password: TEST_PASSWORD });
    expect(alone.email).toBe(user.email);
  });

  it('counts a batch of one like a plain call (the client sends sign-in alone)', async () => {
    const user = await makeUser(t.deps.db);
    const ip = newClient();
    for (let i = 0; i < 5; i++) expect((await batch(t, 1, user.email, `bad-${i}-`, ip)).status).toBe(401);
    const sixth = await batch(t, 1, user.email, 'bad-6-', ip);
    expect(sixth.status).toBe(429);
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('password reset limits', () => {
  const forgot = (email: string, ip: string) =>
    t.api('POST', '/api/users/forgot-password', { body: { email }, headers: { 'x-forwarded-for': ip } });

  it('answers 20 requests per client an hour, then 429 with Retry-After', async () => {
    const ip = newClient();
    for (let i = 0; i < 20; i++) expect((await forgot(`someone-${i}@example.com`, ip)).status).toBe(200);
    const over = await forgot('someone-else@example.com', ip);
    expect(over.status).toBe(429);
    expect(over.body.message).toBe('Too many password reset requests from this network. Please try again later.');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await forgot('someone-else@example.com', newClient())).status).toBe(200);
  });

  it('refuses a second code within 30 seconds, the same for an address with no account', async () => {
    const known = await makeUser(t.deps.db);
    const unknown = `nobody-${known.id}@example.com`;
    const answers = [];
    for (const email of [known.email, unknown]) {
      expect((await forgot(email, newClient())).status).toBe(200);
      answers.push(await forgot(email, newClient()));
    }
    const [a, b] = answers;
    expect(a!.status).toBe(429);
    expect(a!.body.message).toMatch(
      /^A code was sent to this email moments ago\. Please wait \d+ seconds? before asking for another\.$/,
    );
    expect(b!.status).toBe(a!.status);
    expect(Object.keys(b!.body).sort()).toEqual(Object.keys(a!.body).sort());
    expect(b!.body.message.replace(/\d+/, 'N')).toBe(a!.body.message.replace(/\d+/, 'N'));
    for (const r of [a!, b!]) {
      const wait = Number(r.headers.get('retry-after'));
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(30);
      expect(r.body.message).toContain(`wait ${wait} second`);
    }
    // Thirty seconds later each may ask again.
    await t.deps.db
      .update(passwordResets)
      .set({ createdAt: new Date(Date.now() - 31_000) })
      .where(eq(passwordResets.userId, known.id));
    for (const email of [known.email, unknown]) {
      await t.deps.db
        .update(otpEvents)
        .set({ createdAt: new Date(Date.now() - 31_000) })
        .where(eq(otpEvents.email, email));
      expect((await forgot(email, newClient())).status).toBe(200);
    }
  });

  it('limits codes to 5 per email an hour, the same for an address with no account', async () => {
    const known = await makeUser(t.deps.db);
    for (const email of [known.email, 'no-account-here@example.com']) {
      for (let i = 0; i < 5; i++) {
        // One code per 30 seconds per address: age the earlier requests past that, within the hour.
        await t.deps.db
          .update(otpEvents)
          .set({ createdAt: sql`${otpEvents.createdAt} - interval '31 seconds'` })
          .where(eq(otpEvents.email, email));
        await t.deps.db
          .update(passwordResets)
          .set({ createdAt: new Date(Date.now() - 31_000) })
          .where(eq(passwordResets.userId, known.id));
        expect((await forgot(email, newClient())).status).toBe(200);
      }
      const sixth = await forgot(email, newClient());
      expect(sixth.status).toBe(429);
      expect(sixth.body.message).toBe('Too many codes were requested for this email. Please try again later.');
      expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(3000);
    }
  });
});

describe('wrong codes per day', () => {
  const validate = (email: string, otp: string, ip: string) =>
    t.api('POST', '/api/users/validate-otp', { body: { email, otp }, headers: { 'x-forwarded-for': ip } });

  async function newCode(email: string, userId: string, ip: string, notId?: string) {
    // One new code per 30 seconds per address: age the current request past that.
    await t.deps.db
      .update(passwordResets)
      .set({ createdAt: new Date(Date.now() - 31_000) })
      .where(eq(passwordResets.userId, userId));
    await t.deps.db
      .update(otpEvents)
      .set({ createdAt: new Date(Date.now() - 31_000) })
      .where(and(eq(otpEvents.email, email), eq(otpEvents.kind, 'code_requested')));
    expect(
      (await t.api('POST', '/api/users/forgot-password', { body: { email }, headers: { 'x-forwarded-for': ip } }))
        .status,
    ).toBe(200);
    const mail = await waitForEmail(t.deps.db, email, notId);
    return { code: codeIn(mail), mailId: mail.id };
  }

  it('allows 20 wrong codes per account a day across new codes, then refuses even the right one', async () => {
    const user = await makeUser(t.deps.db);
    const ip = newClient();
    let last: string | undefined;
    for (let codeNo = 0; codeNo < 4; codeNo++) {
      const { code, mailId } = await newCode(user.email, user.id, ip, last);
      last = mailId;
      const wrong = code === '000000' ? '111111' : '000000';
      for (let i = 0; i < 5; i++) expect((await validate(user.email, wrong, ip)).status).toBe(400);
    }
    const { code } = await newCode(user.email, user.id, newClient(), last);
    const right = await validate(user.email, code, newClient());
    expect(right.status).toBe(429);
    expect(right.body).toMatchObject({
      success: false,
      message: 'Too many wrong codes were entered for this email today. Please try again tomorrow.',
    });
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(3600);
  });

  it('answers an address without an account the same way', async () => {
    const email = 'nobody-at-all@example.com';
    for (let i = 0; i < 20; i++) expect((await validate(email, '123456', newClient())).status).toBe(400);
    const over = await validate(email, '123456', newClient());
    expect(over.status).toBe(429);
    expect(over.body.message).toBe(
      'Too many wrong codes were entered for this email today. Please try again tomorrow.',
    );
  });

  it('counts only the codes compared: 50 guesses sent together at one code cost 5 of the day', async () => {
    const user = await makeUser(t.deps.db);
    const ip = newClient();
    const first = await newCode(user.email, user.id, ip);
    const wrong = first.code === '000000' ? '111111' : '000000';
    const burst = await Promise.all(Array.from({ length: 50 }, () => validate(user.email, wrong, newClient())));
    expect(burst.filter((r) => r.status === 400)).toHaveLength(5);
    const refused = burst.filter((r) => r.status === 429);
    expect(refused).toHaveLength(45);
    for (const r of refused) expect(r.body.message).toBe('Too many wrong attempts. Please request a new OTP.');
    const counted = await t.deps.db
      .select()
      .from(otpEvents)
      .where(and(eq(otpEvents.email, user.email), eq(otpEvents.kind, 'wrong_code')));
    expect(counted).toHaveLength(5);
    // The day is not used up: a new code still works, and 15 more wrong ones are allowed.
    const second = await newCode(user.email, user.id, ip, first.mailId);
    expect((await validate(user.email, second.code, ip)).status).toBe(200);
  });

  it('does not count a right code as a wrong one', async () => {
    const user = await makeUser(t.deps.db);
    const ip = newClient();
    const { code } = await newCode(user.email, user.id, ip);
    for (let i = 0; i < 25; i++) expect((await validate(user.email, code, ip)).status).toBe(200);
  });
});
