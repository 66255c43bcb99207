import { eq } from 'drizzle-orm';
import type { AppDeps } from '../../deps';
import {
  bookingInstallments,
  courses,
  enrollmentInstallments,
  enrollments,
  treatmentBookings,
  users,
} from '../../db/schema';
import { formatDay, formatMoney } from '../../../shared/format';
import { fromMinor } from '../../../shared/money';
import type { EmailMessage } from '../types';
import { loadOrganisation } from '../../domains/settings/organisation.service';
import { brandedEmail } from './layout';

export type InstallmentKind = 'enrollment' | 'booking';

/** Each kind's installments and the record they belong to (an enrolment, a booking). */
export const INSTALLMENT_PLANS = {
  enrollment: { items: enrollmentInstallments, owner: enrollments, ownerId: enrollmentInstallments.enrollmentId },
  booking: { items: bookingInstallments, owner: treatmentBookings, ownerId: bookingInstallments.bookingId },
};

/** What a reminder reads of one installment, its record and its user, whichever the kind. */
function dueFields({ items, owner }: (typeof INSTALLMENT_PLANS)[InstallmentKind]) {
  return {
    userId: owner.userId,
    email: users.email,
    fullName: users.fullName,
    seq: items.seq,
    amountMinor: items.amount,
    currency: owner.currency,
    dueDate: items.dueDate,
    isPaid: items.isPaid,
    status: owner.status,
  };
}

/** The `ref` of a reminder email job: which installment, of which kind. */
export const reminderRef = (kind: InstallmentKind, installmentId: string) => `${kind}:${installmentId}`;

function parseRef(ref: string | undefined): { kind: InstallmentKind; id: string } | null {
  const m = /^(enrollment|booking):([0-9a-f-]{36})$/i.exec(ref ?? '');
  const kind = m?.[1];
  const id = m?.[2];
  return (kind === 'enrollment' || kind === 'booking') && id ? { kind, id } : null;
}

interface Due {
  userId: string | null;
  email: string;
  fullName: string;
  seq: number;
  amountMinor: number;
  currency: string;
  dueDate: string;
  isPaid: boolean;
  active: boolean;
  what: string;
}

async function loadDue(deps: AppDeps, kind: InstallmentKind, id: string): Promise<Due | null> {
  if (kind === 'enrollment') {
    const [row] = await deps.db
      .select({
        ...dueFields(INSTALLMENT_PLANS.enrollment),
        courseName: courses.courseName,
        deletedCourseName: enrollments.deletedCourseName,
      })
      .from(enrollmentInstallments)
      .innerJoin(enrollments, eq(enrollments.id, enrollmentInstallments.enrollmentId))
      .innerJoin(users, eq(users.id, enrollments.userId))
      .leftJoin(courses, eq(courses.id, enrollments.courseId))
      .where(eq(enrollmentInstallments.id, id))
      .limit(1);
    if (!row) return null;
    const course = row.courseName ?? row.deletedCourseName ?? 'your course';
    return { ...row, active: row.status === 'active', what: `the course "${course}"` };
  }
  const [row] = await deps.db
    .select({
      ...dueFields(INSTALLMENT_PLANS.booking),
      treatmentName: treatmentBookings.treatmentName,
    })
    .from(bookingInstallments)
    .innerJoin(treatmentBookings, eq(treatmentBookings.id, bookingInstallments.bookingId))
    .innerJoin(users, eq(users.id, treatmentBookings.userId))
    .where(eq(bookingInstallments.id, id))
    .limit(1);
  if (!row) return null;
  return { ...row, active: row.status === 'active', what: `the treatment "${row.treatmentName}"` };
}

/**
 * The overdue-installment reminder for `ref`. Null when there is nothing to remind of any more
 * (paid, cancelled or deleted since the reminder was queued, or the user is not its owner).
 */
export async function buildReminderEmail(
  deps: AppDeps,
  payload: { userId: string; ref?: string },
): Promise<EmailMessage | null> {
  const target = parseRef(payload.ref);
  if (!target) return null;
  const due = await loadDue(deps, target.kind, target.id);
  if (!due || due.isPaid || !due.active || due.userId !== payload.userId) return null;
  const amount = formatMoney(fromMinor(due.amountMinor), due.currency);
  return brandedEmail(
    await loadOrganisation(deps.db, deps.config),
    due.email,
    'Payment reminder: installment overdue',
    [
      `Dear ${due.fullName},`,
      `Installment ${due.seq + 1} for ${due.what}, ${amount}, was due on ${formatDay(due.dueDate)} and has not been paid yet.`,
      'Please pay it at your earliest convenience, or contact us if you have already paid or need more time.',
      'Thank you.',
    ],
  );
}
