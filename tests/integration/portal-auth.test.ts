import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, otpEvents, portalCodes, portalInvitations, users } from '../../src/server/db/schema';
import { startTestApp, type TestApp } from '../helpers/app';
import { codeIn, waitForEmail } from '../helpers/email';
import { makeUser, TEST_PASSWORD } from '../helpers/factories';

/**
 * Signing in to the portal by an e-mailed code and by invitation (docs/portal.md): the reset
 * code's numbers counted apart from it, the same answer for unknown e-mails, every 429 with
 * Retry-After, invitations valid 72 hours and once. The server trusts the loopback proxy, so each
 * scenario speaks from a client address of its own.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ TRUST_PROXY: '127.0.0.1' });
});
afterAll(() => t.close());

let nextClient = 1;
const newClient = () => `198.51.100.${nextClient++}`;
const SENT = 'If an account uses this e-mail, a sign-in code is on its way. It is valid for 10 minutes.';

const askCode = (email: string, ip = newClient()) =>
  t.api('POST', '/api/portal/code', { body: { email }, headers: { 'x-forwarded-for': ip } });
const verify = (email: string, code: string, ip = newClient()) =>
  t.api('POST', '/api/portal/code/verify', { body: { email, code }, headers: { 'x-forwarded-for': ip } });

/** One code per 30 seconds per address: age the current code and its request past that. */
async function allowNewCode(email: string, userId?: string) {
  const past = new Date(Date.now() - 31_000);
  if (userId) await t.deps.db.update(portalCodes).set({ createdAt: past }).where(eq(portalCodes.userId, userId));
  await t.deps.db
    .update(otpEvents)
    .set({ createdAt: sql`${otpEvents.createdAt} - interval '31 seconds'` })
    .where(and(eq(otpEvents.email, email), eq(otpEvents.kind, 'portal_code_requested')));
}

async function codeFor(user: { id: string; email: string }, notId?: string) {
  expect((await askCode(user.email)).body).toEqual({ message: SENT });
  const mail = await waitForEmail(t.deps.db, user.email, notId);
  expect(mail.subject).toMatch(/^Your sign-in code/);
  return { code: codeIn(mail), mailId: mail.id };
}

describe('sign-in by e-mailed code', () => {
  it('signs a student in once with the right code, answering like /api/users/auth', async () => {
    const user = await makeUser(t.deps.db, { role: 'student' });
    const { code } = await codeFor(user);
    const [row] = await t.deps.db.select().from(portalCodes).where(eq(portalCodes.userId, user.id));
    expect(row!.codeHash).toMatch(/^[0-9a-f]{64}$/);
    const res = await verify(user.email.toUpperCase(), code);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ _id: user.id, email: user.email, role: 'student', token: expect.any(String) });
    expect(res.headers.get('set-cookie')).toMatch(/HttpOnly/i);
    const me = await t.api('GET', '/api/portal/me', { token: res.body.token });
    expect(me.body._id).toBe(user.id);
    // Single use.
    expect((await verify(user.email, code)).status).toBe(400);
    const [entry] = await t.deps.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, user.id), eq(auditLog.action, 'sign_in')));
    expect(entry!.actorId).toBe(user.id);
    expect(entry!.summary).toContain('e-mailed code');
    // Signing out ends the portal session.
    expect((await t.api('POST', '/api/users/logout', { token: res.body.token })).status).toBe(200);
    expect((await t.api('GET', '/api/portal/me', { token: res.body.token })).status).toBe(401);
  });

  it('answers an unknown e-mail and a staff account exactly like a known one, and sends them nothing', async () => {
    const known = await makeUser(t.deps.db, { role: 'customer' });
    const staff = await makeUser(t.deps.db, { role: 'admin' });
    const a = await askCode(known.email);
    const b = await askCode(`nobody-${known.id}@example.com`);
    const c = await askCode(staff.email);
    expect([b.status, c.status]).toEqual([a.status, a.status]);
    expect(b.body).toEqual(a.body);
    expect(c.body).toEqual(a.body);
    await waitForEmail(t.deps.db, known.email);
    expect(await t.deps.db.select().from(portalCodes).where(eq(portalCodes.userId, staff.id))).toEqual([]);
    expect((await verify(staff.email, '123456')).body.message).toBe('Invalid code. Please try again.');
  });

  it('is counted apart from the password-reset code', async () => {
    const user = await makeUser(t.deps.db, { role: 'customer' });
    // A reset code just asked for does not hold back a sign-in code, nor the other way round.
    expect(
      (
        await t.api('POST', '/api/users/forgot-password', {
          body: { email: user.email },
          headers: { 'x-forwarded-for': newClient() },
        })
      ).status,
    ).toBe(200);
    expect((await askCode(user.email)).status).toBe(200);
    const kinds = await t.deps.db
      .select({ kind: otpEvents.kind })
      .from(otpEvents)
      .where(eq(otpEvents.email, user.email));
    expect(kinds.map((k) => k.kind).sort()).toEqual(['code_requested', 'portal_code_requested']);
  });

  it('limits codes to 5 per e-mail an hour, the same for an address with no account, with Retry-After', async () => {
    const known = await makeUser(t.deps.db, { role: 'customer' });
    for (const email of [known.email, `no-account-${known.id}@example.com`]) {
      for (let i = 0; i < 5; i++) {
        await allowNewCode(email, known.id);
        expect((await askCode(email)).status).toBe(200);
      }
      await allowNewCode(email, known.id);
      const sixth = await askCode(email);
      expect(sixth.status).toBe(429);
      expect(sixth.body.message).toBe('Too many codes were requested for this email. Please try again later.');
      expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(3000);
    }
  });

  it('allows 5 tries a code, then refuses even the right one with 429 and Retry-After', async () => {
    const user = await makeUser(t.deps.db, { role: 'customer' });
    const { code } = await codeFor(user);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) expect((await verify(user.email, wrong)).status).toBe(400);
    const locked = await verify(user.email, code);
    expect(locked.status).toBe(429);
    expect(locked.body.message).toBe('Too many wrong attempts. Please request a new code.');
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('allows 20 wrong codes per account a day across new codes, then refuses even the right one', async () => {
    const user = await makeUser(t.deps.db, { role: 'customer' });
    let mailId: string | undefined;
    for (let round = 0; round < 4; round++) {
      await allowNewCode(user.email, user.id);
      const got = await codeFor(user, mailId);
      mailId = got.mailId;
      const wrong = got.code === '000000' ? '111111' : '000000';
      for (let i = 0; i < 5; i++) expect((await verify(user.email, wrong)).status).toBe(400);
    }
    await allowNewCode(user.email, user.id);
    const { code } = await codeFor(user, mailId);
    const refused = await verify(user.email, code);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe(
      'Too many wrong codes were entered for this email today. Please try again tomorrow.',
    );
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('answers 20 code requests per client an hour, then 429 with Retry-After', async () => {
    const ip = newClient();
    for (let i = 0; i < 20; i++) expect((await askCode(`someone-${i}@example.com`, ip)).status).toBe(200);
    const over = await askCode('someone-else@example.com', ip);
    expect(over.status).toBe(429);
    expect(over.body.message).toBe('Too many sign-in code requests from this network. Please try again later.');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await askCode('someone-else@example.com', newClient())).status).toBe(200);
  });

  it('ends a portal session when the account is deleted or its password reset', async () => {
    const admin = await t.userWithSession('admin');
    const gone = await makeUser(t.deps.db, { role: 'customer' });
    const kept = await makeUser(t.deps.db, { role: 'student' });
    const sessions: string[] = [];
    let codeMail = '';
    for (const u of [gone, kept]) {
      const { code, mailId } = await codeFor(u);
      codeMail = mailId;
      const res = await verify(u.email, code);
      expect(res.status).toBe(200);
      sessions.push(res.body.token as string);
    }
    expect((await t.api('DELETE', `/api/users/${gone.id}`, { token: admin.token })).status).toBe(200);
    expect((await t.api('GET', '/api/portal/me', { token: sessions[0] })).status).toBe(401);

    expect(
      (
        await t.api('POST', '/api/users/forgot-password', {
          body: { email: kept.email },
          headers: { 'x-forwarded-for': newClient() },
        })
      ).status,
    ).toBe(200);
    const mail = await waitForEmail(t.deps.db, kept.email, codeMail);
    expect(mail.subject).toMatch(/password reset/i);
    const reset = await t.api('POST', '/api/users/reset-password', {
      body: { email: kept.email, otp: codeIn(mail), password: 'a-fresh-password-3' },
      headers: { 'x-forwarded-for': newClient() },
    });
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    expect((await t.api('GET', '/api/portal/me', { token: sessions[1] })).status).toBe(401);
  });

  it('is reachable over tRPC too, one call per request', async () => {
    const user = await makeUser(t.deps.db, { role: 'user' });
    await expect(t.trpc().portal.requestCode.mutate({ email: user.email })).resolves.toEqual({ message: SENT });
    const mail = await waitForEmail(t.deps.db, user.email);
    const signed = await t.trpc().portal.verifyCode.mutate({ email: user.email, code: codeIn(mail) });
    expect(signed._id).toBe(user.id);
  });
});

describe('invitations', () => {
  const accept = (token: string, password: string, ip = newClient()) =>
    t.api('POST', '/api/portal/invitation/accept', { body: { token, password }, headers: { 'x-forwarded-for': ip } });
  const tokenIn = (text: string) => {
    const m = /token=([A-Za-z0-9_%-]+)/.exec(text);
    if (!m) throw new Error('no invitation link in the e-mail');
    return decodeURIComponent(m[1]!);
  };

  it('e-mails a 72-hour link that sets the password once, signs in, and ends older sessions', async () => {
    const manager = await t.userWithSession('manager');
    const person = await t.userWithSession('customer');
    const sent = await t.api('POST', `/api/users/${person.id}/invite`, { token: manager.token });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const expires = Date.parse(sent.body.expiresAt) - Date.now();
    expect(expires).toBeGreaterThan(71.9 * 3_600_000);
    expect(expires).toBeLessThanOrEqual(72 * 3_600_000);
    const mail = await waitForEmail(t.deps.db, person.email);
    const token = tokenIn(mail.text);
    const [row] = await t.deps.db.select().from(portalInvitations).where(eq(portalInvitations.userId, person.id));
    expect(row!.tokenHash).not.toContain(token);

    const res = await accept(token, 'my-new-password-1');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ _id: person.id, token: expect.any(String) });
    expect((await t.api('GET', '/api/portal/me', { token: person.token })).status).toBe(401);
    const signIn = await t.api('POST', '/api/users/auth', {
      body: { email: person.email, password: 'my-new-password-1' },
    });
    expect(signIn.status).toBe(200);
    expect((await accept(token, 'another-password-2')).status).toBe(400);

    const entries = await t.deps.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, person.id), inArray(auditLog.action, ['invite', 'invitation_accept'])));
    expect(entries.map((e) => [e.action, e.actorId]).sort()).toEqual(
      [
        ['invitation_accept', person.id],
        ['invite', manager.id],
      ].sort(),
    );
  });

  it("writes the code and invitation e-mails in the person's language, the English ones unchanged", async () => {
    const admin = await t.userWithSession('admin');
    const tamil = await makeUser(t.deps.db, { role: 'student' });
    await t.deps.db.update(users).set({ language: 'ta' }).where(eq(users.id, tamil.id));
    await t.trpc(admin.token).users.invite.mutate({ id: tamil.id });
    const invitation = await waitForEmail(t.deps.db, tamil.email);
    expect(invitation.subject).toMatch(/^உங்கள் போர்ட்டலுக்கு உங்களை அழைக்கிறோம் - /);
    expect(invitation.text).toContain('இந்த இணைப்பு 72 மணிநேரம் செல்லுபடியாகும்');
    expect(invitation.text).toContain('இந்தச் செய்தியை ');
    expect(tokenIn(invitation.text)).toMatch(/\S{20,}/);

    const sinhala = await makeUser(t.deps.db, { role: 'customer' });
    await t.deps.db.update(users).set({ language: 'si' }).where(eq(users.id, sinhala.id));
    expect((await askCode(sinhala.email)).status).toBe(200);
    const code = await waitForEmail(t.deps.db, sinhala.email);
    expect(code.subject).toMatch(/^ඔබගේ පිවිසුම් කේතය - /);
    expect(code.text).toContain('එය මිනිත්තු 10 ක් වලංගු වන අතර');
    expect(code.html).toContain(`පිවිසීම සඳහා ඔබගේ කේතය: ${codeIn(code)}`);

    const english = await makeUser(t.deps.db, { role: 'student' });
    expect((await askCode(english.email)).status).toBe(200);
    const text = (await waitForEmail(t.deps.db, english.email)).text;
    expect(text).toContain('It is valid for 10 minutes and can be tried at most 5 times.');
    expect(text).toMatch(/This message was sent by .+\. If you did not expect it, you can ignore it\./);
  });

  it('refuses an expired link with a message saying so', async () => {
    const admin = await t.userWithSession('admin');
    const person = await makeUser(t.deps.db, { role: 'student' });
    expect((await t.trpc(admin.token).users.invite.mutate({ id: person.id })).message).toContain(person.email);
    const token = tokenIn((await waitForEmail(t.deps.db, person.email)).text);
    await t.deps.db
      .update(portalInvitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(portalInvitations.userId, person.id));
    const res = await accept(token, 'too-late-password');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('This invitation link has expired. Please ask the clinic for a new one.');
    const bad = await accept('made-up-token', 'whatever-password');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('This invitation link is not valid. Please ask the clinic for a new one.');
    expect(
      (await t.api('POST', '/api/users/auth', { body: { email: person.email, password: TEST_PASSWORD } })).status,
    ).toBe(200);
  });

  it('is for staff to send, to portal roles only, at most 5 a day per person', async () => {
    const admin = await t.userWithSession('admin');
    const customer = await t.userWithSession('customer');
    const person = await makeUser(t.deps.db, { role: 'customer' });
    expect((await t.api('POST', `/api/users/${person.id}/invite`, { token: customer.token })).status).toBe(403);
    const staff = await makeUser(t.deps.db, { role: 'manager' });
    const toStaff = await t.api('POST', `/api/users/${staff.id}/invite`, { token: admin.token });
    expect(toStaff.status).toBe(409);
    for (let i = 0; i < 5; i++)
      expect((await t.api('POST', `/api/users/${person.id}/invite`, { token: admin.token })).status).toBe(200);
    const sixth = await t.api('POST', `/api/users/${person.id}/invite`, { token: admin.token });
    expect(sixth.status).toBe(429);
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('answers 20 accept attempts per client an hour, then 429 with Retry-After', async () => {
    const ip = newClient();
    for (let i = 0; i < 20; i++) expect((await accept(`guess-${i}`, 'some-password-1', ip)).status).toBe(400);
    const over = await accept('guess-x', 'some-password-1', ip);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
