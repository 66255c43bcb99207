import { and, eq, gt } from 'drizzle-orm';
import { passwordResets, portalCodes } from '../../db/schema';
import type { AppDeps } from '../../deps';
import { isUuid } from '../../domains/ids';
import { generateOtp, hashOtp, OTP_TTL_MS } from '../../domains/users/password-reset.service';
import { PORTAL_CODE_TTL_MS } from '../../domains/portal/portal-auth.service';
import type { EmailMessage } from '../types';
import { loadOrganisation } from '../../domains/settings/organisation.service';
import { emailText } from '../locales';
import { brandedEmail, recipientOf } from './layout';

type CodePayload = { userId: string; ref?: string };

/**
 * Makes a code for request `ref`, stores its hash (through `store`, which answers the request's
 * user, or null when it is gone, superseded or expired) and renders the e-mail in the person's
 * language. The code exists only here and in the e-mail, never in a job payload or the database.
 * Each call makes a new code, so the sender skips a job whose e-mail already went out (the outbox
 * key) before calling this.
 */
async function codeEmail(
  deps: AppDeps,
  payload: CodePayload,
  kind: 'reset' | 'signIn',
  ttlMs: number,
  store: (ref: string, code: string, now: number) => Promise<{ userId: string } | undefined>,
): Promise<EmailMessage | null> {
  if (!payload.ref || !isUuid(payload.ref)) return null;
  const code = generateOtp();
  const row = await store(payload.ref, code, Date.now());
  if (!row) return null;
  const user = await recipientOf(deps.db, row.userId);
  if (!user) return null;
  const t = emailText(user.language);
  return brandedEmail(
    await loadOrganisation(deps.db, deps.config),
    user.email,
    t(`${kind}.subject`),
    [
      t('hello', { name: user.fullName }),
      t(`${kind}.code`, { code }),
      t(`${kind}.valid`, { minutes: ttlMs / 60_000 }),
      t(`${kind}.ignore`),
    ],
    user.language,
  );
}

/** The password-reset code (docs/users.md#password-reset). */
export function buildOtpEmail(deps: AppDeps, payload: CodePayload): Promise<EmailMessage | null> {
  return codeEmail(deps, payload, 'reset', OTP_TTL_MS, async (ref, code, now) => {
    const [row] = await deps.db
      .update(passwordResets)
      .set({ otpHash: hashOtp(ref, code), sentAt: new Date(now), expiresAt: new Date(now + OTP_TTL_MS), attempts: 0 })
      .where(
        and(
          eq(passwordResets.id, ref),
          eq(passwordResets.userId, payload.userId),
          gt(passwordResets.expiresAt, new Date(now)),
        ),
      )
      .returning({ userId: passwordResets.userId });
    return row;
  });
}

/** The portal's sign-in code (docs/portal.md#sign-in-by-code). */
export function buildPortalCodeEmail(deps: AppDeps, payload: CodePayload): Promise<EmailMessage | null> {
  return codeEmail(deps, payload, 'signIn', PORTAL_CODE_TTL_MS, async (ref, code, now) => {
    const [row] = await deps.db
      .update(portalCodes)
      .set({ codeHash: hashOtp(ref, code), sentAt: new Date(now), expiresAt: new Date(now + PORTAL_CODE_TTL_MS) })
      .where(
        and(eq(portalCodes.id, ref), eq(portalCodes.userId, payload.userId), gt(portalCodes.expiresAt, new Date(now))),
      )
      .returning({ userId: portalCodes.userId });
    return row;
  });
}
