import { and, eq } from 'drizzle-orm';
import { enrollments, users } from '../db/schema';
import type { AppDeps } from '../deps';
import { recordPayment, voidPayment } from '../domains/payments/payments.service';
import { demoStaff } from './demo-users';

const DAY = 86_400_000;

/**
 * Demo ledger rows (docs/payments.md) on top of the demo enrolments and bookings: payments taken
 * by several cashiers over the last months, a partial payment, and a void. The paid/unpaid
 * switches of the other demo seeders already recorded their own payments.
 */
export async function seedDemoPayments(deps: AppDeps) {
  const { db } = deps;
  const as = await demoStaff(deps, ['admin.colombo', 'manager', 'manager.galle']);
  const admin = as('admin.colombo');
  const galle = as('manager.galle');
  const manager = as('manager');
  if (!admin || !galle || !manager) return;

  // customer1's Ayurveda enrolment, behind on its first installment: the admission fee two months
  // ago at the front desk, and part of the first installment by transfer last month.
  const [customer1] = await db.select({ id: users.id }).from(users).where(eq(users.username, 'customer1'));
  const [pending] = customer1
    ? await db
        .select({ id: enrollments.id, admissionFee: enrollments.admissionFee })
        .from(enrollments)
        .where(and(eq(enrollments.userId, customer1.id), eq(enrollments.status, 'active')))
        .limit(1)
    : [];
  if (pending && pending.admissionFee > 0) {
    await recordPayment(admin, {
      enrollmentId: pending.id,
      amount: pending.admissionFee / 100,
      method: 'cash',
      receivedAt: new Date(Date.now() - 60 * DAY).toISOString(),
    });
  }
  if (pending) {
    await recordPayment(galle, {
      enrollmentId: pending.id,
      amount: 5000,
      method: 'bank_transfer',
      reference: 'BOC-448120',
      note: 'Part of the first installment; the rest promised next week.',
      receivedAt: new Date(Date.now() - 25 * DAY).toISOString(),
    });
  }

  // A payment entered twice by mistake: the second one voided by the admin.
  if (pending) {
    const twice = await recordPayment(manager, {
      enrollmentId: pending.id,
      amount: 5000,
      method: 'bank_transfer',
      reference: 'BOC-448120',
    });
    await voidPayment(admin, { id: twice._id, reason: 'Entered twice by mistake.' });
  }
}
