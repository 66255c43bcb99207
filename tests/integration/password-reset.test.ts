import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailOutbox, otpEvents, passwordResets } from '../../src/server/db/schema';
import { startTestApp, type TestApp } from '../helpers/app';
import { codeIn, waitForEmail as waitForEmailIn } from '../helpers/email';
import { makeUser, TEST_PASSWORD } from '../helpers/factories';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const FORGOT_ANSWER = { message: 'If that email belongs to an account, an OTP has been sent.' };
const INVALID = { success: false, message: 'Invalid OTP. Please try again.' };
const NEW_PASSWORD = 'brand-new-secret-1';

const waitForEmail = (to: string, notId?: string) => waitForEmailIn(t.deps.db, to, notId);

async function requestOtp(email: string, notId?: string) {
  const res = await t.api('POST', '/api/users/forgot-password', { body: { email } });
  expect(res.status).toBe(200);
  expect(res.body).toEqual(FORGOT_ANSWER);
  const mail = await waitForEmail(email.trim().toLowerCase(), notId);
  return { code: codeIn(mail), mailId: mail.id, mail };
}

/**
 * New codes are handed out at most every 30 seconds per email: age the current request, and the
 * request counted for the address, past that.
 */
async function allowNewCode(user: { id: string; email: string }) {
  const past = new Date(Date.now() - 31_000);
  await t.deps.db.update(passwordResets).set({ createdAt: past }).where(eq(passwordResets.userId, user.id));
  await t.deps.db.update(otpEvents).set({ createdAt: past }).where(eq(otpEvents.email, user.email));
}

const validate = (email: string, otp: string) => t.api('POST', '/api/users/validate-otp', { body: { email, otp } });
const reset = (email: string, otp: string, password = NEW_PASSWORD) =>
  t.api('POST', '/api/users/reset-password', { body: { email, otp, password } });
const signIn = (email: string, password: string) => t.api('POST', '/api/users/auth', { body: { email, password } });

describe('password reset by emailed OTP', () => {
  it('works end to end with the code from the outbox, and ends every old session', async () => {
    const user = await t.userWithSession('admin');
    const other = await signIn(user.email, TEST_PASSWORD);
    expect(other.status).toBe(200);

    const { code, mail } = await requestOtp(` ${user.email.toUpperCase()} `);
    expect(mail.subject).toMatch(/password reset/i);
    expect(mail.text).toContain(t.deps.config.APP_NAME);
    // Only the hash is kept.
    const [row] = await t.deps.db.select().from(passwordResets).where(eq(passwordResets.userId, user.id));
    expect(row!.otpHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.otpHash).not.toContain(code);

    const ok = await validate(user.email, code);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ success: true, message: 'OTP verified.' });

    const done = await reset(user.email, code);
    expect(done.status).toBe(200);
    expect(done.body.message).toBe('Password reset successful. Please login with your new password.');

    expect((await t.api('GET', '/api/users', { token: user.token })).status).toBe(401);
    expect((await t.api('GET', '/api/users', { token: other.body.token })).status).toBe(401);
    expect((await signIn(user.email, TEST_PASSWORD)).status).toBe(401);
    expect((await signIn(user.email, NEW_PASSWORD)).status).toBe(200);

    // The code is single-use.
    expect((await reset(user.email, code, 'another-password-2')).status).toBe(400);
    expect(await t.deps.db.select().from(passwordResets).where(eq(passwordResets.userId, user.id))).toEqual([]);
  });

  it('answers an unknown email exactly like a known one, and sends nothing', async () => {
    const known = await makeUser(t.deps.db);
    const a = await t.api('POST', '/api/users/forgot-password', { body: { email: known.email } });
    const b = await t.api('POST', '/api/users/forgot-password', { body: { email: 'nobody-here@example.com' } });
    expect(b.status).toBe(a.status);
    expect(b.body).toEqual(a.body);
    expect(b.body).toEqual(FORGOT_ANSWER);
    await waitForEmail(known.email);
    expect(await t.deps.db.select().from(emailOutbox).where(eq(emailOutbox.to, 'nobody-here@example.com'))).toEqual([]);
    const unknown = await validate('nobody-here@example.com', '123456');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject(INVALID);
  });

  it('answers a known email without waiting for the account work (no timing difference to measure)', async () => {
    const user = await makeUser(t.deps.db);
    const first = await requestOtp(user.email);
    await allowNewCode(user);
    // Another transaction holds the user's reset row, so the known path's own transaction must wait.
    let release!: () => void;
    const releaseLock = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const holder = t.deps.db.transaction(async (tx) => {
      await tx.select().from(passwordResets).where(eq(passwordResets.userId, user.id)).for('update');
      locked();
      await releaseLock;
    });
    await isLocked;
    try {
      const answer = await Promise.race([
        t.api('POST', '/api/users/forgot-password', { body: { email: user.email } }),
        new Promise<'still waiting'>((r) => setTimeout(() => r('still waiting'), 3000)),
      ]);
      expect(answer).toMatchObject({ status: 200, body: FORGOT_ANSWER });
    } finally {
      release();
      await holder;
    }
    // The code still goes out once the row is free.
    const second = await waitForEmail(user.email, first.mailId);
    expect(second.text).toMatch(/\b\d{6}\b/);
  });

  it('locks the request after five wrong codes, even for the right one', async () => {
    const user = await makeUser(t.deps.db);
    const { code } = await requestOtp(user.email);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 1; i <= 4; i++) {
      const res = await validate(user.email, wrong);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject(INVALID);
    }
    const fifth = await validate(user.email, wrong);
    expect(fifth.status).toBe(400);
    expect(fifth.body).toMatchObject({ success: false });

    const right = await validate(user.email, code);
    expect(right.status).toBe(429);
    expect(right.body).toMatchObject({ success: false, message: 'Too many wrong attempts. Please request a new OTP.' });
    // Every 429 carries Retry-After: here the seconds until the locked code expires.
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await reset(user.email, code)).status).toBe(429);
    expect((await signIn(user.email, TEST_PASSWORD)).status).toBe(200);
  });

  it('refuses an expired code', async () => {
    const user = await makeUser(t.deps.db);
    const { code } = await requestOtp(user.email);
    await t.deps.db
      .update(passwordResets)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordResets.userId, user.id));
    const res = await validate(user.email, code);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, message: 'This OTP has expired. Please request a new one.' });
    expect((await reset(user.email, code)).status).toBe(400);
    expect((await signIn(user.email, TEST_PASSWORD)).status).toBe(200);
  });

  it('lets a new request replace the old one', async () => {
    const user = await makeUser(t.deps.db);
    const first = await requestOtp(user.email);
    await allowNewCode(user);
    const second = await requestOtp(user.email, first.mailId);
    if (first.code !== second.code) {
      const old = await validate(user.email, first.code);
      expect(old.body).toMatchObject(INVALID);
    }
    expect((await validate(user.email, second.code)).body).toEqual({ success: true, message: 'OTP verified.' });
    const rows = await t.deps.db
      .select()
      .from(passwordResets)
      .where(and(eq(passwordResets.userId, user.id)));
    expect(rows).toHaveLength(1);
  });

  it('hands out at most one new code per 30 seconds, and says so when it sends none', async () => {
    const user = await makeUser(t.deps.db);
    const { code } = await requestOtp(user.email);
    const [before] = await t.deps.db.select().from(passwordResets).where(eq(passwordResets.userId, user.id));
    const again = await Promise.all(
      [1, 2, 3].map(() => t.api('POST', '/api/users/forgot-password', { body: { email: user.email } })),
    );
    for (const res of again) {
      expect(res.status).toBe(429);
      expect(res.body.message).toMatch(
        /^A code was sent to this email moments ago\. Please wait \d+ seconds? before asking for another\.$/,
      );
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(30);
    }
    const after = await t.deps.db.select().from(passwordResets).where(eq(passwordResets.userId, user.id));
    expect(after.map((r) => r.id)).toEqual([before!.id]);
    expect((await validate(user.email, code)).body).toEqual({ success: true, message: 'OTP verified.' });
    expect(await t.deps.db.select().from(emailOutbox).where(eq(emailOutbox.to, user.email))).toHaveLength(1);
  });

  it('checks its input with the documented messages', async () => {
    const user = await makeUser(t.deps.db);
    const noOtp = await validate(user.email, '');
    expect(noOtp.status).toBe(400);
    expect(noOtp.body).toMatchObject({ success: false, message: 'Please enter the OTP.' });
    const short = await reset(user.email, '123456', 'short');
    expect(short.status).toBe(400);
    expect(short.body.message).toBe('Password must be at least 8 characters.');
    const badEmail = await t.api('POST', '/api/users/forgot-password', { body: { email: 'not-an-email' } });
    expect(badEmail.status).toBe(400);
  });

  it('is also reachable through tRPC', async () => {
    const user = await makeUser(t.deps.db);
    const client = t.trpc();
    await expect(client.users.forgotPassword.mutate({ email: user.email })).resolves.toEqual(FORGOT_ANSWER);
    const mail = await waitForEmail(user.email);
    const code = /\b(\d{6})\b/.exec(mail.text)![1]!;
    await expect(client.users.validateOtp.mutate({ email: user.email, otp: code })).resolves.toEqual({
      success: true,
      message: 'OTP verified.',
    });
    await expect(
      client.users.resetPassword.mutate({ email: user.email, otp: code, password: NEW_PASSWORD }),
    ).resolves.toMatchObject({
      message: 'Password reset successful. Please login with your new password.',
    });
  });
});
