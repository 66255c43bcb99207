import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import { hashPassword } from '../../auth/passwords';
import { invalidateUserSessions } from '../../auth/sessions';
import { countOtpEvent, OTP_RESEND_INTERVAL_MS, refundOtpEvent } from '../../auth/throttle';
import type { Db } from '../../db/client';
import { firstRow } from '../../db/rows';
import { passwordResets, users } from '../../db/schema';
import type { AppDeps, RequestMeta } from '../../deps';
import type { SystemContext } from '../context';
import { AppError, isUniqueViolation } from '../../errors';
import { recordAccountEvent } from '../audit/audit.service';
import {
  INVALID_OTP,
  type TForgotPasswordInput,
  type TResetPasswordInput,
  type TValidateOtpInput,
} from '@shared/schemas/users';
import { invalidateReads } from '../read-cache';

/** docs/users.md: 6 digits, valid 10 minutes, at most 5 wrong tries. */
export const OTP_TTL_MS = 10 * 60_000;
export const OTP_MAX_ATTEMPTS = 5;
export { OTP_RESEND_INTERVAL_MS };

export const FORGOT_ANSWER = 'If that email belongs to an account, an OTP has been sent.';
export const OTP_VERIFIED = 'OTP verified.';
export const OTP_EXPIRED = 'This OTP has expired. Please request a new one.';
export const OTP_LOCKED = 'Too many wrong attempts. Please request a new OTP.';
export const PASSWORD_RESET_DONE = 'Password reset successful. Please login with your new password.';

/** The code is bound to its request: the same digits of an older request never match. */
export function hashOtp(ref: string, code: string): string {
  return createHash('sha256').update(`${ref}:${code}`).digest('hex');
}

export function generateOtp(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/**
 * The answer is the same whether or not the email has an account (no account discovery), and so
 * is the time it takes: the account-dependent work (finding the user, writing the reset row,
 * queueing the email) runs after the answer is decided, not before it. Awaiting it made a known
 * email measurably slower than an unknown one (a transaction and an enqueue more), which tells an
 * attacker which emails have accounts as surely as a different message would. Matching the work
 * on both paths or padding to a floor only narrows the gap (a busy database stretches the known
 * path past any floor); not waiting closes it. The work cannot run as a job of its own because
 * job payloads carry no email addresses (docs/architecture.md). A failure is logged, never shown: showing it
 * would leak the account as well, and the person can simply ask again.
 */
export async function requestPasswordReset(
  { db, deps, request }: SystemContext,
  input: TForgotPasswordInput,
): Promise<{ message: string }> {
  // Counted per email address before the answer, for known and unknown addresses alike, so the
  // limit bounds the emails one address receives and still tells nothing about accounts. A
  // request within 30 seconds of the last is refused here (429), so "an OTP has been sent" is
  // only ever answered when one is.
  await countOtpEvent(db, input.email, 'code_requested');
  void issueResetCode(deps, input.email, request).catch((err: unknown) =>
    deps.log.error({ err }, 'password reset request failed'),
  );
  return { message: FORGOT_ANSWER };
}

/**
 * Creates (or replaces) the user's reset request and queues the email that carries the code. The
 * audit entry is written with them: a request that sends no new code (none for an unknown email;
 * one that raced past the 30-second refusal) changes nothing and records nothing.
 */
async function issueResetCode(deps: AppDeps, email: string, request?: RequestMeta): Promise<void> {
  const { db } = deps;
  const [user] = await db
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email))
    .limit(1);
  if (!user) return;
  // A new request replaces the old one with a new id, so an old email job finds nothing to send.
  await db
    .transaction(async (tx) => {
      const [recent] = await tx
        .select({ id: passwordResets.id })
        .from(passwordResets)
        .where(
          and(
            eq(passwordResets.userId, user.id),
            gt(passwordResets.createdAt, new Date(Date.now() - OTP_RESEND_INTERVAL_MS)),
          ),
        )
        .for('update')
        .limit(1);
      if (recent) return;
      await tx.delete(passwordResets).where(eq(passwordResets.userId, user.id));
      const rows = await tx
        .insert(passwordResets)
        .values({ userId: user.id, expiresAt: new Date(Date.now() + OTP_TTL_MS) })
        .returning({ id: passwordResets.id });
      const resetId = firstRow(rows).id;
      // Recorded with the request: the email goes out even if the job runner is away right now.
      await deps.jobs.enqueue(
        'send-email',
        { key: `otp:${resetId}`, template: 'otp', userId: user.id, ref: resetId },
        { jobId: `otp:${resetId}`, tx },
      );
      // Anyone may ask for a code for any email, so the entry names no actor.
      await recordAccountEvent(
        tx,
        { actor: null, request },
        'password_reset_request',
        user.id,
        `Password reset code requested for ${user.username}`,
      );
    })
    // Two first requests at once: the unique index lets one through; the other is the "recent" case.
    .catch((err: unknown) => {
      if (isUniqueViolation(err)) return;
      throw err;
    });
}

function sameHash(a: string, b: string) {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Checks the code against the user's live request. A try is claimed before the comparison (an
 * atomic increment capped at five per code), so parallel guesses cannot exceed five; a right code
 * gives its try back.
 *
 * The daily bound (20 wrong codes per address, across codes: a new code every 30 seconds must not
 * renew the guesses) counts only codes that were compared and wrong, and a guess for an address
 * with no code to compare (no account, or none requested), which is wrong as surely and must be
 * counted the same so the answers tell nothing about accounts. A check refused before any
 * comparison (the code locked or expired) counts for nothing: 50 guesses sent together at one
 * code compare five, and cost five.
 */
async function verifyOtp(db: Db, email: string, code: string): Promise<{ userId: string; resetId: string }> {
  const [row] = await db
    .select({ reset: passwordResets })
    .from(passwordResets)
    .innerJoin(users, eq(users.id, passwordResets.userId))
    .where(eq(sql`lower(${users.email})`, email))
    .limit(1);
  const reset = row?.reset;
  if (!reset || !reset.otpHash) {
    await countOtpEvent(db, email, 'wrong_code');
    throw new AppError('BAD_REQUEST', INVALID_OTP);
  }
  if (reset.expiresAt.getTime() <= Date.now()) throw new AppError('BAD_REQUEST', OTP_EXPIRED);
  const [claimed] = await db
    .update(passwordResets)
    .set({ attempts: sql`${passwordResets.attempts} + 1` })
    .where(
      and(
        eq(passwordResets.id, reset.id),
        lt(passwordResets.attempts, OTP_MAX_ATTEMPTS),
        gt(passwordResets.expiresAt, new Date()),
      ),
    )
    .returning({ attempts: passwordResets.attempts, otpHash: passwordResets.otpHash });
  if (!claimed) {
    // Lost to a concurrent replacement or expiry, or the limit was reached (perhaps by guesses
    // sent together with this one, after the row above was read: look again).
    const [now] = await db
      .select({ attempts: passwordResets.attempts })
      .from(passwordResets)
      .where(eq(passwordResets.id, reset.id));
    const locked = (now?.attempts ?? reset.attempts) >= OTP_MAX_ATTEMPTS;
    if (!locked) throw new AppError('BAD_REQUEST', INVALID_OTP);
    // Every 429 names a wait: this code stays refused until it expires (a new one may be asked for
    // sooner, within the forgot-password limits).
    throw new AppError('TOO_MANY_REQUESTS', OTP_LOCKED, {
      retryAfterSeconds: Math.max(1, Math.ceil((reset.expiresAt.getTime() - Date.now()) / 1000)),
    });
  }
  const giveBackTry = () =>
    db
      .update(passwordResets)
      .set({ attempts: sql`greatest(${passwordResets.attempts} - 1, 0)` })
      .where(eq(passwordResets.id, reset.id));
  // Reserved as a wrong code before comparing (so parallel checks cannot pass the daily bound),
  // given back when the code proves right; refused, the try is given back as well.
  let guess: string;
  try {
    guess = await countOtpEvent(db, email, 'wrong_code');
  } catch (err) {
    await giveBackTry();
    throw err;
  }
  if (!claimed.otpHash || !sameHash(claimed.otpHash, hashOtp(reset.id, code))) {
    throw new AppError('BAD_REQUEST', claimed.attempts >= OTP_MAX_ATTEMPTS ? OTP_LOCKED : INVALID_OTP);
  }
  await refundOtpEvent(db, guess);
  await giveBackTry();
  return { userId: reset.userId, resetId: reset.id };
}

export async function validateOtp(
  { db }: SystemContext,
  input: TValidateOtpInput,
): Promise<{ success: true; message: string }> {
  await verifyOtp(db, input.email, input.otp);
  return { success: true, message: OTP_VERIFIED };
}

/**
 * Verifies the code again, sets the password, consumes the request and ends every session. The
 * entry names the account's owner as the actor: the code proved the caller reads their email.
 */
export async function resetPassword(
  { db, deps, request }: SystemContext,
  input: TResetPasswordInput,
): Promise<{ message: string }> {
  const { userId, resetId } = await verifyOtp(db, input.email, input.otp);
  const passwordHash = await hashPassword(input.password);
  await db.transaction(async (tx) => {
    // Deleting the exact request makes the code single-use even against a concurrent reset.
    const gone = await tx
      .delete(passwordResets)
      .where(eq(passwordResets.id, resetId))
      .returning({ id: passwordResets.id });
    if (gone.length === 0) throw new AppError('BAD_REQUEST', INVALID_OTP);
    const [owner] = await tx
      .update(users)
      .set({ passwordHash })
      .where(eq(users.id, userId))
      .returning({ id: users.id, username: users.username, role: users.role });
    await invalidateUserSessions(tx, userId, deps.sessionCache);
    if (owner) {
      await recordAccountEvent(
        tx,
        { actor: owner, request },
        'password_reset',
        owner.id,
        `${owner.username} reset their password with an emailed code`,
      );
    }
  });
  invalidateReads(deps);
  return { message: PASSWORD_RESET_DONE };
}
