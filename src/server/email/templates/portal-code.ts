import { and, eq, gt } from 'drizzle-orm';
import { portalCodes } from '../../db/schema';
import type { AppDeps } from '../../deps';
import { isUuid } from '../../domains/ids';
import { generateOtp, hashOtp } from '../../domains/users/password-reset.service';
import { PORTAL_CODE_TTL_MS } from '../../domains/portal/portal-auth.service';
import type { EmailMessage } from '../types';
import { loadOrganisation } from '../../domains/settings/organisation.service';
import { brandedEmail, recipientOf } from './layout';

/**
 * Generates the portal sign-in code for request `ref`, stores its hash, and renders the e-mail,
 * as the reset code's e-mail does: the code exists only here and in the e-mail. Null when the
 * request is gone, replaced or expired.
 */
export async function buildPortalCodeEmail(
  deps: AppDeps,
  payload: { userId: string; ref?: string },
): Promise<EmailMessage | null> {
  if (!payload.ref || !isUuid(payload.ref)) return null;
  const { db, config } = deps;
  const code = generateOtp();
  const now = Date.now();
  const [row] = await db
    .update(portalCodes)
    .set({
      codeHash: hashOtp(payload.ref, code),
      sentAt: new Date(now),
      expiresAt: new Date(now + PORTAL_CODE_TTL_MS),
      attempts: 0,
    })
    .where(
      and(
        eq(portalCodes.id, payload.ref),
        eq(portalCodes.userId, payload.userId),
        gt(portalCodes.expiresAt, new Date(now)),
      ),
    )
    .returning({ userId: portalCodes.userId });
  if (!row) return null;
  const user = await recipientOf(db, row.userId);
  if (!user) return null;
  return brandedEmail(await loadOrganisation(db, config), user.email, 'Your sign-in code', [
    `Hello ${user.fullName},`,
    `Your code to sign in is: ${code}`,
    `It is valid for ${PORTAL_CODE_TTL_MS / 60_000} minutes and can be tried at most 5 times.`,
    'If you did not ask to sign in, ignore this email: nobody can sign in without the code.',
  ]);
}
