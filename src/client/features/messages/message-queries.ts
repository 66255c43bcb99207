import { oneOf } from '@/lib/list-search';
import { trpc } from '@/lib/trpc';
import {
  MESSAGE_CHANNELS,
  MESSAGE_EVENTS,
  MESSAGE_STATUSES,
  type MessageChannel,
  type MessageEvent,
  type MessageLanguage,
  type MessageStatus,
  type SkipReason,
} from '@shared/schemas/messages';

export const MESSAGE_TABS = ['settings', 'templates', 'log'] as const;
export type MessageTab = (typeof MESSAGE_TABS)[number];

export const EVENT_LABELS: Record<MessageEvent, string> = {
  appointment_booked: 'Appointment booked',
  appointment_rescheduled: 'Appointment rescheduled',
  appointment_cancelled: 'Appointment cancelled',
  appointment_reminder: 'Appointment reminder',
  class_cancelled: 'Class cancelled',
  class_moved: 'Class moved',
  absence: 'Absence notice',
  installment_due_soon: 'Installment due soon',
  installment_overdue: 'Installment overdue',
  payment_received: 'Payment received',
  statement: 'Statement',
};

export const CHANNEL_LABELS: Record<MessageChannel, string> = { email: 'E-mail', sms: 'SMS' };

export const LANGUAGE_LABELS: Record<MessageLanguage, string> = { en: 'English', si: 'Sinhala', ta: 'Tamil' };

export const STATUS_LABELS: Record<MessageStatus, string> = {
  scheduled: 'Scheduled',
  queued: 'Queued',
  waiting: 'Waiting',
  sent: 'Sent',
  failed: 'Failed',
  skipped: 'Skipped',
  withdrawn: 'Withdrawn',
};

const SKIP_REASON_LABELS: Record<SkipReason, string> = {
  opted_out: 'opted out',
  no_phone: 'no phone number',
  no_email: 'no e-mail address',
  switched_off: 'switched off in settings',
  inside_reminder_window: 'booked inside the reminder window',
  paid: 'paid before it was sent',
  no_longer_due: 'its enrolment or booking ended',
};

/** A skip reason in words; a failure's reason (the provider's error) as it came. */
export function reasonText(reason: string | null): string | null {
  if (!reason) return null;
  return (SKIP_REASON_LABELS as Record<string, string>)[reason] ?? reason;
}

/**
 * Settings → Messages in the URL: the tab, and the log's filters
 * (`?tab=log&status=failed&channel=sms&event=appointment_reminder&recipient=<id>&recipientName=…&from=2026-12-01`),
 * so a filtered log can be reloaded and shared. The recipient's name is only for the filter's chip.
 */
export interface MessagesSearch {
  tab?: Exclude<MessageTab, 'settings'>;
  status?: MessageStatus;
  channel?: MessageChannel;
  event?: MessageEvent;
  recipient?: string;
  recipientName?: string;
  from?: string;
  to?: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const UUID = /^[0-9a-f-]{36}$/i;
const day = (v: unknown) => (typeof v === 'string' && DAY.test(v) ? v : undefined);
const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim().slice(0, 200) : undefined);

export function validateMessagesSearch(search: Record<string, unknown>): MessagesSearch {
  const recipient = typeof search.recipient === 'string' && UUID.test(search.recipient) ? search.recipient : undefined;
  return {
    tab: search.tab === 'templates' || search.tab === 'log' ? search.tab : undefined,
    status: oneOf(MESSAGE_STATUSES, search.status),
    channel: oneOf(MESSAGE_CHANNELS, search.channel),
    event: oneOf(MESSAGE_EVENTS, search.event),
    recipient,
    recipientName: recipient ? text(search.recipientName) : undefined,
    from: day(search.from),
    to: day(search.to),
  };
}

export const LOG_SLICE = 25;

/** The zone's offset from UTC at `at`, in minutes (+330 for Asia/Colombo). */
function offsetMinutes(timeZone: string, at: Date): number {
  const name =
    new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = /GMT([+-])(\d{2}):?(\d{2})?/.exec(name);
  return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0)) : 0;
}

/** Midnight starting `day` ('YYYY-MM-DD') on the zone's clock, as an instant. */
export function dayStartIn(day: string, timeZone: string): Date {
  const utc = Date.parse(`${day}T00:00:00Z`);
  const first = utc - offsetMinutes(timeZone, new Date(utc)) * 60_000;
  // Once more at the guess: a zone whose offset changes that night has the later offset by then.
  return new Date(utc - offsetMinutes(timeZone, new Date(first)) * 60_000);
}

const nextDay = (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/**
 * The log's filters as `messages.list` takes them: the days are whole days on the clinic's clock
 * (TIME_ZONE), so "To 3 Dec" includes everything planned on the 3rd.
 */
export function logInput(s: MessagesSearch, timeZone: string) {
  return {
    status: s.status,
    channel: s.channel,
    event: s.event,
    recipientId: s.recipient,
    from: s.from ? dayStartIn(s.from, timeZone).toISOString() : undefined,
    // The server's `to` is exclusive: the next day's first instant.
    to: s.to ? dayStartIn(nextDay(s.to), timeZone).toISOString() : undefined,
    limit: LOG_SLICE,
  };
}

/** The log slice by slice (keyset): "Load more" asks for the next one. */
export function messageLogOptions(s: MessagesSearch, timeZone: string) {
  return trpc.messages.list.infiniteQueryOptions(logInput(s, timeZone), {
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    // While a message shown is on its way (queued, or resent), the log looks again for its outcome.
    refetchInterval: (query) =>
      query.state.data?.pages.some((p) => p.data.some((m) => m.status === 'queued')) ? 3000 : false,
  });
}

export const messageSettingsOptions = () => trpc.messageSettings.get.queryOptions();
export const messageTemplatesOptions = () => trpc.messageTemplates.list.queryOptions();

/** The organisation's zone (TIME_ZONE), in which the log's days are read. */
export const clockOptions = () => trpc.appointments.clock.queryOptions(undefined, { staleTime: Infinity });
