import { and, asc, eq, gt } from 'drizzle-orm';
import type { AppDeps } from '../../deps';
import { bookingInstallments, courses, enrollmentInstallments, enrollments, treatmentBookings } from '../../db/schema';
import { addToDate, todayIn } from '../../../shared/calendar';
import { formatDay, formatMoney } from '../../../shared/format';
import { fromMinor } from '../../../shared/money';
import { loadMessageSettings } from './settings';
import { planMany, planningContext, type MessageSpec } from './plan';

const PAGE = 500;

interface DueRow {
  id: string;
  userId: string | null;
  amount: number;
  currency: string;
  dueDate: string;
  what: string | null;
}

/** One page of unpaid installments of active records due on `day`, after `after` by id. */
async function duePage(
  deps: AppDeps,
  kind: 'enrollment' | 'booking',
  day: string,
  after: string | null,
): Promise<DueRow[]> {
  if (kind === 'enrollment') {
    const t = enrollmentInstallments;
    return deps.db
      .select({
        id: t.id,
        userId: enrollments.userId,
        amount: t.amount,
        currency: enrollments.currency,
        dueDate: t.dueDate,
        what: courses.courseName,
      })
      .from(t)
      .innerJoin(enrollments, and(eq(enrollments.id, t.enrollmentId), eq(enrollments.status, 'active')))
      .leftJoin(courses, eq(courses.id, enrollments.courseId))
      .where(and(eq(t.isPaid, false), eq(t.dueDate, day), after ? gt(t.id, after) : undefined))
      .orderBy(asc(t.id))
      .limit(PAGE);
  }
  const t = bookingInstallments;
  return deps.db
    .select({
      id: t.id,
      userId: treatmentBookings.userId,
      amount: t.amount,
      currency: treatmentBookings.currency,
      dueDate: t.dueDate,
      what: treatmentBookings.treatmentName,
    })
    .from(t)
    .innerJoin(treatmentBookings, and(eq(treatmentBookings.id, t.bookingId), eq(treatmentBookings.status, 'active')))
    .where(and(eq(t.isPaid, false), eq(t.dueDate, day), after ? gt(t.id, after) : undefined))
    .orderBy(asc(t.id))
    .limit(PAGE);
}

/** The notice about one installment: due soon, or overdue (its occasion also names the day). */
export function dueSpec(
  event: 'installment_due_soon' | 'installment_overdue',
  r: { id: string; userId: string; amount: number; currency: string; dueDate: string; what: string | null },
  day?: string,
): MessageSpec {
  return {
    event,
    recipientId: r.userId,
    entityType: 'installment',
    entityId: r.id,
    occasion: day ? `${r.id}:${day}` : `${r.id}:${r.dueDate}`,
    sendAt: new Date(),
    vars: {
      amount: formatMoney(fromMinor(r.amount), r.currency),
      dueDate: formatDay(r.dueDate),
      course: r.what ?? '',
      treatment: r.what ?? '',
    },
  };
}

/**
 * installment_due_soon, planned by the daily run: each unpaid installment of an active enrolment
 * or booking due `dueSoonDays` from today (TIME_ZONE) gets one notice; its key (installment and
 * due date) makes a second run the same day, or a crash and rerun, plan nothing new.
 */
export async function planDueSoon(deps: AppDeps): Promise<{ planned: number }> {
  const settings = await loadMessageSettings(deps.db);
  const day = addToDate(todayIn(deps.config.TIME_ZONE), { days: settings.dueSoonDays });
  let planned = 0;
  for (const kind of ['enrollment', 'booking'] as const) {
    let after: string | null = null;
    for (;;) {
      const rows = await duePage(deps, kind, day, after);
      const last = rows.at(-1);
      if (!last) break;
      after = last.id;
      // One transaction per page, and a fixed number of queries in it: the context, the
      // recipients, the rows and their send jobs (planMany), whatever the page's length.
      await deps.db.transaction(async (tx) => {
        const specs = rows.flatMap((r) =>
          r.userId ? [dueSpec('installment_due_soon', { ...r, userId: r.userId })] : [],
        );
        await planMany(tx, deps, specs, await planningContext(tx, deps));
        planned += specs.length;
      });
      if (rows.length < PAGE) break;
    }
  }
  return { planned };
}
