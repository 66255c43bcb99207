import { and, eq, gt } from 'drizzle-orm';
import { passwordResets } from '../../db/schema';
import type { AppDeps } from '../../deps';
import { isUuid } from '../../domains/ids';
import { generateOtp, hashOtp, OTP_TTL_MS } from '../../domains/users/password-reset.service';
import type { EmailMessage } from '../types';
import { loadOrganisation } from '../../domains/settings/organisation.service';
import { brandedEmail, recipientOf } from './layout';

/**
 * Generates the OTP for password-reset request `ref`, stores its hash, and renders the email.
 * The code exists only here and in the email (never in a job payload or the database).
 * Returns null when the request is gone, superseded or expired. Each call makes a new code, so
 * the sender must skip a job whose email already went out (the outbox key) before calling this.
 */
export async function buildOtpEmail(
  deps: AppDeps,
  payload: { userId: string; ref?: string },
): Promise<EmailMessage | null> {
  if (!payload.ref || !isUuid(payload.ref)) return null;
  const { db, config } = deps;
  const code = generateOtp();
  const now = Date.now();
  const [row] = await db
    .update(passwordResets)
    .set({
      otpHash: hashOtp(payload.ref, code),
      sentAt: new Date(now),
      expiresAt: new Date(now + OTP_TTL_MS),
      attempts: 0,
    })
    .where(
      and(
        eq(passwordResets.id, payload.ref),
        eq(passwordResets.userId, payload.userId),
        gt(passwordResets.expiresAt, new Date(now)),
      ),
    )
    .returning({ userId: passwordResets.userId });
  if (!row) return null;
  const user = await recipientOf(db, row.userId);
  if (!user) return null;

  const minutes = OTP_TTL_MS / 60_000;
  return brandedEmail(await loadOrganisation(db, config), user.email, 'Your password reset code', [
    `Hello ${user.fullName},`,
    `Your one-time code to reset your password is: ${code}`,
    `It is valid for ${minutes} minutes and can be tried at most 5 times.`,
    'If you did not ask to reset your password, ignore this email: your password stays as it is.',
  ]);
}
