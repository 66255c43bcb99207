import type { Config } from '../config';

/** BullMQ job scheduler id of the daily reminder: upserting it from every process keeps one. */
export const REMINDER_SCHEDULER_ID = 'daily-overdue-reminders';

/** The in-process driver's job key for one day's scheduled run (one row per date). */
export const REMINDER_JOB_KEY = (date: string) => `scheduled-reminders:${date}`;

/** REMINDER_TIME 'HH:MM' as a daily cron pattern (evaluated in TIME_ZONE by BullMQ). */
export function reminderCron(config: Pick<Config, 'REMINDER_TIME'>): string {
  const [h, m] = config.REMINDER_TIME.split(':').map(Number);
  return `${m} ${h} * * *`;
}

/** The wall-clock time 'HH:MM' of `now` in the time zone. */
export function clockIn(timeZone: string, now: Date): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
    now,
  );
}

/**
 * Whether today's reminder run is due: REMINDER_TIME has passed today in TIME_ZONE. A server that
 * starts later in the day still runs it (the day's job key stops a second run).
 */
export function isReminderDue(config: Pick<Config, 'REMINDER_TIME' | 'TIME_ZONE'>, now: Date): boolean {
  return clockIn(config.TIME_ZONE, now) >= config.REMINDER_TIME;
}
