import { and, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import { messages, users } from '../../db/schema';
import { INT4_MAX } from '@shared/schemas/primitives';
import {
  MESSAGE_CHANNELS,
  type MessageChannel,
  type MessageEntityType,
  type MessageEvent,
  type MessageLanguage,
  type SkipReason,
  type TMessageSettings,
} from '@shared/schemas/messages';
import { loadOrganisation } from '../settings/organisation.service';
import { loadMessageSettings } from './settings';
import { loadSavedTemplates, renderText, templateFor, type SavedTemplates, type TemplateVars } from './templates';
import { optOutUrl } from './opt-out';
import { emailText } from '../../email/locales';

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
  /** The number an SMS goes to instead of the person's own (a student's guardian). */
  smsTo?: string | null;
  /**
   * Text added after the template's (a statement's totals and lines); given as a function, it is
   * written in the language the template is in (a receipt), so the message reads in one language.
   */
  appendix?: string | ((language: MessageLanguage) => string);
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

const sendJobOpts = (messageId: string, sendAt: Date) => ({
  jobId: sendJobId(messageId, sendAt),
  delayMs: Math.min(INT4_MAX, Math.max(0, sendAt.getTime() - Date.now())),
});

/** Queues the send of a planned message for its due time, inside `tx`. */
export async function queueSend(deps: AppDeps, tx: Db, messageId: string, sendAt: Date) {
  await deps.jobs.enqueue('send-message', { messageId }, { ...sendJobOpts(messageId, sendAt), tx });
}

const sms = (text: string) => text.replace(/\s*\n\s*/g, ' ').trim();

/** What every message of a batch shares: read once per batch (a page of installments), not per row. */
export interface PlanningContext {
  settings: TMessageSettings;
  organisation: string;
  templates: SavedTemplates;
}

export async function planningContext(tx: Db, deps: AppDeps): Promise<PlanningContext> {
  const settings = await loadMessageSettings(tx);
  const org = await loadOrganisation(tx, deps.config);
  return { settings, organisation: org.name, templates: await loadSavedTemplates(tx) };
}

/** One planned log row: what a caller may need of it (the statement answers its send job). */
export interface PlannedRow {
  id: string;
  status: string;
  entityId: string;
  channel: MessageChannel;
  sendAt: Date;
  /** The address or number it goes to (the person's as stored now). */
  to: string | null;
}

/** The columns a replanned (withdrawn) key takes from the row that was to be inserted. */
const REPLANNED = [
  'event',
  'channel',
  'language',
  'status',
  'reason',
  'recipientId',
  'to',
  'subject',
  'text',
  'entityType',
  'entityId',
  'sendAt',
  'requested',
] as const;

/** Plans one message on each channel; see planMany. */
export async function planMessages(
  tx: Db,
  deps: AppDeps,
  spec: MessageSpec,
  context?: PlanningContext,
): Promise<PlannedRow[]> {
  return planMany(tx, deps, [spec], context);
}

/**
 * Plans messages on each channel, in the caller's transaction: one log row per message and
 * channel, written `scheduled` (and its send queued in the same transaction) or `skipped` with why.
 * A key planned before adds nothing, except one that was withdrawn, which is planned afresh (an
 * appointment moved back to a time it had before). Answers the rows this call wrote.
 *
 * The cost is fixed whatever the number of specs: the shared context (unless passed in), the
 * recipients in one read, one multi-row insert and one insert of the send jobs.
 */
export async function planMany(
  tx: Db,
  deps: AppDeps,
  specs: readonly MessageSpec[],
  context?: PlanningContext,
): Promise<PlannedRow[]> {
  if (specs.length === 0) return [];
  const ctx = context ?? (await planningContext(tx, deps));
  const ids = [...new Set(specs.map((s) => s.recipientId))];
  const people = await tx
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
    .where(inArray(users.id, ids));
  const byId = new Map(people.map((p) => [p.id, p]));
  // One row per key: a batch naming the same message twice plans it once.
  const rows = new Map<string, typeof messages.$inferInsert>();
  for (const spec of specs) {
    const person = byId.get(spec.recipientId);
    if (!person) continue;
    const vars: TemplateVars = { name: person.fullName, organisation: ctx.organisation, ...spec.vars };
    for (const channel of spec.channels ?? MESSAGE_CHANNELS) {
      const key = messageKey(spec, channel);
      if (rows.has(key)) continue;
      const own = channel === 'email' ? person.email.trim() : (spec.smsTo ?? person.phone)?.trim();
      const to = own || null;
      const requested = spec.requested ?? false;
      const reason = spec.skip ?? skipReason(ctx.settings, person, spec.event, channel, to, requested);
      const template = templateFor(ctx.templates, spec.event, channel, person.language);
      let text = renderText(template.body, vars);
      const appendix = typeof spec.appendix === 'function' ? spec.appendix(template.language) : spec.appendix;
      if (appendix) text = `${text}\n\n${appendix}`;
      if (channel === 'sms') text = sms(text);
      else if (!requested)
        // In the language the text is in (English when the template fell back to it).
        text = `${text}\n\n--\n${emailText(template.language)('optOut.line', { link: await optOutUrl(deps, person.id, 'email', tx) })}`;
      rows.set(key, {
        key,
        event: spec.event,
        channel,
        language: template.language,
        status: reason ? 'skipped' : 'scheduled',
        reason,
        recipientId: person.id,
        to,
        subject: channel === 'email' ? renderText(template.subject ?? '', vars) || null : null,
        text,
        entityType: spec.entityType,
        entityId: spec.entityId,
        sendAt: spec.sendAt,
        requested,
      });
    }
  }
  if (rows.size === 0) return [];
  const replanned = Object.fromEntries(
    REPLANNED.map((k) => [k, sql.raw(`excluded.${getTableColumns(messages)[k].name}`)]),
  );
  const written = await tx
    .insert(messages)
    .values([...rows.values()])
    .onConflictDoUpdate({
      target: messages.key,
      set: { ...replanned, attempts: 0, sentAt: null, providerId: null, transport: null, updatedAt: new Date() },
      setWhere: sql`${messages.status} = 'withdrawn'`,
    })
    .returning({
      id: messages.id,
      status: messages.status,
      entityId: messages.entityId,
      channel: messages.channel,
      sendAt: messages.sendAt,
      to: messages.to,
    });
  const due = written.filter((r) => r.status === 'scheduled');
  await deps.jobs.enqueueMany(
    'send-message',
    due.map((r) => ({ payload: { messageId: r.id }, opts: sendJobOpts(r.id, r.sendAt) })),
    { tx },
  );
  return written;
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
