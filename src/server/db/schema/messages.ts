import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, id, instant, updatedAt } from './common';
import { users } from './users';

/** Settings → Messages: one row (id = 1) holding the switches, reminder times and quiet hours. */
export const messageSettings = pgTable('message_settings', {
  id: integer('id').primaryKey().default(1),
  settings: jsonb('settings').notNull(),
  updatedAt: updatedAt(),
});

/** An admin's own text for one event, channel and language; the shipped default otherwise. */
export const messageTemplates = pgTable(
  'message_templates',
  {
    event: text('event').notNull(),
    channel: text('channel', { enum: ['email', 'sms'] }).notNull(),
    language: text('language', { enum: ['en', 'si', 'ta'] }).notNull(),
    subject: text('subject'),
    body: text('body').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.event, t.channel, t.language] })],
);

/**
 * Every message from the moment it is planned: the delivery log and the sender's work list.
 * `key` (event, recipient, channel, occasion) is unique: planning the same message twice, from a
 * retried transaction or a second worker, adds nothing. With no e-mail provider or SMS gateway
 * configured the row itself is the development outbox (`transport = 'outbox'`).
 */
export const messages = pgTable(
  'messages',
  {
    id: id(),
    key: text('key').notNull(),
    event: text('event').notNull(),
    channel: text('channel', { enum: ['email', 'sms'] }).notNull(),
    language: text('language', { enum: ['en', 'si', 'ta'] }).notNull(),
    status: text('status', {
      enum: ['scheduled', 'queued', 'waiting', 'sent', 'failed', 'skipped', 'withdrawn'],
    }).notNull(),
    reason: text('reason'),
    recipientId: uuid('recipient_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The address or E.164 number when planned; null when the person had none. */
    to: text('to'),
    subject: text('subject'),
    text: text('text').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: uuid('entity_id').notNull(),
    /** When it is due; moved to the end of quiet hours while `waiting`. */
    sendAt: instant('send_at').notNull(),
    sentAt: instant('sent_at'),
    attempts: integer('attempts').notNull().default(0),
    transport: text('transport', { enum: ['outbox', 'resend', 'gateway'] }),
    providerId: text('provider_id'),
    /** Asked for by the person or staff (a receipt, a statement): opt-outs do not apply. */
    requested: boolean('requested').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('messages_key_uq').on(t.key),
    // The log reads newest first, keyset on (created_at, id).
    index('messages_created_idx').on(t.createdAt, t.id),
    index('messages_entity_idx').on(t.entityId, t.event),
    index('messages_recipient_idx').on(t.recipientId, t.createdAt),
    index('messages_pending_idx')
      .on(t.sendAt)
      .where(sql`${t.status} in ('scheduled','queued','waiting')`),
    check(
      'messages_status_check',
      sql`${t.status} in ('scheduled','queued','waiting','sent','failed','skipped','withdrawn')`,
    ),
  ],
);
