import { and, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { messages, messageTemplates, users } from '../../db/schema';
import { AppError } from '../../errors';
import { FORBIDDEN_MESSAGE } from '../../http/access';
import { isStaff } from '../../../shared/roles';
import { smsSegments } from '../../../shared/sms';
import type {
  MessageLanguage,
  TContactPreferences,
  TContactPreferencesInput,
  TListMessagesInput,
  TMessageItem,
  TMessagePage,
  TMessageSettings,
  TPreviewAnswer,
  TPreviewInput,
  TSaveTemplatesInput,
  TTemplateItem,
} from '@shared/schemas/messages';
import type { PublicContext, ServiceContext, SystemContext } from '../context';
import { isUuid } from '../ids';
import { cursorRowId, nextCursorOf } from '../keyset';
import { loadOrganisation } from '../settings/organisation.service';
import { queueSend } from './plan';
import { loadMessageSettings, storeMessageSettings } from './settings';
import { listTemplates, renderText, type TemplateVars } from './templates';
import { readOptOutToken } from './opt-out';
import { previewVars } from './preview';
import { fieldChanges, recordAudit } from '../audit/audit.service';

export const MESSAGE_NOT_FOUND = 'Message not found.';
const ORDER = 'created-desc';

type Row = typeof messages.$inferSelect & { fullName: string };

function toItem(r: Row): TMessageItem {
  return {
    _id: r.id,
    event: r.event,
    channel: r.channel,
    language: r.language,
    status: r.status,
    reason: r.reason,
    sendAt: r.sendAt.toISOString(),
    sentAt: r.sentAt?.toISOString() ?? null,
    attempts: r.attempts,
    providerId: r.providerId,
    recipient: { _id: r.recipientId, fullName: r.fullName },
    to: r.to,
    subject: r.subject,
    text: r.text,
    entityType: r.entityType,
    entityId: r.entityId,
    createdAt: r.createdAt.toISOString(),
  } as TMessageItem;
}

const selectRows = (db: Db) =>
  db
    .select({ m: messages, fullName: users.fullName })
    .from(messages)
    .innerJoin(users, eq(users.id, messages.recipientId))
    .$dynamic();

const flat = (r: { m: typeof messages.$inferSelect; fullName: string }): Row => ({ ...r.m, fullName: r.fullName });

/** GET /api/messages, messages.list: newest planned first, filtered, keyset-paged on (created, id). */
export async function listMessages({ db }: SystemContext, input: TListMessagesInput): Promise<TMessagePage> {
  const conds: Array<SQL | undefined> = [
    input.status ? eq(messages.status, input.status) : undefined,
    input.channel ? eq(messages.channel, input.channel) : undefined,
    input.event ? eq(messages.event, input.event) : undefined,
    input.from ? gte(messages.createdAt, new Date(input.from)) : undefined,
    input.to ? lt(messages.createdAt, new Date(input.to)) : undefined,
  ];
  // An id that is not a uuid names no row: an empty page rather than a database error.
  for (const [col, v] of [
    [messages.recipientId, input.recipientId],
    [messages.entityId, input.entityId],
  ] as const) {
    if (v === undefined) continue;
    if (!isUuid(v)) return { data: [], nextCursor: null };
    conds.push(eq(col, v));
  }
  const after = cursorRowId(input.cursor, ORDER);
  if (after)
    conds.push(
      sql`(${messages.createdAt}, ${messages.id}) < (select created_at, id from messages where id = ${after}::uuid)`,
    );
  const rows = await selectRows(db)
    .where(and(...conds))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(input.limit);
  const data = rows.map(flat);
  return { data: data.map(toItem), nextCursor: nextCursorOf(ORDER, data, input.limit) };
}

async function getMessage(db: Db, id: string): Promise<TMessageItem> {
  if (!isUuid(id)) throw new AppError('NOT_FOUND', MESSAGE_NOT_FOUND);
  const [r] = await selectRows(db).where(eq(messages.id, id)).limit(1);
  if (!r) throw new AppError('NOT_FOUND', MESSAGE_NOT_FOUND);
  return toItem(flat(r));
}

/** POST /api/messages/{id}/resend: a failed message goes again now, with fresh attempts. */
export async function resendMessage(ctx: ServiceContext, id: string): Promise<TMessageItem> {
  if (!isUuid(id)) throw new AppError('NOT_FOUND', MESSAGE_NOT_FOUND);
  await ctx.db.transaction(async (tx) => {
    const [m] = await tx.select().from(messages).where(eq(messages.id, id)).for('update');
    if (!m) throw new AppError('NOT_FOUND', MESSAGE_NOT_FOUND);
    if (m.status !== 'failed')
      throw new AppError('CONFLICT', `Only a failed message can be resent; this one is ${m.status}.`);
    const now = new Date();
    await tx
      .update(messages)
      .set({ status: 'queued', attempts: 0, reason: null, sendAt: now, updatedAt: now })
      .where(eq(messages.id, id));
    await queueSend(ctx.deps, tx, id, now);
  });
  void ctx.deps.jobs.flush?.();
  return getMessage(ctx.db, id);
}

// ------------------------------------------------------------------ templates

export const getTemplates = ({ db }: SystemContext): Promise<TTemplateItem[]> => listTemplates(db);

/** PUT /api/message-templates: stores the items sent, leaves every other as it was. */
export async function saveTemplates(ctx: ServiceContext, items: TSaveTemplatesInput): Promise<TTemplateItem[]> {
  await ctx.db.transaction(async (tx) => {
    for (const t of items) {
      const subject = t.channel === 'email' ? (t.subject ?? null) : null;
      const where = and(
        eq(messageTemplates.event, t.event),
        eq(messageTemplates.channel, t.channel),
        eq(messageTemplates.language, t.language),
      );
      // The stored text before (none: the shipped default was in use), locked so two saves record in turn.
      const [before] = await tx
        .select({ subject: messageTemplates.subject, body: messageTemplates.body })
        .from(messageTemplates)
        .where(where)
        .for('update');
      await tx
        .insert(messageTemplates)
        .values({ event: t.event, channel: t.channel, language: t.language, subject, body: t.body })
        .onConflictDoUpdate({
          target: [messageTemplates.event, messageTemplates.channel, messageTemplates.language],
          set: { subject, body: t.body, updatedAt: new Date() },
        });
      const changes = fieldChanges(before ?? null, { subject, body: t.body }, { fields: ['subject', 'body'] });
      if (before && changes.length === 0) continue;
      await recordAudit(tx, ctx, {
        action: before ? 'update' : 'create',
        entityType: 'message_template',
        entityId: `${t.event}/${t.channel}/${t.language}`,
        summary: `${before ? 'Changed' : 'Wrote'} the ${t.event} ${t.channel === 'sms' ? 'SMS' : 'e-mail'} template (${t.language})`,
        changes,
      });
    }
  });
  return listTemplates(ctx.db);
}

/** POST /api/message-templates/preview: the text as it would go, from a real record when one is named. */
export async function previewTemplate(ctx: ServiceContext, input: TPreviewInput): Promise<TPreviewAnswer> {
  const org = await loadOrganisation(ctx.db, ctx.deps.config);
  const vars: TemplateVars = { organisation: org.name, ...(await previewVars(ctx, input.event, input.entityId)) };
  let text = renderText(input.body, vars);
  if (input.channel === 'sms') text = text.replace(/\s*\n\s*/g, ' ').trim();
  const length = smsSegments(text);
  return { text, ...length };
}

// ------------------------------------------------------------------ settings

export const getMessageSettings = ({ db }: SystemContext): Promise<TMessageSettings> => loadMessageSettings(db);

export async function saveMessageSettings(ctx: ServiceContext, input: TMessageSettings): Promise<TMessageSettings> {
  await ctx.db.transaction(async (tx) => {
    // One settings row; the lock makes two saves record their before and after in turn.
    await tx.execute(sql`select 1 from message_settings where id = 1 for update`);
    const before = await loadMessageSettings(tx);
    await storeMessageSettings(tx, input);
    const changes = fieldChanges(before, input);
    if (changes.length === 0) return;
    await recordAudit(tx, ctx, {
      action: 'update',
      entityType: 'settings',
      entityId: 'messages',
      summary: 'Changed the message settings',
      changes,
    });
  });
  return loadMessageSettings(ctx.db);
}

// ------------------------------------------------------------------ contact preferences

/** PUT /api/users/{id}/contact-preferences: staff for anyone, anyone else only for themselves. */
export async function setContactPreferences(
  ctx: ServiceContext,
  input: TContactPreferencesInput,
): Promise<TContactPreferences> {
  if (!isStaff(ctx.actor.role) && ctx.actor.id !== input.id) throw new AppError('FORBIDDEN', FORBIDDEN_MESSAGE);
  if (!isUuid(input.id)) throw new AppError('NOT_FOUND', 'User not found.');
  return ctx.db.transaction(async (tx) => {
    const [before] = await tx
      .select({
        username: users.username,
        language: users.language,
        optOutEmail: users.optOutEmail,
        optOutSms: users.optOutSms,
      })
      .from(users)
      .where(eq(users.id, input.id))
      .for('update');
    if (!before) throw new AppError('NOT_FOUND', 'User not found.');
    const after = { language: input.language, optOutEmail: input.optOut.email, optOutSms: input.optOut.sms };
    await tx.update(users).set(after).where(eq(users.id, input.id));
    const changes = fieldChanges(before, after, { fields: ['language', 'optOutEmail', 'optOutSms'] });
    if (changes.length > 0) {
      await recordAudit(tx, ctx, {
        action: 'update',
        entityType: 'user',
        entityId: input.id,
        summary: `Changed the contact preferences of ${before.username}`,
        changes,
      });
    }
    return { language: after.language, optOut: { email: after.optOutEmail, sms: after.optOutSms } };
  });
}

// ------------------------------------------------------------------ opt-out link

export const OPT_OUT_REFUSED = 'This opt-out link is not valid.';

/**
 * The signed link's effect, no sign-in needed: `optOut` true stops that channel's messages at once,
 * false (the page's undo) starts them again.
 */
export async function applyOptOutLink(
  ctx: PublicContext,
  token: string,
  optOut: boolean,
): Promise<{ fullName: string; language: MessageLanguage; channel: 'email' | 'sms' }> {
  const who = await readOptOutToken(ctx.deps, token);
  if (!who) throw new AppError('BAD_REQUEST', OPT_OUT_REFUSED);
  const field = who.channel === 'email' ? 'optOutEmail' : 'optOutSms';
  return ctx.db.transaction(async (tx) => {
    const [before] = await tx
      .select({ fullName: users.fullName, username: users.username, language: users.language, value: users[field] })
      .from(users)
      .where(eq(users.id, who.userId))
      .for('update');
    if (!before) throw new AppError('NOT_FOUND', OPT_OUT_REFUSED);
    if (before.value !== optOut) {
      await tx
        .update(users)
        .set({ [field]: optOut })
        .where(eq(users.id, who.userId));
      // No sign-in: the entry has no actor; its summary says it came from the link.
      await recordAudit(tx, ctx, {
        action: 'update',
        entityType: 'user',
        entityId: who.userId,
        summary: `${before.username} ${optOut ? 'opted out of' : 'opted back in to'} ${who.channel === 'email' ? 'e-mail' : 'SMS'} by the link in a message`,
        changes: [{ field, before: before.value, after: optOut }],
      });
    }
    return { fullName: before.fullName, language: before.language, channel: who.channel };
  });
}
