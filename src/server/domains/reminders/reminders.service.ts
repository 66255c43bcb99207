import { and, asc, eq, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import {
  bookingInstallments,
  courses,
  enrollmentInstallments,
  enrollments,
  reminderLog,
  treatmentBookings,
  users,
} from '../../db/schema';
import type { InstallmentKind } from '../../email/templates/reminder';
import { planMany, planningContext } from '../messages/plan';
import { dueSpec } from '../messages/due-soon';
import { todayIn } from '../../../shared/calendar';
import type { ServiceContext } from '../context';

const BATCH = 500;

interface Cursor {
  dueDate: string;
  id: string;
}
interface OverdueRow extends Cursor {
  userId: string;
  amount: number;
  currency: string;
  what: string | null;
}

/**
 * Which of a page's installments were reminded today by the old e-mail path, which logged each
 * reminder in reminder_log (kept as that history; nothing writes it any more). A separate look-up by id
 * through the unique index: as an EXISTS in the page query, the planner hashed all of today's log
 * rows for every page, so a run over 100,000 overdue installments grew quadratically (docs/scale.md).
 */
async function remindedIds(db: Db, kind: InstallmentKind, ids: string[], day: string): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: reminderLog.installmentId })
    .from(reminderLog)
    .where(
      and(eq(reminderLog.installmentKind, kind), inArray(reminderLog.installmentId, ids), eq(reminderLog.sentOn, day)),
    );
  return new Set(rows.map((r) => r.id));
}

/** The inner join on users makes every userId non-null; this guard lets TypeScript know it too. */
const withUser = <R extends { userId: string | null }>(rows: R[]) =>
  rows.filter((r): r is R & { userId: string } => r.userId !== null);

/** Unpaid, due before `today`, after the cursor in (due date, id) order: the partial index's terms. */
function overdueAfter(
  t: typeof enrollmentInstallments | typeof bookingInstallments,
  today: string,
  after: Cursor | null,
): SQL | undefined {
  return and(
    eq(t.isPaid, false),
    lt(t.dueDate, today),
    after ? sql`(${t.dueDate}, ${t.id}) > (${after.dueDate}::date, ${after.id}::uuid)` : undefined,
  );
}

/**
 * One page of overdue installments after `after`, in (due date, id) order: keyset paging over the
 * partial "unpaid by due date" index, so a run over a million installments holds one page at a time.
 * Only an active enrolment's or booking's installments, and only those whose user still exists.
 */
async function overduePage(
  db: Db,
  kind: InstallmentKind,
  today: string,
  after: Cursor | null,
  limit: number,
): Promise<OverdueRow[]> {
  if (kind === 'enrollment') {
    const t = enrollmentInstallments;
    const rows = await db
      .select({
        id: t.id,
        dueDate: t.dueDate,
        userId: enrollments.userId,
        amount: t.amount,
        currency: enrollments.currency,
        what: sql<string | null>`coalesce(${courses.courseName}, ${enrollments.deletedCourseName})`,
      })
      .from(t)
      .innerJoin(enrollments, and(eq(enrollments.id, t.enrollmentId), eq(enrollments.status, 'active')))
      .innerJoin(users, eq(users.id, enrollments.userId))
      .leftJoin(courses, eq(courses.id, enrollments.courseId))
      .where(overdueAfter(t, today, after))
      .orderBy(asc(t.dueDate), asc(t.id))
      .limit(limit);
    return withUser(rows);
  }
  const t = bookingInstallments;
  const rows = await db
    .select({
      id: t.id,
      dueDate: t.dueDate,
      userId: treatmentBookings.userId,
      amount: t.amount,
      currency: treatmentBookings.currency,
      what: treatmentBookings.treatmentName,
    })
    .from(t)
    .innerJoin(treatmentBookings, and(eq(treatmentBookings.id, t.bookingId), eq(treatmentBookings.status, 'active')))
    .innerJoin(users, eq(users.id, treatmentBookings.userId))
    .where(overdueAfter(t, today, after))
    .orderBy(asc(t.dueDate), asc(t.id))
    .limit(limit);
  return withUser(rows);
}

/**
 * The send-overdue-reminders job (also run directly by the on-demand endpoint): plans one
 * `installment_overdue` message per overdue installment per day (docs/messages.md#overdue-installments), to the
 * enrolment's student or the booking's customer, sent by the send-message job.
 *
 * Safe to run twice or to die half-way: each page is planned in one transaction, and a message's
 * key (installment and day) makes a repeat plan nothing new. An installment reminded today by the
 * old e-mail path (its reminder_log row) is not reminded again. `queued` counts the installments
 * this run planned a message to send for.
 */
export async function queueOverdueReminders(
  deps: AppDeps,
  opts: { batchSize?: number } = {},
): Promise<{ queued: number; date: string }> {
  const today = todayIn(deps.config.TIME_ZONE);
  const limit = opts.batchSize ?? BATCH;
  let queued = 0;
  for (const kind of ['enrollment', 'booking'] as const) {
    let after: Cursor | null = null;
    for (;;) {
      const rows = await overduePage(deps.db, kind, today, after, limit);
      const last = rows.at(-1);
      if (!last) break;
      after = { dueDate: last.dueDate, id: last.id };
      const reminded = await remindedIds(
        deps.db,
        kind,
        rows.map((r) => r.id),
        today,
      );
      const fresh = rows.filter((r) => !reminded.has(r.id));
      if (fresh.length > 0) {
        const written = await deps.db.transaction(async (tx) =>
          planMany(
            tx,
            deps,
            fresh.map((r) => dueSpec('installment_overdue', r, today)),
            await planningContext(tx, deps),
          ),
        );
        queued += new Set(written.filter((w) => w.status === 'scheduled').map((w) => w.entityId)).size;
      }
      if (rows.length < limit) break;
    }
  }
  if (queued > 0) deps.log.info({ queued, date: today }, 'overdue reminders planned');
  return { queued, date: today };
}

/** POST /api/enrollments/send-reminders and jobs.sendReminders: run now, answer how many were queued. */
export async function sendRemindersNow(ctx: ServiceContext): Promise<{ message: string; queued: number }> {
  const { queued } = await queueOverdueReminders(ctx.deps);
  const message =
    queued === 0
      ? "No reminders to send: no overdue installment is waiting for today's reminder."
      : `${queued} ${queued === 1 ? 'reminder' : 'reminders'} queued.`;
  return { message, queued };
}
