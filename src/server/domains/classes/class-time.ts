/**
 * The timetable's weekday names and their numbers (1 = Monday … 7 = Sunday, as slots store them).
 * The zone arithmetic itself is src/shared/zoned-time.ts, shared with the appointments.
 */
import { WEEKDAYS, type Weekday } from '@shared/schemas/classes';

export const weekdayNumber = (w: Weekday) => WEEKDAYS.indexOf(w) + 1;
export const weekdayName = (n: number): Weekday => WEEKDAYS[n - 1] ?? 'monday';
