import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { AppDeps } from '../../deps';
import { emailOutbox, messages, users } from '../../db/schema';
import { sendViaResend } from '../../email/transport';
import type { JobContext } from '../../jobs/handlers';
import { QUIET_HOURS_EXEMPT, type MessageEvent } from '@shared/schemas/messages';
import { loadOrganisation } from '../settings/organisation.service';
import { afterQuietHours, loadMessageSettings } from './settings';
import { queueSend, skipReason } from './plan';
import { SendFailed, SendRefused, sendViaGateway } from './gateway';
import { optOutUrl } from './opt-out';
import { installmentGone } from './installment-state';

/** Notices about money owed: not sent once the installment is paid or its record ended. */
const INSTALLMENT_EVENTS: readonly MessageEvent[] = ['installment_due_soon', 'installment_overdue'];

type MessageRow = typeof messages.$inferSelect;
type Outcome =
  { status: 'sent' | 'failed' | 'skipped' | 'waiting' | 'not-due' | 'done' } | { status: 'retry'; error: Error };

const SENDABLE: readonly string[] = ['scheduled', 'queued', 'waiting'];

/** One delivery through the configured transport: what to record, or a throw (refused / failed). */
/**
 * Sends one message. `tx` is the send's transaction (the message row is locked in it); every read
 * and write here goes through it, as the embedded database has one connection and a query on
 * `deps.db` would wait for that transaction to end.
 */
async function deliver(
  deps: AppDeps,
  tx: Db,
  m: MessageRow,
): Promise<{ transport: 'outbox' | 'resend' | 'gateway'; providerId: string | null }> {
  const to = m.to ?? '';
  if (m.channel === 'sms') {
    if (!deps.config.SMS_GATEWAY_URL) {
      deps.log.info({ messageId: m.id, to }, 'SMS kept in the development outbox (SMS_GATEWAY_URL is not set)');
      return { transport: 'outbox', providerId: null };
    }
    const { providerId } = await sendViaGateway(deps.config, { to, text: m.text, id: m.key });
    return { transport: 'gateway', providerId };
  }
  const org = await loadOrganisation(tx, deps.config);
  const subject = `${m.subject ?? m.event} - ${org.name}`;
  // RFC 8058 one-click: a mail client may POST to the link without showing a page.
  const headers = m.requested
    ? undefined
    : {
        'List-Unsubscribe': `<${await optOutUrl(deps, m.recipientId, 'email', tx)}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      };
  if (deps.config.RESEND_API_KEY) {
    try {
      const { providerId } = await sendViaResend(
        deps.config,
        { to, subject, text: m.text, headers },
        `message:${m.key}`,
      );
      return { transport: 'resend', providerId };
    } catch (err) {
      throw new SendFailed(err instanceof Error ? err.message : String(err));
    }
  }
  // The development outbox every other e-mail uses; its key keeps a repeat from adding a row.
  await tx
    .insert(emailOutbox)
    .values({ idempotencyKey: `message:${m.key}`, to, subject, text: m.text, transport: 'outbox' })
    .onConflictDoNothing({ target: emailOutbox.idempotencyKey });
  deps.log.info({ messageId: m.id, to, subject }, 'message e-mail stored in the development outbox');
  return { transport: 'outbox', providerId: null };
}

/**
 * The send-message job (docs/messages.md#sending-exactly-once). The message's row is locked for the whole
 * send, so two workers holding the same job (a redelivery, a stalled one) send it once: the second
 * waits, then finds it sent. Switches and opt-outs are checked again here, and an installment's
 * notice is skipped once the installment is paid (`paid`) or its record ended (`no_longer_due`); quiet hours hold a
 * message (`waiting`) until they end. A refusal (4xx) fails it at once; a failure that may pass
 * (5xx, network, timeout) is retried by the job system with backoff, and the last try marks it
 * `failed` with the reason.
 */
export async function sendMessageJob(deps: AppDeps, payload: { messageId: string }, job: JobContext): Promise<Outcome> {
  const outcome = await deps.db.transaction(async (tx): Promise<Outcome> => {
    const [m] = await tx.select().from(messages).where(eq(messages.id, payload.messageId)).for('update');
    if (!m || !SENDABLE.includes(m.status)) return { status: 'done' };
    const now = new Date();
    // A job left from before the message moved to a later time; the later job sends it.
    if (m.sendAt.getTime() > now.getTime() + 1000) return { status: 'not-due' };
    const event = m.event as MessageEvent;
    const settings = await loadMessageSettings(tx);
    const [person] = await tx
      .select({ optOutEmail: users.optOutEmail, optOutSms: users.optOutSms })
      .from(users)
      .where(eq(users.id, m.recipientId));
    const why =
      (person ? skipReason(settings, person, event, m.channel, m.to, m.requested) : 'opted_out') ??
      (INSTALLMENT_EVENTS.includes(event) ? await installmentGone(tx, m.entityId) : null);
    if (why) {
      await tx.update(messages).set({ status: 'skipped', reason: why, updatedAt: now }).where(eq(messages.id, m.id));
      return { status: 'skipped' };
    }
    // Only a cancellation goes even in quiet hours; a receipt or statement asked for at the desk
    // late in the evening waits for the morning like every other message.
    if (!QUIET_HOURS_EXEMPT.includes(event)) {
      const at = afterQuietHours(settings.quietHours, deps.config.TIME_ZONE, now);
      if (at.getTime() !== now.getTime()) {
        await tx.update(messages).set({ status: 'waiting', sendAt: at, updatedAt: now }).where(eq(messages.id, m.id));
        await queueSend(deps, tx, m.id, at);
        return { status: 'waiting' };
      }
    }
    const attempts = m.attempts + 1;
    try {
      const { transport, providerId } = await deliver(deps, tx, m);
      await tx
        .update(messages)
        .set({
          status: 'sent',
          sentAt: new Date(),
          attempts,
          transport,
          providerId,
          reason: null,
          updatedAt: new Date(),
        })
        .where(eq(messages.id, m.id));
      return { status: 'sent' };
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err));
      const last =
        err instanceof SendRefused || !(err instanceof SendFailed) || job.attempt >= deps.config.JOB_ATTEMPTS;
      await tx
        .update(messages)
        .set({
          status: last ? 'failed' : 'queued',
          attempts,
          reason: error.message.slice(0, 500),
          updatedAt: new Date(),
        })
        .where(eq(messages.id, m.id));
      return last ? { status: 'failed' } : { status: 'retry', error };
    }
  });
  // Thrown after the attempt is recorded, so the job system retries it with its backoff.
  if (outcome.status === 'retry') throw outcome.error;
  return outcome;
}
