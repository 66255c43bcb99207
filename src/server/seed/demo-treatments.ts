import { inArray } from 'drizzle-orm';
import { bookingInstallments, bookingSessionNotes, treatmentBookings, treatments, users } from '../db/schema';
import { firstRow } from '../db/rows';
import type { AppDeps } from '../deps';
import { computePaymentStatus } from '../../shared/booking-status';
import { addToDate, todayIn } from '../../shared/calendar';
import { fromMinor, toMinor } from '../../shared/money';
import { bookingTerms } from '../domains/bookings/bookings.service';
import { buildInstallmentSchedule } from '../domains/installments';
import { getCurrencySettings } from '../domains/settings/settings.service';
import { recordPayment } from '../domains/payments/payments.service';
import { demoStaff } from './demo-users';

const DEMO_TREATMENTS = [
  {
    treatmentName: 'Ayurvedic Full Body Massage',
    localPrice: 8500,
    foreignPrice: 35,
    maxSessions: 1,
    installments: 1,
    months: 0,
    weeks: 0,
    days: 0,
  },
  {
    treatmentName: 'Panchakarma Detox Programme',
    localPrice: 145000,
    foreignPrice: 520,
    maxSessions: 21,
    installments: 3,
    months: 1,
    weeks: 0,
    days: 0,
  },
  {
    treatmentName: 'Shirodhara Oil Therapy',
    localPrice: 36000.5,
    foreignPrice: 125.99,
    maxSessions: 7,
    installments: 2,
    months: 0,
    weeks: 2,
    days: 0,
  },
  {
    treatmentName: 'Foot Reflexology',
    localPrice: 12000,
    foreignPrice: 45,
    maxSessions: 5,
    installments: 1,
    months: 0,
    weeks: 0,
    days: 10,
  },
  {
    treatmentName: 'Herbal Steam Therapy',
    localPrice: 64000,
    foreignPrice: 210,
    maxSessions: 12,
    installments: 4,
    months: 3,
    weeks: 1,
    days: 2,
  },
];

/**
 * Bookings in every payment status, back-dated so that one is overdue: `ago` is how many days
 * before today it was booked, `paid` which installments (by position) are paid.
 */
const DEMO_BOOKINGS: Array<{
  email: string;
  treatment: number;
  userType: 'local' | 'foreign';
  paymentType: 'full' | 'installment';
  ago: number;
  paid: number[];
  sessions: number;
  notes?: string[];
  cancelled?: boolean;
}> = [
  {
    email: 'customer1@example.com',
    treatment: 0,
    userType: 'local',
    paymentType: 'full',
    ago: 0,
    paid: [],
    sessions: 0,
  },
  {
    email: 'customer1@example.com',
    treatment: 1,
    userType: 'local',
    paymentType: 'installment',
    ago: 40,
    paid: [0],
    sessions: 6,
    notes: ['Initial consultation and oleation.', 'Tolerated well.'],
  },
  {
    email: 'customer2@example.com',
    treatment: 2,
    userType: 'foreign',
    paymentType: 'installment',
    ago: 5,
    paid: [0],
    sessions: 2,
    notes: ['Relaxed, slept better.'],
  },
  {
    email: 'customer2@example.com',
    treatment: 3,
    userType: 'foreign',
    paymentType: 'full',
    ago: 20,
    paid: [0],
    sessions: 5,
  },
  {
    email: 'student1@example.com',
    treatment: 4,
    userType: 'local',
    paymentType: 'installment',
    ago: 0,
    paid: [],
    sessions: 0,
  },
  {
    email: 'user1@example.com',
    treatment: 3,
    userType: 'local',
    paymentType: 'full',
    ago: 0,
    paid: [],
    sessions: 0,
    cancelled: true,
  },
];

export async function seedDemoTreatments(deps: AppDeps) {
  const { db, config } = deps;
  const created = await db
    .insert(treatments)
    .values(
      DEMO_TREATMENTS.map((t) => ({
        treatmentName: t.treatmentName,
        localPrice: toMinor(t.localPrice),
        foreignPrice: toMinor(t.foreignPrice),
        maxSessions: t.maxSessions,
        installments: t.installments,
        durationMonths: t.months,
        durationWeeks: t.weeks,
        durationDays: t.days,
      })),
    )
    .onConflictDoNothing()
    .returning();
  if (created.length < DEMO_TREATMENTS.length) return;
  const byName = new Map(created.map((t) => [t.treatmentName, t]));
  const customers = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(inArray(users.email, [...new Set(DEMO_BOOKINGS.map((b) => b.email))]));
  const idOf = new Map(customers.map((c) => [c.email, c.id]));
  const currency = await getCurrencySettings(db);
  const today = todayIn(config.TIME_ZONE);

  const toPay: Array<{ bookingId: string; amount: number; receivedAt: Date; foreign: boolean }> = [];
  await db.transaction(async (tx) => {
    for (const [n, d] of DEMO_BOOKINGS.entries()) {
      const userId = idOf.get(d.email);
      const t = byName.get(DEMO_TREATMENTS[d.treatment]?.treatmentName ?? '');
      if (!userId || !t) continue;
      const bookedOn = addToDate(today, { days: -d.ago });
      const terms = bookingTerms(t, d.userType, bookedOn, currency);
      // Written unpaid: what is paid is recorded below as payments, so the ledger holds every amount.
      const schedule = buildInstallmentSchedule(terms.price, d.paymentType, t.installments, bookedOn).map((p) => ({
        ...p,
        isPaid: false,
      }));
      const createdAt = new Date(Date.now() - d.ago * 86_400_000 + n * 1000);
      const rows = await tx
        .insert(treatmentBookings)
        .values({
          userId,
          ...terms,
          paymentType: d.paymentType,
          paymentStatus: computePaymentStatus(schedule, today),
          sessionsCompleted: d.sessions,
          status: d.cancelled ? 'cancelled' : 'active',
          cancelledAt: d.cancelled ? new Date() : null,
          createdAt,
        })
        .returning({ id: treatmentBookings.id });
      const bookingId = firstRow(rows).id;
      await tx.insert(bookingInstallments).values(schedule.map((s) => ({ ...s, bookingId })));
      const paid = schedule.filter((s) => d.paid.includes(s.seq)).reduce((sum, s) => sum + s.amount, 0);
      if (paid > 0 && !d.cancelled) {
        toPay.push({ bookingId, amount: paid, receivedAt: createdAt, foreign: d.userType === 'foreign' });
      }
      if (d.notes?.length) {
        await tx
          .insert(bookingSessionNotes)
          .values(d.notes.map((note, i) => ({ bookingId, sessionNumber: i + 1, note, date: createdAt })));
      }
    }
  });

  // The paid parts were received at the desk the day each booking was made (the oldest first,
  // which is what the ledger settles): an admin, since some of those days are past BACKDATE_DAYS.
  const cashier = (await demoStaff(deps, ['admin.colombo']))('admin.colombo');
  if (!cashier) return;
  for (const p of toPay) {
    await recordPayment(cashier, {
      bookingId: p.bookingId,
      amount: fromMinor(p.amount),
      method: p.foreign ? 'card' : 'cash',
      receivedAt: p.receivedAt.toISOString(),
    });
  }
}
