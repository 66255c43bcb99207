/**
 * Bulk data for the scale benchmark, generated inside PostgreSQL (insert ... select from
 * generate_series) so a million installments take seconds, not a million round trips.
 * Deterministic: every "random" choice is arithmetic on the row number.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Db } from '../src/server/db/client';
import { projectRoot } from '../src/server/paths';

export interface ScaleSizes {
  users: number;
  branches: number;
  courses: number;
  enrollments: number;
  treatments: number;
  bookings: number;
}

export function sizesFromEnv(env = process.env): ScaleSizes {
  const n = (name: string, dflt: number) => {
    const v = Number(env[name] ?? dflt);
    if (!Number.isInteger(v) || v < 1) throw new Error(`${name} must be a positive whole number`);
    return v;
  };
  return {
    users: n('SCALE_USERS', 100_000),
    branches: n('SCALE_BRANCHES', 5),
    courses: n('SCALE_COURSES', 200),
    enrollments: n('SCALE_ENROLLMENTS', 150_000),
    treatments: n('SCALE_TREATMENTS', 100),
    bookings: n('SCALE_BOOKINGS', 30_000),
  };
}

const FIRST = [
  'Nimal',
  'Kamala',
  'Sunil',
  'Anura',
  'Dilani',
  'Ruwan',
  'Ishara',
  'Tharindu',
  'Chamari',
  'Kasun',
  'Nadeesha',
  'Priya',
  'John',
  'Maria',
  'Ahmed',
  'Li',
];
const LAST = [
  'Perera',
  'Silva',
  'Fernando',
  'Jayasinghe',
  'Bandara',
  'Wickramasinghe',
  'Dissanayake',
  'Ratnayake',
  'Gunawardena',
  'Herath',
  'Smith',
  'Khan',
];
const TOWNS = ['Colombo', 'Galle', 'Kandy', 'Jaffna', 'Matara', 'Negombo', 'Kurunegala', 'Anuradhapura', 'Trincomalee'];
const arr = (xs: string[]) => sql.raw(`array[${xs.map((x) => `'${x}'`).join(',')}]`);

async function step(label: string, fn: () => Promise<unknown>) {
  const t0 = performance.now();
  await fn();
  console.log(`  ${label}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

/**
 * The data is written as the paid/unpaid switch held it before the payments ledger. With
 * `ledger` (the default) the ledger's own carry-over then turns every paid fee and installment
 * into a payment, exactly as migrating an existing database does; without it the caller applies
 * the ledger migration itself (bench/payments.ts times and checks it).
 */
export async function seedScale(db: Db, s: ScaleSizes, opts: { ledger?: boolean } = {}): Promise<void> {
  // Same hash for every user: hashing 100,000 passwords would dominate the run and test nothing.
  const hash = '$argon2id$v=19$m=19456,t=2,p=1$YmVuY2htYXJrc2FsdA$0000000000000000000000000000000000000000000';
  await step(`${s.branches} branches`, () =>
    db.execute(
      // Town names differ in their first three letters, so carried-over receipt numbers stay unique.
      sql`insert into branches (name, location)
          select (${arr(TOWNS)})[1 + (g - 1) % ${TOWNS.length}] || case when g > ${TOWNS.length} then ' ' || g else '' end,
                 'Main street ' || g
          from generate_series(1, ${s.branches}) g`,
    ),
  );
  // Roles: 60% students, 25% customers, 12% users, the rest staff. Created over two years.
  await step(`${s.users.toLocaleString()} users`, () =>
    db.execute(sql`
      with b as (select id, row_number() over (order by name) - 1 as rn from branches)
      insert into users (username, full_name, email, password_hash, role, branch_id, phone, created_at, updated_at)
      select 'user' || g,
             (${arr(FIRST)})[1 + g % ${FIRST.length}] || ' ' || (${arr(LAST)})[1 + (g / ${FIRST.length}) % ${LAST.length}],
             'user' || g || '@example.com',
             ${hash},
             case when g % 100 < 60 then 'student' when g % 100 < 85 then 'customer' when g % 100 < 97 then 'user'
                  when g % 100 < 99 then 'manager' else 'admin' end,
             b.id,
             '07' || lpad((g % 100000000)::text, 8, '0'),
             now() - make_interval(mins => (g * 7919) % (730 * 1440)),
             now() - make_interval(mins => (g * 7919) % (730 * 1440))
      from generate_series(1, ${s.users}) g
      join b on b.rn = g % ${s.branches}`),
  );
  await step(`${s.courses} courses`, () =>
    db.execute(sql`
      insert into courses (course_name, duration, total_fee_minor, installments, category, admission_fee_minor, description, created_at)
      select 'Course ' || g || ' ' || (array['Ayurveda','Massage','Yoga','Nursing','Herbal','Anatomy'])[1 + g % 6],
             (3 + g % 10) || ' months', (50000 + (g * 137) % 400000) * 100, 2 + g % 10,
             (array['Diploma','Certificate','Workshop','Degree'])[1 + g % 4], case when g % 5 = 0 then 0 else 500000 end,
             'A benchmark course.', now() - make_interval(days => g * 3)
      from generate_series(1, ${s.courses}) g`),
  );
  // Each student gets enrolments round-robin; the k-th enrolment of a student is in a different
  // course, so the one-open-enrolment-per-course index holds. Dates spread over two years.
  // Numbered copies (plain tables: the pool's connections do not share temporary ones).
  await db.execute(
    sql`create unlogged table bench_students as select id, row_number() over (order by id) - 1 as rn from users where role = 'student'`,
  );
  await db.execute(
    sql`create unlogged table bench_courses as select id, total_fee_minor, admission_fee_minor, row_number() over (order by id) - 1 as rn from courses`,
  );
  await step(`${s.enrollments.toLocaleString()} enrolments`, () =>
    db.execute(sql`
      with n as (select count(*) as c from bench_students)
      insert into enrollments (user_id, course_id, payment_type, total_fee_minor, admission_fee_minor, admission_fee_paid, admission_fee_paid_at, enrolled_on, created_at, updated_at)
      select st.id, c.id, case when g % 7 = 0 then 'full' else 'installment' end, c.total_fee_minor, c.admission_fee_minor,
             g % 10 < 8, case when g % 10 < 8 then now() - make_interval(days => g % 730) end,
             current_date - (g % 730), now() - make_interval(days => g % 730, secs => g % 86400), now() - make_interval(days => g % 730)
      from generate_series(0, ${s.enrollments - 1}) g
      cross join n
      join bench_students st on st.rn = g % n.c
      join bench_courses c on c.rn = ((g / n.c) * 37 + st.rn) % ${s.courses}`),
  );
  // Installment i due i months after enrolment; past ones 85% paid (the rest overdue), future ones 5% paid early.
  await step('enrolment installments', () =>
    db.execute(sql`
      insert into enrollment_installments (enrollment_id, seq, amount_minor, due_date, is_paid, paid_at)
      select e.id, i, e.total_fee_minor / parts, (e.enrolled_on + make_interval(months => i))::date, paid, case when paid then e.created_at + make_interval(months => i) end
      from (select e.*, case when e.payment_type = 'full' then 1 else c.installments end as parts
            from enrollments e join courses c on c.id = e.course_id) e
      cross join lateral generate_series(0, e.parts - 1) i
      cross join lateral (select case when (e.enrolled_on + make_interval(months => i))::date < current_date
                                      then abs(hashtext(e.id::text || i)) % 100 < 85
                                      else abs(hashtext(e.id::text || i)) % 100 < 5 end as paid) p`),
  );
  await step('complete a third of the fully paid enrolments', () =>
    db.execute(sql`
      update enrollments e set status = 'completed', completed_at = now()
      where e.admission_fee_paid and abs(hashtext(e.id::text)) % 3 = 0
        and not exists (select 1 from enrollment_installments i where i.enrollment_id = e.id and not i.is_paid)`),
  );
  await step(`${s.treatments} treatments`, () =>
    db.execute(sql`
      insert into treatments (treatment_name, local_price_minor, foreign_price_minor, max_sessions, installments, duration_weeks, category, created_at)
      select 'Treatment ' || g, (5000 + g * 250) * 100, (50 + g) * 100, 1 + g % 12, 1 + g % 4, 1 + g % 8,
             (array['Panchakarma','Massage','Herbal','Therapy'])[1 + g % 4], now() - make_interval(days => g * 7)
      from generate_series(1, ${s.treatments}) g`),
  );
  await db.execute(
    sql`create unlogged table bench_customers as select id, row_number() over (order by id) - 1 as rn from users where role = 'customer'`,
  );
  await db.execute(
    sql`create unlogged table bench_treatments as select *, row_number() over (order by id) - 1 as rn from treatments`,
  );
  await step(`${s.bookings.toLocaleString()} bookings`, () =>
    db.execute(sql`
      with n as (select count(*) as c from bench_customers)
      insert into treatment_bookings (user_id, treatment_id, treatment_name, max_sessions, user_type, payment_type, price_minor, currency,
                                      period_start, period_end, sessions_completed, status, cancelled_at, booked_on, created_at, updated_at)
      select cu.id, t.id, t.treatment_name, t.max_sessions, case when g % 5 = 0 then 'foreign' else 'local' end,
             case when g % 4 = 0 then 'full' else 'installment' end,
             case when g % 5 = 0 then t.foreign_price_minor else t.local_price_minor end, case when g % 5 = 0 then 'USD' else 'LKR' end,
             current_date - (g % 730), current_date - (g % 730) + 60, g % (t.max_sessions + 1),
             case when g % 20 = 0 then 'cancelled' else 'active' end, case when g % 20 = 0 then now() end,
             current_date - (g % 730), now() - make_interval(days => g % 730, secs => g % 86400), now() - make_interval(days => g % 730)
      from generate_series(0, ${s.bookings - 1}) g
      cross join n
      join bench_customers cu on cu.rn = g % n.c
      join bench_treatments t on t.rn = g % ${s.treatments}`),
  );
  // Four installments a booking on average (full payment: one), monthly from the booking day.
  await step('booking installments', () =>
    db.execute(sql`
      insert into booking_installments (booking_id, seq, amount_minor, due_date, is_paid, paid_at)
      select b.id, i, b.price_minor / parts, (b.booked_on + make_interval(months => i))::date, paid, case when paid then b.created_at + make_interval(months => i) end
      from (select b.*, case when b.payment_type = 'full' then 1 else 5 end as parts from treatment_bookings b) b
      cross join lateral generate_series(0, b.parts - 1) i
      cross join lateral (select case when (b.booked_on + make_interval(months => i))::date < current_date
                                      then abs(hashtext(b.id::text || i)) % 100 < 85
                                      else abs(hashtext(b.id::text || i)) % 100 < 5 end as paid) p`),
  );
  await step('booking payment status', () =>
    db.execute(sql`
      update treatment_bookings b set payment_status = case
          when not exists (select 1 from booking_installments i where i.booking_id = b.id and not i.is_paid) then 'paid'
          when exists (select 1 from booking_installments i where i.booking_id = b.id and not i.is_paid and i.due_date < current_date) then 'overdue'
          when exists (select 1 from booking_installments i where i.booking_id = b.id and i.is_paid) then 'partially_paid'
          else 'pending' end`),
  );
  await db.execute(sql`drop table bench_students, bench_courses, bench_customers, bench_treatments`);
  if (opts.ledger ?? true) await step('payments carried over from the paid switch', () => carryOver(db));
  await step('vacuum analyze', () => db.execute(sql`vacuum analyze`));
}

/**
 * The statements of the ledger migration that turn paid fees and installments into payments
 * (docs/payments.md#carried-over-payments), read from the migration itself so the benchmark data
 * cannot drift from what a real upgrade produces.
 */
export async function carryOver(db: Db): Promise<void> {
  const file = fs.readFileSync(path.join(projectRoot, 'drizzle', '0007_payments_ledger.sql'), 'utf8');
  const from = file.indexOf('-- Carry over');
  if (from < 0) throw new Error('0007_payments_ledger.sql has no carry-over section');
  // One transaction: the carry-over works through a temporary table, which lives on one connection.
  await db.transaction(async (tx) => {
    for (const statement of file.slice(from).split('--> statement-breakpoint')) {
      if (statement.trim()) await tx.execute(sql.raw(statement));
    }
  });
}
