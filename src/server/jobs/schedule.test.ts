import { describe, expect, it } from 'vitest';
import { clockIn, isReminderDue, reminderCron } from './schedule';

describe('reminder schedule', () => {
  it('turns REMINDER_TIME into a daily cron pattern', () => {
    expect(reminderCron({ REMINDER_TIME: '08:00' })).toBe('0 8 * * *');
    expect(reminderCron({ REMINDER_TIME: '17:45' })).toBe('45 17 * * *');
  });

  it('reads the clock in the configured time zone', () => {
    // 02:40 UTC is 08:10 in Colombo (UTC+05:30).
    const now = new Date('2025-03-01T02:40:00Z');
    expect(clockIn('Asia/Colombo', now)).toBe('08:10');
    expect(isReminderDue({ REMINDER_TIME: '08:00', TIME_ZONE: 'Asia/Colombo' }, now)).toBe(true);
    expect(isReminderDue({ REMINDER_TIME: '08:00', TIME_ZONE: 'UTC' }, now)).toBe(false);
    expect(clockIn('UTC', new Date('2025-03-01T00:05:00Z'))).toBe('00:05');
  });
});
