import { and, count, eq, gt, lt, max, min, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { firstRow } from '../db/rows';
import { loginAttempts, otpEvents } from '../db/schema';
import { AppError } from '../errors';

/**
 * Failure limits, counted in the database so every server process sees the same counts
 * (docs/security.md#rate-limits-and-lock-outs). Successes are never limited here: a whole office
 * signs in from one address each morning.
 */
export const LOGIN_WINDOW_MS = 15 * 60_000;
/** Failed sign-ins for one account from one client (an address, or a device cookie's device). */
export const MAX_FAILED_LOGINS_PER_ACCOUNT = 5;
/** Failed sign-ins from one client address, whatever the accounts. */
export const MAX_FAILED_LOGINS_PER_CLIENT = 30;

/**
 * The client a sign-in with a valid device cookie is counted as (in `login_attempts.ip`): the
 * device, never the address, so failures counted against the address do not hold it.
 */
export const deviceClientKey = (nonce: string) => `device:${nonce}`;

export type OtpEventKind = 'code_requested' | 'wrong_code' | 'portal_code_requested' | 'portal_wrong_code';

export const OTP_CODES_WINDOW_MS = 60 * 60_000;
/** New codes for one email address per hour. */
export const MAX_CODES_PER_ACCOUNT = 5;
/** A new code at most this often per email address: bounds both guessing (5 tries per code) and email floods. */
export const OTP_RESEND_INTERVAL_MS = 30_000;
export const OTP_GUESS_WINDOW_MS = 24 * 60 * 60_000;
/** Wrong codes for one email address per day, across all its codes. */
export const MAX_WRONG_CODES_PER_ACCOUNT = 20;

export const TOO_MANY_CODES = 'Too many codes were requested for this email. Please try again later.';

/** A request that sends no code says so, and when the next one will (never "an OTP has been sent"). */
export function codeJustSentMessage(retryAfterSeconds: number): string {
  const s = Math.max(1, Math.ceil(retryAfterSeconds));
  return `A code was sent to this email moments ago. Please wait ${s} ${s === 1 ? 'second' : 'seconds'} before asking for another.`;
}
export const TOO_MANY_WRONG_CODES =
  'Too many wrong codes were entered for this email today. Please try again tomorrow.';

/** The 429 for a limit, with the seconds until it lifts (sent as Retry-After). */
export function throttled(message: string, retryAfterSeconds: number): AppError {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return new AppError(
    'TOO_MANY_REQUESTS',
    message,
    { retryAfterSeconds: seconds },
    { code: 'too_many_requests', params: { seconds } },
  );
}

export function signInThrottledMessage(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many failed sign-in attempts. Please try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`;
}

/** Seconds until the oldest counted event leaves its window. */
function secondsLeft(oldest: Date | null, windowMs: number, now: number): number {
  return oldest ? (oldest.getTime() + windowMs - now) / 1000 : windowMs / 1000;
}

/**
 * Reserves one sign-in check for `email` from `ip` (an address, or a device's key), or refuses with 429. The reservation is a
 * `pending` row written under a transaction-scoped advisory lock on the pair, so attempts sent
 * together are counted one after another: 50 parallel wrong passwords get at most 5 checks.
 * Pending rows count against the account (a check in flight may still fail); only failed ones
 * count against the client, so colleagues signing in at once never hold each other up.
 */
export async function reserveLoginAttempt(db: Db, email: string, ip: string): Promise<string> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`login:${email}|${ip}`}))`);
    const now = Date.now();
    const since = new Date(now - LOGIN_WINDOW_MS);
    const [account] = await tx
      .select({ n: count(), oldest: min(loginAttempts.createdAt) })
      .from(loginAttempts)
      .where(and(eq(loginAttempts.email, email), eq(loginAttempts.ip, ip), gt(loginAttempts.createdAt, since)));
    if ((account?.n ?? 0) >= MAX_FAILED_LOGINS_PER_ACCOUNT) {
      const wait = secondsLeft(account?.oldest ?? null, LOGIN_WINDOW_MS, now);
      throw throttled(signInThrottledMessage(wait), wait);
    }
    const [client] = await tx
      .select({ n: count(), oldest: min(loginAttempts.createdAt) })
      .from(loginAttempts)
      .where(and(eq(loginAttempts.ip, ip), eq(loginAttempts.outcome, 'failed'), gt(loginAttempts.createdAt, since)));
    if ((client?.n ?? 0) >= MAX_FAILED_LOGINS_PER_CLIENT) {
      const wait = secondsLeft(client?.oldest ?? null, LOGIN_WINDOW_MS, now);
      throw throttled(signInThrottledMessage(wait), wait);
    }
    const row = firstRow(
      await tx.insert(loginAttempts).values({ email, ip, outcome: 'pending' }).returning({ id: loginAttempts.id }),
    );
    return row.id;
  });
}

/** A failed check keeps its reservation as a failure; old rows are trimmed on the way. */
export async function recordFailedLogin(db: Db, reservationId: string) {
  await db.update(loginAttempts).set({ outcome: 'failed' }).where(eq(loginAttempts.id, reservationId));
  await db.delete(loginAttempts).where(lt(loginAttempts.createdAt, new Date(Date.now() - LOGIN_WINDOW_MS)));
}

/** A successful sign-in clears that account's failures from that client (and its reservation). */
export async function clearFailedLogins(db: Db, email: string, ip: string) {
  await db.delete(loginAttempts).where(and(eq(loginAttempts.email, email), eq(loginAttempts.ip, ip)));
}

/**
 * Counts a password-reset event for an email address (a code requested, or a wrong code), refusing
 * with 429 past its limit. Under an advisory lock per address, so parallel requests cannot
 * overshoot. A code is also refused within 30 seconds of the last one asked for that address:
 * such a request would send nothing, so it must not answer that a code was sent. Counted per
 * address for known and unknown addresses alike, so the answers tell nothing about accounts.
 * Answers the event's id: a wrong-code event that proves not to be one is refunded.
 *
 * The portal's sign-in codes (`portal_*` kinds) have the same numbers, counted apart: asking for
 * reset codes never uses up sign-in codes, nor the other way round.
 */
export async function countOtpEvent(db: Db, email: string, kind: OtpEventKind): Promise<string> {
  const asking = kind === 'code_requested' || kind === 'portal_code_requested';
  const [limit, windowMs, message] = asking
    ? [MAX_CODES_PER_ACCOUNT, OTP_CODES_WINDOW_MS, TOO_MANY_CODES]
    : [MAX_WRONG_CODES_PER_ACCOUNT, OTP_GUESS_WINDOW_MS, TOO_MANY_WRONG_CODES];
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`otp:${kind}:${email}`}))`);
    const now = Date.now();
    const [seen] = await tx
      .select({ n: count(), oldest: min(otpEvents.createdAt), newest: max(otpEvents.createdAt) })
      .from(otpEvents)
      .where(
        and(eq(otpEvents.email, email), eq(otpEvents.kind, kind), gt(otpEvents.createdAt, new Date(now - windowMs))),
      );
    if ((seen?.n ?? 0) >= limit) {
      const wait = secondsLeft(seen?.oldest ?? null, windowMs, now);
      throw throttled(message, wait);
    }
    const newest = seen?.newest ?? null;
    if (asking && newest && newest.getTime() > now - OTP_RESEND_INTERVAL_MS) {
      const wait = secondsLeft(newest, OTP_RESEND_INTERVAL_MS, now);
      throw throttled(codeJustSentMessage(wait), wait);
    }
    // Events older than a day count for nothing; trimming them here needs no cron.
    await tx
      .delete(otpEvents)
      .where(and(eq(otpEvents.email, email), lt(otpEvents.createdAt, new Date(now - OTP_GUESS_WINDOW_MS))));
    const row = firstRow(await tx.insert(otpEvents).values({ email, kind }).returning({ id: otpEvents.id }));
    return row.id;
  });
}

/** A code that proved right was not a wrong guess. */
export async function refundOtpEvent(db: Db, id: string): Promise<void> {
  await db.delete(otpEvents).where(eq(otpEvents.id, id));
}
