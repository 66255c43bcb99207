import { and, asc, eq, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import { bookingInstallments, enrollmentInstallments, reminderLog, users } from '../../db/schema';
import { INSTALLMENT_PLANS, reminderRef, type InstallmentKind } from '../../email/templates/reminder';
import { todayIn } from '../../../shared/calendar';
import type { ServiceContext } from '../context';

const BATCH = 500;

interface Cursor {
  dueDate: string;
  id: string;
}
interface OverdueRow extends Cursor {
  userId: string;
}

/**
 * Which of a page's installments already have today's reminder logged. A separate look-up by id
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
  const { items: t, owner, ownerId } = INSTALLMENT_PLANS[kind];
  const rows = await db
    .select({ id: t.id, dueDate: t.dueDate, userId: owner.userId })
    .from(t)
    .innerJoin(owner, and(eq(owner.id, ownerId), eq(owner.status, 'active')))
    .innerJoin(users, eq(users.id, owner.userId))
    .where(overdueAfter(t, today, after))
    .orderBy(asc(t.dueDate), asc(t.id))
    .limit(limit);
  return withUser(rows);
}

/** The email key of one installment's reminder on one day: the outbox sends each key once. */
export const reminderKey = (kind: InstallmentKind, installmentId: string, day: string) =>
  `reminder:${kind}:${installmentId}:${day}`;

/**
 * The send-overdue-reminders job (also run directly by the on-demand endpoint): one email per
 * overdue installment per day, to the enrolment's student or the booking's customer.
 *
 * Safe to run twice or to die half-way: for each page, the emails (a job id and an email key per
 * installment and day, so a repeat queues and sends nothing new) and the day's reminder_log rows
 * are recorded in one transaction. A run after a crash queues again whatever was not logged; what
 * was logged was queued with it. `queued` counts the installments logged by this run.
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
        // The emails and the day's log rows are recorded together: both or neither.
        const logged = await deps.db.transaction(async (tx) => {
          await deps.jobs.enqueueMany(
            'send-email',
            fresh.map((r) => {
              const key = reminderKey(kind, r.id, today);
              return {
                payload: { key, template: 'reminder' as const, userId: r.userId, ref: reminderRef(kind, r.id) },
                opts: { jobId: key },
              };
            }),
            { tx },
          );
          return tx
            .insert(reminderLog)
            .values(fresh.map((r) => ({ installmentKind: kind, installmentId: r.id, sentOn: today })))
            .onConflictDoNothing()
            .returning({ id: reminderLog.id });
        });
        queued += logged.length;
      }
      if (rows.length < limit) break;
    }
  }
  if (queued > 0) deps.log.info({ queued, date: today }, 'overdue reminders queued');
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
