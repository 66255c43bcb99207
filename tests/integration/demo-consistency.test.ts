import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedIfEmpty } from '../../src/server/seed';
import { todayIn } from '../../src/shared/calendar';
import { startTestApp, type TestApp } from '../helpers/app';

/** The demo data as `npm start` loads it: every paid amount is a recorded payment (docs/payments.md). */
let t: TestApp;
let token: string;
let today: string;

beforeAll(async () => {
  // The dashboard is compared with the lists: read afresh, never reused.
  t = await startTestApp({ DASHBOARD_CACHE_SECONDS: 0 });
  await seedIfEmpty({ ...t.deps, config: { ...t.deps.config, SEED_DEMO: true } });
  token = (await t.userWithSession('admin')).token;
  today = todayIn(t.deps.config.TIME_ZONE);
});
afterAll(() => t?.close());

const rows = <T>(r: unknown): T[] => (Array.isArray(r) ? (r as T[]) : ((r as { rows: T[] }).rows ?? []));
const cents = (n: number) => Math.round(n * 100);

describe('demo data', () => {
  it('holds on every admission fee and installment exactly what its valid allocations say, and is paid only then', async () => {
    const items = rows<{ kind: string; amount: number; paid: number; is_paid: boolean; allocated: number }>(
      await t.deps.db.execute(sql`
        select 'admission fee' as kind, e.admission_fee_minor::int as amount, e.admission_fee_paid_minor::int as paid,
          e.admission_fee_paid as is_paid,
          (select coalesce(sum(a.amount_minor), 0)::int from payment_allocations a join payments p on p.id = a.payment_id
           where p.status = 'valid' and a.kind = 'admission_fee' and a.enrollment_id = e.id) as allocated
        from enrollments e
        union all
        select 'course installment', i.amount_minor::int, i.amount_paid_minor::int, i.is_paid,
          (select coalesce(sum(a.amount_minor), 0)::int from payment_allocations a join payments p on p.id = a.payment_id
           where p.status = 'valid' and a.enrollment_installment_id = i.id)
        from enrollment_installments i
        union all
        select 'booking installment', i.amount_minor::int, i.amount_paid_minor::int, i.is_paid,
          (select coalesce(sum(a.amount_minor), 0)::int from payment_allocations a join payments p on p.id = a.payment_id
           where p.status = 'valid' and a.booking_installment_id = i.id)
        from booking_installments i`),
    );
    expect(items.length).toBeGreaterThan(10);
    expect(items.some((i) => i.kind === 'booking installment' && i.is_paid)).toBe(true);
    for (const i of items) {
      expect(i.paid, `${i.kind} of ${i.amount}`).toBe(i.allocated);
      expect(i.is_paid, `${i.kind} of ${i.amount} holding ${i.paid}`).toBe(i.amount > 0 && i.paid >= i.amount);
    }
  });

  it('shows no booking Paid that is overdue, and the dashboard owes what the enrolments and bookings lists show', async () => {
    const c = t.trpc(token);
    const enrolments = await c.enrollments.list.query({ pageSize: 100 });
    const bookings = await c.bookings.list.query({ pageSize: 100 });
    expect(enrolments.total).toBe(enrolments.items.length);
    expect(bookings.total).toBe(bookings.items.length);

    const overdue = new Map<string, number>();
    const add = (currency: string, minor: number) => overdue.set(currency, (overdue.get(currency) ?? 0) + minor);
    for (const e of enrolments.items.filter((x) => x.status === 'Active')) {
      // The admission fee is due on the enrolment day (docs/payments.md#receivables).
      if (e.enrolledOn < today) add(e.currency, cents(e.admissionFee) - cents(e.admissionFeeAmountPaid));
      for (const i of e.installments.filter((x) => x.isOverdue)) add(e.currency, cents(i.amount) - cents(i.amountPaid));
    }
    for (const b of bookings.items.filter((x) => x.status === 'active')) {
      const late = b.installments.filter((x) => x.isOverdue);
      if (b.paymentStatus === 'paid') {
        expect(late, `${b.treatmentId.treatmentName} shown Paid`).toEqual([]);
        expect(b.installments.every((i) => cents(i.amountPaid) === cents(i.amount))).toBe(true);
      }
      if (late.length) expect(b.paymentStatus).toBe('overdue');
      for (const i of late) add(b.currency, cents(i.amount) - cents(i.amountPaid));
    }
    expect([...overdue.values()].some((v) => v > 0)).toBe(true);

    const dash = await c.payments.dashboard.query({});
    const shown = new Map(dash.overdue.map((o) => [o.currency, cents(o.amount)]));
    for (const currency of new Set([...overdue.keys(), ...shown.keys()])) {
      expect(shown.get(currency) ?? 0, currency).toBe(overdue.get(currency) ?? 0);
    }
  });
});
