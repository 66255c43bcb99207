/** Calendar dates as 'YYYY-MM-DD' strings: due dates are days, not instants. */
import { addToDate } from '../../../shared/calendar';

/** Today's date where the institute is (config TIME_ZONE), so "overdue" flips at local midnight. */
export { todayIn } from '../../../shared/calendar';

/** Adds whole months, clamping to the month's last day: Jan 31 + 1 month is Feb 28 (or 29). */
export function addMonthsClamped(isoDate: string, months: number): string {
  return addToDate(isoDate, { months });
}
