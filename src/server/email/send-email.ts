import { eq } from 'drizzle-orm';
import type { AppDeps } from '../deps';
import { emailOutbox } from '../db/schema';
import type { JobPayload } from '../jobs/definitions';
import { buildCreditNoteEmail } from './templates/credit-note';
import { buildOtpEmail, buildPortalCodeEmail } from './templates/otp';
import { buildInvitationEmail } from './templates/invitation';
import { buildReceiptEmail } from './templates/receipt';
import { buildReminderEmail } from './templates/reminder';
import { buildStatementEmail } from './templates/statement';
import { sendViaResend } from './transport';
import type { EmailMessage } from './types';

type Payload = JobPayload<'send-email'>;
type OutboxRow = typeof emailOutbox.$inferSelect;

export type SendEmailResult =
  { status: 'sent'; transport: 'outbox' | 'resend' } | { status: 'duplicate' } | { status: 'skipped' };

function render(deps: AppDeps, payload: Payload): Promise<EmailMessage | null> {
  switch (payload.template) {
    case 'otp':
      return buildOtpEmail(deps, { userId: payload.userId, ref: payload.ref });
    case 'reminder':
      return buildReminderEmail(deps, { userId: payload.userId, ref: payload.ref });
    case 'receipt':
      return buildReceiptEmail(deps, { userId: payload.userId, ref: payload.ref });
    case 'statement':
      return buildStatementEmail(deps, { userId: payload.userId, ref: payload.ref });
    case 'credit_note':
      return buildCreditNoteEmail(deps, { userId: payload.userId, ref: payload.ref });
    case 'portal_code':
      return buildPortalCodeEmail(deps, { userId: payload.userId, ref: payload.ref });
    case 'invitation':
      return buildInvitationEmail(deps, { userId: payload.userId, ref: payload.ref });
  }
}

async function deliverThroughResend(deps: AppDeps, row: OutboxRow, payload: Payload) {
  const { providerId } = await sendViaResend(
    deps.config,
    { to: row.to, subject: row.subject, text: row.text, html: row.html ?? undefined },
    row.idempotencyKey,
  );
  // A one-time code has no business staying readable in the database once it is delivered.
  const secret = payload.template === 'otp' || payload.template === 'portal_code' || payload.template === 'invitation';
  const redact = secret ? { text: '[one-time code, not stored]', html: null } : {};
  await deps.db
    .update(emailOutbox)
    .set({ providerId, ...redact })
    .where(eq(emailOutbox.id, row.id));
}

/**
 * The send-email job. The outbox row, keyed by the payload's idempotency key, is written before
 * anything leaves: a second run of the same job finds it and sends nothing (or, with Resend, if
 * the first run died mid-send, repeats the request under the same Resend idempotency key, which
 * Resend answers without sending again). The message is rendered once and stored, so a retry
 * never renders a different one (an OTP is generated when it is rendered).
 */
export async function sendEmailJob(deps: AppDeps, payload: Payload): Promise<SendEmailResult> {
  const [existing] = await deps.db
    .select()
    .from(emailOutbox)
    .where(eq(emailOutbox.idempotencyKey, payload.key))
    .limit(1);
  if (existing) {
    if (existing.transport === 'resend' && !existing.providerId && deps.config.RESEND_API_KEY) {
      await deliverThroughResend(deps, existing, payload);
      return { status: 'sent', transport: 'resend' };
    }
    return { status: 'duplicate' };
  }

  const message = await render(deps, payload);
  if (!message) {
    deps.log.info({ key: payload.key, template: payload.template }, 'email not needed any more; skipped');
    return { status: 'skipped' };
  }

  const transport = deps.config.RESEND_API_KEY ? 'resend' : 'outbox';
  const [row] = await deps.db
    .insert(emailOutbox)
    .values({
      idempotencyKey: payload.key,
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html ?? null,
      transport,
    })
    .onConflictDoNothing({ target: emailOutbox.idempotencyKey })
    .returning();
  // Another run of the same job got there first.
  if (!row) return { status: 'duplicate' };

  if (transport === 'resend') {
    await deliverThroughResend(deps, row, payload);
    return { status: 'sent', transport };
  }

  deps.log.info(
    { key: payload.key, to: message.to, subject: message.subject },
    'email stored in the development outbox (RESEND_API_KEY is not set)',
  );
  // Lets a developer read the one-time code in the console; production keeps it in the outbox only.
  if (deps.config.NODE_ENV !== 'production')
    deps.log.info(`Development email to ${message.to}: ${message.subject}\n${message.text}`);
  return { status: 'sent', transport };
}
