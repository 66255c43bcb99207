/*
 * Messages (docs/messages.md): the contract the server and the Settings → Messages screens share.
 *
 * tRPC procedures (all in the `messages` router namespace family):
 *   messages.list                 (admins)        ZListMessagesInput      → ZMessagePage
 *   messages.resend               (admins)        ZMessageIdInput         → ZMessageItem
 *   messageTemplates.list         (staff)         —                       → ZTemplateItem[]
 *   messageTemplates.save         (admins)        ZSaveTemplatesInput     → ZTemplateItem[]
 *   messageTemplates.preview      (staff)         ZPreviewInput           → ZPreviewAnswer
 *   messageSettings.get           (staff)         —                       → ZMessageSettings
 *   messageSettings.save          (admins)        ZMessageSettings        → ZMessageSettings
 *   users.contactPreferences      (staff or self) ZContactPreferencesInput (+ id) → ZContactPreferences
 *
 * REST:
 *   GET  /api/messages?status&channel&event&recipientId&entityId&from&to&cursor
 *   POST /api/messages/{id}/resend
 *   GET|PUT /api/message-templates, POST /api/message-templates/preview
 *   GET|PUT /api/message-settings
 *   PUT  /api/users/{id}/contact-preferences
 *   GET|POST /api/messages/opt-out?token=…   (no sign-in; the signed link an e-mail carries)
 */
import { z } from 'zod';
import { zId, zInstant, zText } from '@shared/schemas/primitives';
import { zInstantOut, zOneOf } from '@shared/schemas/output';

export const MESSAGE_EVENTS = [
  'appointment_booked',
  'appointment_rescheduled',
  'appointment_cancelled',
  'appointment_reminder',
  'class_cancelled',
  'class_moved',
  'absence',
  'installment_due_soon',
  'installment_overdue',
  'payment_received',
  'statement',
] as const;
export type MessageEvent = (typeof MESSAGE_EVENTS)[number];

export const MESSAGE_CHANNELS = ['email', 'sms'] as const;
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];

export const MESSAGE_LANGUAGES = ['en', 'si', 'ta'] as const;
export type MessageLanguage = (typeof MESSAGE_LANGUAGES)[number];

/** Placeholders a template may use, written `{name}` in its text. */
export const MESSAGE_PLACEHOLDERS = [
  'name',
  'date',
  'time',
  'oldDate',
  'oldTime',
  'branch',
  'treatment',
  'course',
  'amount',
  'dueDate',
  'receiptNumber',
  'organisation',
] as const;
export type MessagePlaceholder = (typeof MESSAGE_PLACEHOLDERS)[number];

/**
 * scheduled: planned, its sendAt in the future; queued: due, handed to the sender; waiting: due
 * inside quiet hours, held until they end; sent; failed (after the last try, with the reason);
 * skipped (with why); withdrawn (a reschedule or cancellation made it moot).
 */
export const MESSAGE_STATUSES = ['scheduled', 'queued', 'waiting', 'sent', 'failed', 'skipped', 'withdrawn'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** Why a message was skipped (the `reason` of a `skipped` row). */
export const SKIP_REASONS = [
  'opted_out',
  'no_phone',
  'no_email',
  'switched_off',
  'inside_reminder_window',
  'paid',
  'no_longer_due',
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** Events sent even inside quiet hours. */
export const QUIET_HOURS_EXEMPT: readonly MessageEvent[] = ['appointment_cancelled', 'class_cancelled'];

/** What the log links a message to. */
export const MESSAGE_ENTITY_TYPES = [
  'appointment',
  'class_session',
  'attendance',
  'installment',
  'payment',
  'user',
] as const;
export type MessageEntityType = (typeof MESSAGE_ENTITY_TYPES)[number];

const event = z.enum(MESSAGE_EVENTS, { error: `Event must be one of: ${MESSAGE_EVENTS.join(', ')}.` });
const channel = z.enum(MESSAGE_CHANNELS, { error: 'Channel must be email or sms.' });
const language = z.enum(MESSAGE_LANGUAGES, { error: 'Language must be en, si or ta.' });
const status = z.enum(MESSAGE_STATUSES, { error: `Status must be one of: ${MESSAGE_STATUSES.join(', ')}.` });

// ------------------------------------------------------------------ delivery log

export const ZListMessagesInput = z.object({
  status: status.optional(),
  channel: channel.optional(),
  event: event.optional(),
  recipientId: zId('Recipient').optional(),
  entityId: zId('Record').optional(),
  /** On the time the message was planned. */
  from: zInstant('From').optional(),
  to: zInstant('To').optional(),
  cursor: z.string().max(200, 'The list cursor is too long.').optional(),
  limit: z
    .number({ error: 'Rows per page must be a whole number.' })
    .int('Rows per page must be a whole number.')
    .min(1, 'Rows per page must be between 1 and 200.')
    .max(200, 'Rows per page must be between 1 and 200.')
    .default(50),
});
export type TListMessagesInput = z.infer<typeof ZListMessagesInput>;

export const ZMessageItem = z.object({
  _id: z.string(),
  event: zOneOf(MESSAGE_EVENTS),
  channel: zOneOf(MESSAGE_CHANNELS),
  language: zOneOf(MESSAGE_LANGUAGES),
  status: zOneOf(MESSAGE_STATUSES),
  /** Why it was skipped, or the last error of a failed one; null otherwise. */
  reason: z.string().nullable(),
  sendAt: zInstantOut,
  sentAt: zInstantOut.nullable(),
  attempts: z.number().int().nonnegative(),
  providerId: z.string().nullable(),
  recipient: z.object({ _id: z.string(), fullName: z.string() }),
  /** The address or E.164 phone it went (or would go) to; null when there is none. */
  to: z.string().nullable(),
  subject: z.string().nullable(),
  text: z.string(),
  entityType: zOneOf(MESSAGE_ENTITY_TYPES),
  entityId: z.string(),
  createdAt: zInstantOut,
});
export type TMessageItem = z.infer<typeof ZMessageItem>;

export const ZMessagePage = z.object({ data: z.array(ZMessageItem), nextCursor: z.string().nullable() });
export type TMessagePage = z.infer<typeof ZMessagePage>;

export const ZMessageIdInput = z.object({ id: zId('Message') });

// ------------------------------------------------------------------ templates

const subject = zText('Subject').trim().max(200, 'Subject must be at most 200 characters.');
const body = zText('Template text', { multiline: true, message: 'Template text is required.' })
  .trim()
  .min(1, 'Template text is required.')
  .max(2000, 'Template text must be at most 2000 characters.');

export const ZTemplateItem = z.object({
  event: zOneOf(MESSAGE_EVENTS),
  channel: zOneOf(MESSAGE_CHANNELS),
  language: zOneOf(MESSAGE_LANGUAGES),
  subject: z.string().optional(),
  body: z.string(),
});
export type TTemplateItem = z.infer<typeof ZTemplateItem>;

export const ZTemplateInput = z.object({ event, channel, language, subject: subject.optional(), body });
export type TTemplateInput = z.infer<typeof ZTemplateInput>;

/** PUT stores the items sent, leaving the others as they are. */
export const ZSaveTemplatesInput = z
  .array(ZTemplateInput)
  .max(MESSAGE_EVENTS.length * MESSAGE_CHANNELS.length * MESSAGE_LANGUAGES.length, 'Too many templates.');
export type TSaveTemplatesInput = z.infer<typeof ZSaveTemplatesInput>;

export const ZPreviewInput = z.object({
  event,
  channel,
  language,
  body,
  /** A real record to fill the placeholders from; without it, sample values. */
  entityId: zId('Record').optional(),
});
export type TPreviewInput = z.infer<typeof ZPreviewInput>;

export const SMS_ENCODINGS = ['GSM-7', 'UCS-2'] as const;
export const ZPreviewAnswer = z.object({
  text: z.string(),
  characters: z.number().int().nonnegative(),
  segments: z.number().int().nonnegative(),
  encoding: zOneOf(SMS_ENCODINGS),
});
export type TPreviewAnswer = z.infer<typeof ZPreviewAnswer>;

// ------------------------------------------------------------------ settings

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;
const hhmm = (label: string) =>
  zText(label, { message: `${label} is required.` }).regex(HHMM, `${label} must be a time such as 20:00.`);

const channelSwitches = z.object({
  email: z.boolean({ error: 'Choose whether e-mail is on.' }),
  sms: z.boolean({ error: 'Choose whether SMS is on.' }),
});

export const ZMessageSettings = z.object({
  events: z.object(
    Object.fromEntries(MESSAGE_EVENTS.map((e) => [e, channelSwitches])) as Record<MessageEvent, typeof channelSwitches>,
  ),
  /** Hours before an appointment that a reminder goes; one or two distinct values. */
  reminderHours: z
    .array(
      z
        .number({ error: 'Reminder hours must be a whole number.' })
        .int('Reminder hours must be a whole number.')
        .min(1, 'Reminder hours must be between 1 and 336.')
        .max(336, 'Reminder hours must be between 1 and 336.'),
    )
    .min(1, 'Give at least one reminder time.')
    .max(2, 'At most two reminders.')
    .refine((a) => new Set(a).size === a.length, 'Two reminders must be at different times.'),
  dueSoonDays: z
    .number({ error: 'Days before a due date must be a whole number.' })
    .int('Days before a due date must be a whole number.')
    .min(1, 'Days before a due date must be between 1 and 30.')
    .max(30, 'Days before a due date must be between 1 and 30.'),
  quietHours: z
    .object({ start: hhmm('Quiet hours start'), end: hhmm('Quiet hours end') })
    .refine((q) => q.start !== q.end, 'Quiet hours must start and end at different times.')
    .nullable(),
});
export type TMessageSettings = z.infer<typeof ZMessageSettings>;

// ------------------------------------------------------------------ contact preferences

export const ZContactPreferences = z.object({
  language,
  optOut: z.object({
    email: z.boolean({ error: 'Choose whether e-mail is opted out.' }),
    sms: z.boolean({ error: 'Choose whether SMS is opted out.' }),
  }),
});
export type TContactPreferences = z.infer<typeof ZContactPreferences>;

export const ZContactPreferencesInput = ZContactPreferences.extend({ id: zId('Person') });
export type TContactPreferencesInput = z.infer<typeof ZContactPreferencesInput>;

export const ZOptOutInput = z.object({ token: zText('Link').max(500, 'The link is not valid.') });
