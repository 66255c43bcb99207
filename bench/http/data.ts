/**
 * The data the HTTP benchmark measures on: the scale data set (bench/scale-seed.ts), one
 * superadmin with a session whose token the load generator sends as a Bearer token, and the ids
 * the measured paths need.
 */
import { sql } from 'drizzle-orm';
import { createSession } from '../../src/server/auth/sessions';
import { openDatabase, type Db } from '../../src/server/db/client';
import { seedScale, type ScaleSizes } from '../scale-seed';

/** BENCH_USERS scales the whole data set; the other sizes keep the proportions of docs/performance.md#targets. */
export function benchSizes(users: number): ScaleSizes {
  return {
    users,
    branches: 5,
    courses: 200,
    enrollments: Math.round(users * 1.5),
    treatments: 100,
    bookings: Math.round(users * 0.3),
  };
}

export interface BenchData {
  token: string;
  adminId: string;
  /** An active instalment-plan enrolment (several instalments): the "by id" path. */
  enrollmentId: string;
  /**
   * Active enrolments whose first instalment the write path toggles, with its current state. They
   * start unpaid, so that marking one unpaid later undoes a payment the benchmark made (the
   * generated data's paid instalments have no payment behind them to void).
   */
  toggles: Array<{ id: string; isPaid: boolean }>;
  counts: Record<string, number>;
}

function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows: T[] }).rows ?? []);
}

/** Migrates, seeds and signs in; `databaseUrl` unset means PGlite in `dataDir` (the embedded mode). */
export async function prepareData(
  target: { databaseUrl?: string; dataDir: string },
  sizes: ScaleSizes,
  log: (s: string) => void,
): Promise<BenchData> {
  const handle = await openDatabase({ databaseUrl: target.databaseUrl, dataDir: target.dataDir, max: 4 });
  try {
    await handle.migrate();
    const { db } = handle;
    const t0 = performance.now();
    log(`Seeding ${handle.kind}: ${JSON.stringify(sizes)}`);
    await seedScale(db, sizes);
    // The currency settings row the server would create on first start.
    await db.execute(sql`insert into settings (id) values (1) on conflict do nothing`);
    log(`Data ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    return await sessionAndIds(db);
  } finally {
    await handle.close();
  }
}

async function sessionAndIds(db: Db): Promise<BenchData> {
  const [admin] = rowsOf<{ id: string }>(
    await db.execute(sql`
      insert into users (username, full_name, email, password_hash, role)
      values ('bench-superadmin', 'Bench Superadmin', 'bench-superadmin@example.com', 'x', 'superadmin')
      returning id`),
  );
  // A week-long session: idle and absolute limits are far beyond one run.
  const { token } = await createSession(db, admin!.id, { idleMs: 7 * 86400_000, maxMs: 7 * 86400_000 });
  const [enrollment] = rowsOf<{ id: string }>(
    await db.execute(sql`
      select e.id from enrollments e
      where e.status = 'active' and e.payment_type = 'installment'
        and (select count(*) from enrollment_installments i where i.enrollment_id = e.id) >= 6
      order by e.created_at desc limit 1`),
  );
  const toggles = rowsOf<{ id: string; is_paid: boolean }>(
    await db.execute(sql`
      select e.id, i.is_paid from enrollments e
      join enrollment_installments i on i.enrollment_id = e.id and i.seq = 0
      where e.status = 'active' and not i.is_paid
      order by e.created_at, e.id limit 2000`),
  );
  const [counts] = rowsOf<Record<string, string>>(
    await db.execute(sql`
      select (select count(*) from users) as users, (select count(*) from enrollments) as enrollments,
             (select count(*) from enrollment_installments) as enrollment_installments,
             (select count(*) from treatment_bookings) as bookings,
             (select count(*) from booking_installments) as booking_installments`),
  );
  return {
    token,
    adminId: admin!.id,
    enrollmentId: enrollment!.id,
    toggles: toggles.map((t) => ({ id: t.id, isPaid: t.is_paid })),
    counts: Object.fromEntries(Object.entries(counts!).map(([k, v]) => [k, Number(v)])),
  };
}
