import { addToDate, todayIn } from '../../shared/calendar';
import { formatDay } from '../../shared/format';
import { isAdmin } from '../../shared/roles';
import { AppError } from '../errors';
import type { SystemContext } from './context';

/** How far back an enrolment or booking may start (docs/payments.md#starting-in-the-past). */
export const START_DAY_MONTHS_BACK = 12;

/**
 * The day an enrolment or booking starts: today in TIME_ZONE, or the day the caller names for a
 * student who joined before the product was in use. Naming one is for admins (403 otherwise); it
 * may be up to 12 months back and never in the future (400). The schedule's due dates follow from
 * it, so what is already past due is overdue at once.
 */
export function startDayOf(ctx: SystemContext, requested: string | undefined, label: string): string {
  const today = todayIn(ctx.deps.config.TIME_ZONE);
  if (requested === undefined || requested === today) return today;
  if (!isAdmin(ctx.actor?.role)) throw new AppError('FORBIDDEN', `Only an admin can set ${label.toLowerCase()}.`);
  if (requested > today) throw new AppError('BAD_REQUEST', `${label} cannot be in the future.`);
  const earliest = addToDate(today, { months: -START_DAY_MONTHS_BACK });
  if (requested < earliest) {
    throw new AppError(
      'BAD_REQUEST',
      `${label} can be at most ${START_DAY_MONTHS_BACK} months back (${formatDay(earliest)} or later).`,
    );
  }
  return requested;
}
