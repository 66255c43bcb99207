import { and, eq, gt } from 'drizzle-orm';
import { portalInvitations } from '../../db/schema';
import type { AppDeps } from '../../deps';
import { isUuid } from '../../domains/ids';
import {
  generateInvitationToken,
  hashInvitationToken,
  INVITATION_TTL_MS,
} from '../../domains/portal/portal-auth.service';
import type { EmailMessage } from '../types';
import { loadOrganisation } from '../../domains/settings/organisation.service';
import { publicOrigin } from '../../domains/messages/opt-out';
import { emailText } from '../locales';
import { brandedEmail, recipientOf } from './layout';

/**
 * Generates the invitation's token for invitation `ref`, stores its hash, and renders the e-mail
 * with the link: the token exists only here and in the e-mail. The 72 hours run from the sending.
 * Null when the invitation is gone or replaced.
 */
export async function buildInvitationEmail(
  deps: AppDeps,
  payload: { userId: string; ref?: string },
): Promise<EmailMessage | null> {
  if (!payload.ref || !isUuid(payload.ref)) return null;
  const { db, config } = deps;
  const token = generateInvitationToken();
  const now = Date.now();
  const [row] = await db
    .update(portalInvitations)
    .set({ tokenHash: hashInvitationToken(token), sentAt: new Date(now), expiresAt: new Date(now + INVITATION_TTL_MS) })
    .where(
      and(
        eq(portalInvitations.id, payload.ref),
        eq(portalInvitations.userId, payload.userId),
        gt(portalInvitations.expiresAt, new Date(now)),
      ),
    )
    .returning({ userId: portalInvitations.userId });
  if (!row) return null;
  const user = await recipientOf(db, row.userId);
  if (!user) return null;
  // Without APP_ORIGIN the link names the local server, as the messages' opt-out links do.
  const link = `${publicOrigin(deps)}/portal/invitation?token=${encodeURIComponent(token)}`;
  const t = emailText(user.language);
  return brandedEmail(
    await loadOrganisation(db, config),
    user.email,
    t('invitation.subject'),
    [
      t('hello', { name: user.fullName }),
      t('invitation.intro'),
      t('invitation.link', { link }),
      t('invitation.valid', { hours: INVITATION_TTL_MS / 3_600_000 }),
    ],
    user.language,
  );
}
