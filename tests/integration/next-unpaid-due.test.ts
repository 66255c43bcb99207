import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingInstallments, treatmentBookings } from '../../src/server/db/schema';
import { todayIn } from '../../src/shared/calendar';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeUser, postTreatment } from '../helpers/factories';
import { moneySteps, paymentStep, refusedIs4xx, type MoneyStep } from '../helpers/money-steps';

/**
 * A booking's stored earliest unpaid due date (docs/performance.md#a-bookings-earliest-unpaid-due-date)
 * against its instalments, after every step of random sequences of bookings, payments, voids,
 * toggles, due dates moved and instalments deleted straight in the database (time passing, a
 * repair by hand), cancellations and deletions.
 * After each step the booking's payment status is also checked against the definition the column
 * replaced (an unpaid instalment past due, looked up in booking_installments), and the overdue
 * filter of the bookings screen against that status. NEXT_DUE_RUNS sets the number of sequences;
 * NEXT_DUE_SEED replays one (the seed is printed on failure).
 */
const RUNS = Number(process.env.NEXT_DUE_RUNS ?? 12);
const SEED = Number(process.env.NEXT_DUE_SEED ?? Date.now() % 2_147_483_647);

let t: TestApp;
let admin: string;
let today: string;
const treatmentIds: string[] = [];

beforeAll(async () => {
  // Totals counted afresh on every page: a due date moved straight in the database is not a
  // write this server sees, so a reused total would lag it by design (docs/performance.md#keyset-paging).
  t = await startTestApp({ DASHBOARD_CACHE_SECONDS: 0 });
  admin = (await t.userWithSession('admin')).token;
  today = todayIn(t.deps.config.TIME_ZONE);
  for (const installments of [3, 1]) {
    const tr = await postTreatment(t, admin, {
      treatmentName: `Due dates ${installments}`,
      localPrice: 9000,
      foreignPrice: 90,
      maxSessions: 4,
      installments,
      duration: { weeks: 0, days: 0, months: 0 },
    });
    treatmentIds.push(tr._id);
  }
});
afterAll(async () => {
  await t?.close();
});

type Step =
  | MoneyStep
  | { kind: 'shift'; days: number; index: number | null }
  | { kind: 'drop'; index: number }
  | { kind: 'cancel' }
  | { kind: 'delete' };

const step: fc.Arbitrary<Step> = fc.oneof(
  ...moneySteps,
  {
    // Every instalment (index null) or one of them falls due earlier or later.
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('shift' as const),
      days: fc.integer({ min: -90, max: 90 }),
      index: fc.option(fc.nat(3), { nil: null }),
    }),
  },
  // An instalment deleted straight in the database: no screen does it, the triggers must still follow.
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('drop' as const), index: fc.nat(3) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const) }) },
);

describe("a booking's stored earliest unpaid due date", () => {
  it('equals the earliest unpaid instalment after every kind of write, and overdue means what it meant', async () => {
    const api = t.trpc(admin);
    const db = t.deps.db;
    const stored = async (id: string) =>
      (
        await db
          .select({ d: treatmentBookings.nextUnpaidDue })
          .from(treatmentBookings)
          .where(eq(treatmentBookings.id, id))
      )[0]?.d;
    /** The payment status as it was derived before the column: a probe of the instalments. */
    const derivedStatus = async (id: string) =>
      (
        await db
          .select({
            // The booking's id named in full: a one-table select leaves its columns unqualified,
            // which inside the subquery would name the instalment's own id.
            s: sql<string>`case when ${treatmentBookings.status} = 'active' and exists (
                select 1 from booking_installments i
                where i.booking_id = "treatment_bookings"."id" and i.is_paid = false and i.due_date < ${today}::date
              ) then 'overdue' else ${treatmentBookings.paymentStatus} end`,
          })
          .from(treatmentBookings)
          .where(eq(treatmentBookings.id, id))
      )[0]?.s;
    await fc.assert(
      fc.asyncProperty(
        fc.nat(treatmentIds.length - 1),
        fc.constantFrom('full' as const, 'installment' as const),
        fc.array(step, { minLength: 1, maxLength: 10 }),
        async (treatmentIx, paymentType, steps) => {
          // A customer per sequence, so the overdue filter below can be asked for theirs alone.
          const customer = await makeUser(db, { role: 'customer' });
          const book = () =>
            api.bookings.book.mutate({
              email: customer.email,
              treatmentId: treatmentIds[treatmentIx]!,
              userType: 'local',
              paymentType,
            });
          let b = await book();
          const paymentIds: string[] = [];
          const check = async (s: Step | 'booked') => {
            b = await api.bookings.get.query({ id: b._id });
            const unpaid = b.installments.filter((i) => !i.isPaid).map((i) => i.dueDate.slice(0, 10));
            const earliest = unpaid.length ? unpaid.sort()[0] : null;
            const overdueList = await api.bookings.list.query({
              page: 1,
              pageSize: 25,
              paymentStatus: 'overdue',
              userId: customer.id,
            });
            expect({ step: s, stored: await stored(b._id) }).toEqual({ step: s, stored: earliest });
            expect({ step: s, status: b.paymentStatus }).toEqual({ step: s, status: await derivedStatus(b._id) });
            expect({ step: s, listed: overdueList.items.map((i) => i._id), total: overdueList.total }).toEqual({
              step: s,
              listed: b.paymentStatus === 'overdue' ? [b._id] : [],
              total: b.paymentStatus === 'overdue' ? 1 : 0,
            });
          };
          await check('booked');
          for (const s of steps) {
            switch (s.kind) {
              case 'toggle': {
                const inst = b.installments[s.index % b.installments.length];
                if (inst)
                  await refusedIs4xx(
                    api.bookings.setInstallmentPaid.mutate({ id: b._id, installmentId: inst._id, isPaid: s.isPaid }),
                  );
                break;
              }
              case 'pay':
              case 'void':
                await paymentStep(
                  api,
                  s,
                  { bookingId: b._id },
                  b.installments.reduce((n, i) => n + i.amount - i.amountPaid, 0),
                  paymentIds,
                );
                break;
              case 'shift': {
                const one = s.index === null ? null : b.installments[s.index % b.installments.length];
                await db
                  .update(bookingInstallments)
                  .set({ dueDate: sql`${bookingInstallments.dueDate} + ${s.days}::int` })
                  .where(one ? eq(bookingInstallments.id, one._id) : eq(bookingInstallments.bookingId, b._id));
                break;
              }
              case 'drop': {
                const one = b.installments[s.index % b.installments.length];
                if (one) await db.delete(bookingInstallments).where(eq(bookingInstallments.id, one._id));
                break;
              }
              case 'cancel':
                await refusedIs4xx(api.bookings.cancel.mutate({ id: b._id }));
                break;
              case 'delete':
                await api.bookings.delete.mutate({ id: b._id });
                expect(await stored(b._id)).toBeUndefined();
                b = await book();
                paymentIds.length = 0;
                break;
            }
            await check(s);
          }
        },
      ),
      { numRuns: RUNS, seed: SEED },
    );
  }, 600_000);
});
