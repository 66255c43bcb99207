import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../src/server/db/client';
import {
  bookingInstallments,
  courses,
  emailOutbox,
  enrollmentInstallments,
  enrollments,
  treatmentBookings,
  treatments,
} from '../../src/server/db/schema';
import { todayIn } from '../../src/shared/calendar';

/** Shared by the jobs and reminders tests: overdue money to remind people of. */

export const TZ = 'Asia/Colombo';

export function daysFromToday(n: number): string {
  const d = new Date(`${todayIn(TZ)}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** An enrolment of the user with one installment per due date (amounts of 1,000.00). */
export async function makeEnrollment(
  db: Db,
  userId: string,
  dues: Array<{ dueDate: string; isPaid?: boolean }>,
  o: { status?: 'active' | 'completed' } = {},
) {
  const [course] = await db
    .insert(courses)
    .values({
      courseName: `Course ${randomBytes(3).toString('hex')}`,
      duration: '3 months',
      totalFee: dues.length * 100_000,
      installments: dues.length,
      category: 'IT',
      admissionFee: 0,
    })
    .returning();
  const [enr] = await db
    .insert(enrollments)
    .values({
      userId,
      courseId: course!.id,
      paymentType: 'installment',
      totalFee: course!.totalFee,
      admissionFee: 0,
      enrolledOn: dues[0]!.dueDate,
      status: o.status ?? 'active',
    })
    .returning();
  const rows = await db
    .insert(enrollmentInstallments)
    .values(
      dues.map((d, seq) => ({
        enrollmentId: enr!.id,
        seq,
        amount: 100_000,
        dueDate: d.dueDate,
        isPaid: d.isPaid ?? false,
        paidAt: d.isPaid ? new Date() : null,
      })),
    )
    .returning();
  return { course: course!, enrollment: enr!, installments: rows };
}

export async function makeBooking(
  db: Db,
  userId: string,
  dues: Array<{ dueDate: string; isPaid?: boolean }>,
  o: { status?: 'active' | 'cancelled' } = {},
) {
  const [t] = await db
    .insert(treatments)
    .values({
      treatmentName: `Therapy ${randomBytes(3).toString('hex')}`,
      localPrice: dues.length * 50_000,
      foreignPrice: 10_000,
      maxSessions: 5,
      installments: dues.length,
    })
    .returning();
  const [b] = await db
    .insert(treatmentBookings)
    .values({
      userId,
      treatmentId: t!.id,
      treatmentName: t!.treatmentName,
      maxSessions: 5,
      userType: 'local',
      paymentType: 'installment',
      price: t!.localPrice,
      currency: 'LKR',
      bookedOn: dues[0]!.dueDate,
      status: o.status ?? 'active',
    })
    .returning();
  const rows = await db
    .insert(bookingInstallments)
    .values(
      dues.map((d, seq) => ({ bookingId: b!.id, seq, amount: 50_000, dueDate: d.dueDate, isPaid: d.isPaid ?? false })),
    )
    .returning();
  return { treatment: t!, booking: b!, installments: rows };
}

export async function outboxFor(db: Db, to?: string) {
  const rows = await db.select().from(emailOutbox);
  return to ? rows.filter((r) => r.to === to) : rows;
}

export async function outboxByKey(db: Db, key: string) {
  return db.select().from(emailOutbox).where(eq(emailOutbox.idempotencyKey, key));
}

/** Polls until `check` answers something truthy (jobs finish on their own time). */
export async function waitFor<T>(check: () => Promise<T>, what: string, timeoutMs = 15_000): Promise<NonNullable<T>> {
  const until = Date.now() + timeoutMs;
  let last: T | undefined;
  while (Date.now() < until) {
    last = await check();
    if (last) return last;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`Timed out waiting for ${what} (last: ${JSON.stringify(last)})`);
}
