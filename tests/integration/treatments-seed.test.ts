import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedIfEmpty } from '../../src/server/seed';
import { seedDemoTreatments } from '../../src/server/seed/demo-treatments';
import { startTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('demo treatments and bookings', () => {
  it('cover several durations and every payment status, and seeding twice adds nothing', async () => {
    const deps = { ...t.deps, config: { ...t.deps.config, SEED_DEMO: true } };
    await seedIfEmpty(deps);
    const admin = (await t.userWithSession('admin')).token;
    const trpc = t.trpc(admin);
    const treatments = await trpc.treatments.options.query();
    expect(treatments.length).toBeGreaterThanOrEqual(5);
    expect(new Set(treatments.map((x) => JSON.stringify(x.duration))).size).toBeGreaterThanOrEqual(4);
    const list = await trpc.bookings.list.query({ pageSize: 50 });
    const active = list.items.filter((b) => b.status === 'active');
    expect(new Set(active.map((b) => b.paymentStatus))).toEqual(
      new Set(['pending', 'partially_paid', 'paid', 'overdue']),
    );
    expect(list.items.some((b) => b.status === 'cancelled')).toBe(true);
    expect(new Set(list.items.map((b) => b.currency))).toEqual(new Set(['LKR', 'USD']));

    await seedDemoTreatments(deps);
    expect((await trpc.bookings.list.query({ pageSize: 50 })).total).toBe(list.total);
  });
});
