import { and, eq, inArray, sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import { messages, users } from '../../db/schema';
import { INT4_MAX } from '@shared/schemas/primitives';
import {
  MESSAGE_CHANNELS,
  type MessageChannel,
  type MessageEntityType,
  type MessageEvent,
  type SkipReason,
  type TMessageSettings,
} from '@shared/schemas/messages';
import { loadOrganisation } from '../settings/organisation.service';
import { loadMessageSettings } from './settings';
import { renderText, templateFor, type TemplateVars } from './templates';
import { optOutUrl } from './opt-out';

/** What causes one message to each of a person's channels. */
export interface MessageSpec {
  event: MessageEvent;
  recipientId: string;
  entityType: MessageEntityType;
  entityId: string;
  /**
   * What makes this message one of a kind for the event and person (the appointment and its
   * time, the payment): with them it is the message's unique key, so planning it again adds nothing.
   */
  occasion: string;
  sendAt: Date;
  vars: TemplateVars;
  /** Asked for (a receipt, a statement): sent whatever the switches and opt-outs say. */
  requested?: boolean;
  channels?: readonly MessageChannel[];
  /** Planned, but already known not to go (a reminder whose time passed at booking). */
  skip?: SkipReason;
}

type Recipient = Pick<
  typeof users.$inferSelect,
  'id' | 'fullName' | 'email' | 'phone' | 'language' | 'optOutEmail' | 'optOutSms'
>;

export const messageKey = (s: Pick<MessageSpec, 'event' | 'recipientId' | 'occasion'>, channel: MessageChannel) =>
  `${s.event}:${s.recipientId}:${channel}:${s.occasion}`;

/** Why a message must not go now, or null: the same rule at planning and again at sending. */
export function skipReason(
  settings: TMessageSettings,
  person: Pick<Recipient, 'optOutEmail' | 'optOutSms'>,
  event: MessageEvent,
  channel: MessageChannel,
  to: string | null,
  requested: boolean,
): SkipReason | null {
  if (!requested && !settings.events[event][channel]) return 'switched_off';
  if (!requested && (channel === 'email' ? person.optOutEmail : person.optOutSms)) return 'opted_out';
  if (!to) return channel === 'email' ? 'no_email' : 'no_phone';
  return null;
}

/** The job id of a message's send at one due time: a move to a new time is a new job. */
export const sendJobId = (messageId: string, sendAt: Date) => `message:${messageId}:${sendAt.getTime()}`;

/** Queues the send of a planned message for its due time, inside `tx`. */
export async function queueSend(deps: AppDeps, tx: Db, messageId: string, sendAt: Date) {
  const delayMs = Math.min(INT4_MAX, Math.max(0, sendAt.getTime() - Date.now()));
  await deps.jobs.enqueue('send-message', { messageId }, { jobId: sendJobId(messageId, sendAt), delayMs, tx });
}

const sms = (text: string) => text.replace(/\s*\n\s*/g, ' ').trim();

/**
 * Plans a message on each channel, in the caller's transaction: one log row per channel, written
 * `scheduled` (and its send queued in the same transaction) or `skipped` with why. A key planned
 * before adds nothing, except one that was withdrawn, which is planned afresh (an appointment
 * moved back to a time it had before).
 */
export async function planMessages(tx: Db, deps: AppDeps, spec: MessageSpec): Promise<void> {
  const [person] = await tx
    .select({
      id: users.id,
      fullName: users.fullName,
      email: users.email,
      phone: users.phone,
      language: users.language,
      optOutEmail: users.optOutEmail,
      optOutSms: users.optOutSms,
    })
    .from(users)
    .where(eq(users.id, spec.recipientId))
    .limit(1);
  if (!person) return;
  const settings = await loadMessageSettings(tx);
  const org = await loadOrganisation(tx, deps.config);
  const vars: TemplateVars = { name: person.fullName, organisation: org.name, ...spec.vars };
  for (const channel of spec.channels ?? MESSAGE_CHANNELS) {
    const to = channel === 'email' ? person.email.trim() || null : person.phone?.trim() || null;
    const reason = spec.skip ?? skipReason(settings, person, spec.event, channel, to, spec.requested ?? false);
    const template = await templateFor(tx, spec.event, channel, person.language);
    let text = renderText(template.body, vars);
    if (channel === 'sms') text = sms(text);
    else if (!spec.requested)
      text = `${text}\n\n--\nTo stop these e-mails: ${await optOutUrl(deps, person.id, 'email', tx)}`;
    const values = {
      key: messageKey(spec, channel),
      event: spec.event,
      channel,
      language: template.language,
      status: reason ? ('skipped' as const) : ('scheduled' as const),
      reason,
      recipientId: person.id,
      to,
      subject: channel === 'email' ? renderText(template.subject ?? '', vars) || null : null,
      text,
      entityType: spec.entityType,
      entityId: spec.entityId,
      sendAt: spec.sendAt,
      requested: spec.requested ?? false,
    };
    const [row] = await tx
      .insert(messages)
      .values(values)
      .onConflictDoUpdate({
        target: messages.key,
        set: { ...values, attempts: 0, sentAt: null, providerId: null, transport: null, updatedAt: new Date() },
        setWhere: sql`${messages.status} = 'withdrawn'`,
      })
      .returning({ id: messages.id, status: messages.status });
    if (row?.status === 'scheduled') await queueSend(deps, tx, row.id, spec.sendAt);
  }
}

const UNSENT = ['scheduled', 'queued', 'waiting'] as const;

/**
 * Withdraws the messages of `events` about a record that have not gone yet (a reschedule or a
 * cancellation made them moot); a send job that runs later finds them withdrawn and does nothing.
 */
export async function withdrawMessages(
  tx: Db,
  entityId: string,
  events: readonly MessageEvent[],
  why: string,
): Promise<number> {
  const rows = await tx
    .update(messages)
    .set({ status: 'withdrawn', reason: why, updatedAt: new Date() })
    .where(
      and(eq(messages.entityId, entityId), inArray(messages.event, [...events]), inArray(messages.status, [...UNSENT])),
    )
    .returning({ id: messages.id });
  return rows.length;
}
