import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { messageSettings } from '../../db/schema';
import { MESSAGE_EVENTS, ZMessageSettings, type MessageEvent, type TMessageSettings } from '@shared/schemas/messages';
import { wallClockOf, instantAt } from '../../../shared/zoned-time';
import { addToDate } from '../../../shared/calendar';

/** What a fresh organisation has: every event on both channels except the receipt after every payment. */
export function defaultMessageSettings(): TMessageSettings {
  const events = Object.fromEntries(
    MESSAGE_EVENTS.map((e) => [
      e,
      e === 'payment_received' ? { email: false, sms: false } : { email: true, sms: e !== 'statement' },
    ]),
  ) as Record<MessageEvent, { email: boolean; sms: boolean }>;
  return { events, reminderHours: [24], dueSoonDays: 3, quietHours: { start: '20:00', end: '08:00' } };
}

/**
 * The stored settings over the defaults: an event added after the row was saved reads as its
 * default, and a row that no longer parses (a hand edit) reads as the defaults.
 */
export async function loadMessageSettings(db: Db): Promise<TMessageSettings> {
  const [row] = await db.select().from(messageSettings).where(eq(messageSettings.id, 1)).limit(1);
  const defaults = defaultMessageSettings();
  if (!row) return defaults;
  const stored = row.settings as Partial<TMessageSettings>;
  const merged = { ...defaults, ...stored, events: { ...defaults.events, ...(stored.events ?? {}) } };
  const parsed = ZMessageSettings.safeParse(merged);
  return parsed.success ? parsed.data : defaults;
}

export async function storeMessageSettings(db: Db, value: TMessageSettings): Promise<void> {
  await db
    .insert(messageSettings)
    .values({ id: 1, settings: value })
    .onConflictDoUpdate({ target: messageSettings.id, set: { settings: value, updatedAt: new Date() } });
}

const minuteOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * When a message due at `at` may go: `at` itself outside quiet hours, else the next end of quiet
 * hours on the organisation's clock (TIME_ZONE). Quiet hours may run past midnight (20:00–08:00).
 */
export function afterQuietHours(quiet: TMessageSettings['quietHours'], timeZone: string, at: Date): Date {
  if (!quiet) return at;
  const start = minuteOf(quiet.start);
  const end = minuteOf(quiet.end);
  const wall = wallClockOf(timeZone, at);
  const m = wall.minute;
  const inside = start < end ? m >= start && m < end : m >= start || m < end;
  if (!inside) return at;
  // Inside: the end is today when it is still ahead of the wall clock, else tomorrow.
  const day = m < end ? wall.day : addToDate(wall.day, { days: 1 });
  return instantAt(timeZone, day, end);
}
