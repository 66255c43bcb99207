/**
 * The payments ledger at scale (docs/scale.md#payments-at-scale): `npm run bench:payments`.
 *
 * 1. Builds the scale data (bench/scale-seed.ts) on the schema from before the ledger, as the
 *    paid/unpaid switch left it, then applies the ledger's migration and checks it lost nothing:
 *    one valid payment per paid fee and installment, the same sums, gapless receipt numbers.
 * 2. Gives those payments cashiers and methods, and adds a voided earlier attempt to one in a
 *    hundred, so filters have realistic selectivity (about a million payments at the defaults).
 * 3. Times recording a payment and the payment reads through the real service functions against a
 *    bare baseline in the same run, interleaved (product, baseline, baseline, product, ...): for
 *    the write, the same statements hand-written over postgres.js; for reads, the exact statements
 *    the service ran (captured once through postgres.js's debug hook) replayed concurrently, which
 *    is a lower bound for any implementation of the same SQL.
 *
 * Sizes as bench/scale.ts (SCALE_USERS, SCALE_ENROLLMENTS, ...; this benchmark defaults to
 * 225,000 enrolments and 45,000 bookings so the ledger holds about a million payments);
 * PAYMENTS_RUNS timed runs per case (default 30).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import type { Actor } from '../src/server/auth/sessions';
import type { Db, DbHandle } from '../src/server/db/client';
import { projectRoot } from '../src/server/paths';
import { cashUp } from '../src/server/domains/payments/cash-up';
import { dashboard } from '../src/server/domains/payments/dashboard';
import { listPayments, paymentsOf, recordPayment } from '../src/server/domains/payments/payments.service';
import type { TListPaymentsInput } from '../src/shared/schemas/payments';
import { startServices } from '../tests/setup/services';
import { benchDatabase, contextFor, interleaved, median, pct, rowsOf } from './scale-context';
import { seedScale, sizesFromEnv } from './scale-seed';

const RUNS = Number(process.env.PAYMENTS_RUNS ?? 30);

/** The migrations folder cut before `tag` (the ledger's), for a database as it was before it. */
function migrationsBefore(tag: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'migrations-'));
  cpSync(path.join(projectRoot, 'drizzle'), dir, { recursive: true });
  const journalPath = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: Array<{ tag: string }> };
  const cut = journal.entries.findIndex((e) => e.tag === tag);
  if (cut < 0) throw new Error(`no migration ${tag}`);
  journal.entries = journal.entries.slice(0, cut);
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

async function one<T>(db: Db, query: ReturnType<typeof sql>): Promise<T> {
  const row = rowsOf<T>(await db.execute(query))[0];
  if (!row) throw new Error('no row');
  return row;
}

/** What the migration must preserve, and what it produced (docs/payments.md#carried-over-payments). */
async function checkCarryOver(db: Db) {
  const r = await one<Record<string, string>>(
    db,
    sql`select
      (select count(*) from enrollments where admission_fee_paid and admission_fee_minor > 0)
        + (select count(*) from enrollment_installments where is_paid and amount_minor > 0)
        + (select count(*) from booking_installments where is_paid and amount_minor > 0) as paid_items,
      (select count(*) from payments) as payments,
      (select count(*) from payments where status = 'valid' and method = 'other') as valid_other,
      (select count(*) from payment_allocations) as allocations,
      (select coalesce(sum(admission_fee_minor), 0) from enrollments where admission_fee_paid)
        + (select coalesce(sum(amount_minor), 0) from enrollment_installments where is_paid)
        + (select coalesce(sum(amount_minor), 0) from booking_installments where is_paid) as paid_minor,
      (select coalesce(sum(amount_minor), 0) from payment_allocations) as allocated_minor,
      (select count(*) from enrollment_installments where amount_paid_minor <> case when is_paid then amount_minor else 0 end)
        + (select count(*) from booking_installments where amount_paid_minor <> case when is_paid then amount_minor else 0 end)
        + (select count(*) from enrollments where admission_fee_paid_minor <> case when admission_fee_paid then admission_fee_minor else 0 end)
        as amount_paid_mismatches,
      (select count(*) from (select receipt_series, receipt_year from payments group by 1, 2
         having count(*) <> max(receipt_seq) or min(receipt_seq) <> 1) g) as series_with_gaps,
      (select count(*) from receipt_counters rc where rc.last <> (select max(receipt_seq) from payments p
         where p.receipt_series = rc.series and p.receipt_year = rc.year)) as counters_behind,
      (select count(*) - count(distinct receipt_number) from payments) as duplicate_numbers`,
  );
  const n = (k: string) => Number(r[k]);
  const checks = {
    'one payment per paid item': n('payments') === n('paid_items') && n('valid_other') === n('payments'),
    'one allocation per payment': n('allocations') === n('payments'),
    'allocated = what was marked paid': n('allocated_minor') === n('paid_minor'),
    'amounts paid follow the switch': n('amount_paid_mismatches') === 0,
    'receipt numbers gapless per branch and year': n('series_with_gaps') === 0,
    'counters continue the numbering': n('counters_behind') === 0,
    'receipt numbers unique': n('duplicate_numbers') === 0,
  };
  console.table(Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Number(v).toLocaleString()])));
  console.table(checks);
  if (Object.values(checks).some((ok) => !ok)) throw new Error('the ledger migration lost or changed data');
  return n('payments');
}

/**
 * Cashiers (the branch's managers and admins), methods and a few voided first attempts, as if the
 * carried-over history had been taken through the ledger; numbering stays gapless.
 */
async function realisticHistory(db: Db) {
  await db.execute(sql`
    create unlogged table bench_cashiers as
      select id, username, branch_id, row_number() over (partition by branch_id order by id) - 1 as rn
      from users where role in ('manager', 'admin') and branch_id is not null`);
  // The cashier's row number is computed first so the join is an equality (a hash join), not a
  // filter over every cashier of the branch for each of a million payments.
  await db.execute(sql`
    update payments p set received_by = c.id, received_by_name = c.username,
      method = (array['cash','cash','cash','card','card','bank_transfer','cheque','online'])[1 + abs(hashtext(p.id::text)) % 8],
      note = null
    from (select p2.id, p2.branch_id, abs(hashtext(p2.id::text || 'c')) % n.n as rn
          from payments p2 join (select branch_id, count(*) as n from bench_cashiers group by 1) n on n.branch_id = p2.branch_id) x
    join bench_cashiers c on c.branch_id = x.branch_id and c.rn = x.rn
    where x.id = p.id`);
  await db.execute(sql`drop table bench_cashiers`);
  await db.transaction(async (tx) => {
    await tx.execute(sql`
      create temp table bench_voids on commit drop as
        select gen_random_uuid() as new_id, p.*, rc.last + row_number() over (partition by p.receipt_series, p.receipt_year
               order by p.received_at, p.id) as new_seq
        from payments p join receipt_counters rc on rc.series = p.receipt_series and rc.year = p.receipt_year
        where abs(hashtext(p.id::text || 'v')) % 100 = 0`);
    await tx.execute(sql`
      insert into payments (id, receipt_number, receipt_series, receipt_year, receipt_seq, branch_id, branch_name, payer_id,
        payer_name, payer_email, enrollment_id, booking_id, subject, amount_minor, currency, method, received_at, received_by,
        received_by_name, status, voided_at, voided_by, voided_by_name, void_reason, created_at)
      select new_id, split_part(receipt_number, '-', 1) || '-' || receipt_year || '-' || lpad(new_seq::text, 6, '0'),
        receipt_series, receipt_year, new_seq, branch_id, branch_name, payer_id, payer_name, payer_email, enrollment_id,
        booking_id, subject, amount_minor, currency, method, received_at - interval '5 minutes', received_by, received_by_name,
        'void', received_at - interval '4 minutes', received_by, received_by_name, 'Wrong amount keyed in.', received_at
      from bench_voids`);
    await tx.execute(sql`
      insert into payment_allocations (payment_id, kind, enrollment_id, booking_id, enrollment_installment_id,
        booking_installment_id, installment_number, due_date, amount_minor)
      select v.new_id, a.kind, a.enrollment_id, a.booking_id, a.enrollment_installment_id, a.booking_installment_id,
        a.installment_number, a.due_date, a.amount_minor
      from bench_voids v join payment_allocations a on a.payment_id = v.id`);
    await tx.execute(sql`
      update receipt_counters rc set last = m.last
      from (select receipt_series, receipt_year, max(receipt_seq) as last from payments group by 1, 2) m
      where m.receipt_series = rc.series and m.receipt_year = rc.year`);
  });
  await db.execute(sql`vacuum analyze payments, payment_allocations, receipt_counters`);
}

interface Case {
  name: string;
  product: (run: number) => Promise<unknown>;
  baseline: (run: number) => Promise<unknown>;
}

async function main() {
  const sizes = sizesFromEnv({
    SCALE_ENROLLMENTS: '225000',
    SCALE_BOOKINGS: '45000',
    ...process.env,
  });
  const services = await startServices();
  const bench = await benchDatabase(services.databaseUrl, 'payments').catch(async (err: unknown) => {
    await services.stop();
    throw err;
  });
  const { pg, db, bare } = bench;
  const before = migrationsBefore('0007_payments_ledger');
  const upToAudit = migrationsBefore('0008_audit_log');
  try {
    console.log(`PostgreSQL from ${services.source}; database ${bench.name}`);
    await migrate(pg, { migrationsFolder: before });
    console.log('Generating data as before the ledger:', sizes);
    let t0 = performance.now();
    await seedScale(db, sizes, { ledger: false });
    console.log(`Data ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    t0 = performance.now();
    await migrate(pg, { migrationsFolder: upToAudit });
    const migrationSeconds = (performance.now() - t0) / 1000;
    console.log(`\nLedger migration (0007) applied in ${migrationSeconds.toFixed(1)} s; checking it:`);
    const carried = await checkCarryOver(db);
    await migrate(pg, { migrationsFolder: path.join(projectRoot, 'drizzle') });

    t0 = performance.now();
    await realisticHistory(db);
    const total = await one<{ n: string; voids: string }>(
      db,
      sql`select count(*) as n, count(*) filter (where status = 'void') as voids from payments`,
    );
    console.log(
      `Cashiers, methods and voids in ${((performance.now() - t0) / 1000).toFixed(1)} s: ` +
        `${Number(total.n).toLocaleString()} payments (${carried.toLocaleString()} carried over, ${Number(total.voids).toLocaleString()} voided)`,
    );

    const handle: DbHandle = { db, kind: 'postgres', migrate: async () => {}, close: async () => {} };
    const cashier = await one<{ id: string; username: string; full_name: string; branch_id: string; email: string }>(
      db,
      sql`select u.id, u.username, u.full_name, u.branch_id, u.email from users u join payments p on p.received_by = u.id
          where u.role = 'manager' group by u.id order by count(*) desc limit 1`,
    );
    const actor: Actor = {
      id: cashier.id,
      role: 'manager',
      email: cashier.email,
      username: cashier.username,
      fullName: cashier.full_name,
      branchId: cashier.branch_id,
      sessionId: 'bench',
    };
    const ctx = contextFor(handle, actor);

    // Enrolments a cashier would take money for: open, fee settled, an installment still owed.
    const targets = rowsOf<{ enrollment_id: string; installment_id: string; owed: string; user_id: string }>(
      await db.execute(sql`
        select distinct on (e.id) e.id as enrollment_id, i.id as installment_id,
               (i.amount_minor - i.amount_paid_minor) as owed, e.user_id
        from enrollments e join enrollment_installments i on i.enrollment_id = e.id
        where e.status = 'active' and e.user_id is not null
          and e.admission_fee_paid_minor = e.admission_fee_minor and not i.is_paid
          and abs(hashtext(e.id::text)) % 50 = 0
        order by e.id, i.due_date, i.seq
        limit ${RUNS * 2 + 2}`),
    );
    if (targets.length < RUNS * 2 + 2) throw new Error('not enough open enrolments to pay');
    const productTargets = targets.filter((_, k) => k % 2 === 0);
    const baselineTargets = targets.filter((_, k) => k % 2 === 1);

    /** The write without the service: lock, read what is owed, number, insert, apply. */
    async function bareRecord(run: number) {
      const t = baselineTargets[run]!;
      await bare.begin(async (tx) => {
        const [e] = await tx`select e.id, e.status, e.currency, u.username, u.email, u.branch_id, b.name as branch_name,
            c.course_name from enrollments e join users u on u.id = e.user_id left join branches b on b.id = u.branch_id
            join courses c on c.id = e.course_id where e.id = ${t.enrollment_id} for update of e`;
        const items = await tx`select id, seq, amount_minor, amount_paid_minor, due_date from enrollment_installments
            where enrollment_id = ${t.enrollment_id} order by due_date, seq`;
        const item = items.find((i) => i.amount_minor !== i.amount_paid_minor)!;
        const series = e!.branch_id ?? 'none';
        const [c] = await tx`insert into receipt_counters (series, year, last) values (${series}, 2026, 1)
            on conflict (series, year) do update set last = receipt_counters.last + 1 returning last`;
        const [p] = await tx`insert into payments (receipt_number, receipt_series, receipt_year, receipt_seq, branch_id,
            branch_name, payer_id, payer_name, payer_email, enrollment_id, subject, amount_minor, currency, method,
            received_at, received_by, received_by_name)
          values (${'BRA-2026-' + String(c!.last).padStart(6, '0')}, ${series}, 2026, ${c!.last}, ${e!.branch_id},
            ${e!.branch_name}, ${t.user_id}, ${e!.username}, ${e!.email}, ${t.enrollment_id}, ${e!.course_name},
            ${t.owed}, ${e!.currency}, 'cash', now(), ${actor.id}, ${actor.username}) returning id`;
        await tx`insert into payment_allocations (payment_id, kind, enrollment_id, enrollment_installment_id,
            installment_number, due_date, amount_minor)
          values (${p!.id}, 'enrollment_installment', ${t.enrollment_id}, ${item.id}, ${Number(item.seq) + 1},
            ${item.due_date}, ${t.owed})`;
        await tx`update enrollment_installments set amount_paid_minor = amount_minor, is_paid = true, paid_at = now()
            where id = ${item.id}`;
        await tx`update enrollments set updated_at = now() where id = ${t.enrollment_id}`;
        return p;
      });
    }

    /** A read case: the service, and its own statements replayed bare. */
    async function readCase(name: string, fn: () => Promise<unknown>): Promise<Case> {
      const statements = await bench.record(fn);
      return {
        name: `${name} (${statements.length} statements)`,
        product: fn,
        baseline: () =>
          Promise.all(statements.map((s) => bare.unsafe(s.query, s.params as never[], { prepare: true }))),
      };
    }

    const page = (extra: Partial<TListPaymentsInput> = {}): TListPaymentsInput => ({
      page: 1,
      pageSize: 25,
      sortDir: 'desc',
      sortBy: 'receivedAt',
      ...extra,
    });
    const recent = await one<{ receipt_number: string; day: string; month_start: string; enrollment_id: string }>(
      db,
      sql`select receipt_number, to_char(received_at, 'YYYY-MM-DD') as day,
                 to_char(date_trunc('month', received_at), 'YYYY-MM-DD') as month_start, enrollment_id
          from payments where received_by = ${actor.id} and enrollment_id is not null
          order by received_at desc limit 1`,
    );
    const cases: Case[] = [
      {
        name: 'record a payment (oldest installment in full)',
        product: (run) => {
          const t = productTargets[run]!;
          return recordPayment(ctx, { enrollmentId: t.enrollment_id, amount: Number(t.owed) / 100, method: 'cash' });
        },
        baseline: bareRecord,
      },
      await readCase('payments list page 1', () => listPayments(ctx, page())),
      await readCase('payments list one branch, one month', () =>
        listPayments(ctx, page({ branchId: actor.branchId ?? undefined, from: recent.month_start, to: recent.day })),
      ),
      await readCase('payments list one cashier', () => listPayments(ctx, page({ receivedBy: actor.id }))),
      await readCase('payments list card, valid', () => listPayments(ctx, page({ method: 'card', status: 'valid' }))),
      await readCase('payments list voided', () => listPayments(ctx, page({ status: 'void' }))),
      await readCase('payments search receipt number', () =>
        listPayments(ctx, page({ search: recent.receipt_number })),
      ),
      await readCase('payments search payer "perera"', () => listPayments(ctx, page({ search: 'perera' }))),
      await readCase('payments list page 1,000', () => listPayments(ctx, page({ page: 1000 }))),
      await readCase('payments of one enrolment', () =>
        paymentsOf(ctx, { kind: 'enrollment', id: recent.enrollment_id }),
      ),
      await readCase('cash-up one day, one branch', () =>
        cashUp(ctx, { from: recent.day, to: recent.day, branchId: actor.branchId ?? undefined }),
      ),
      await readCase('cash-up one month, all branches', () =>
        cashUp(ctx, { from: recent.month_start, to: recent.day }),
      ),
      await readCase('dashboard, all branches', () => dashboard(ctx, {})),
    ];

    const results = [];
    for (const c of cases) {
      await c.product(RUNS); // warm-up (the spare target), then interleave: A B B A A B ...
      await c.baseline(RUNS);
      const { a, b } = await interleaved(RUNS, c.product, c.baseline);
      const row = {
        path: c.name,
        'product p50 ms': Number(median(a).toFixed(1)),
        'product p95 ms': Number(pct(a, 95).toFixed(1)),
        'baseline p50 ms': Number(median(b).toFixed(1)),
        'baseline p95 ms': Number(pct(b, 95).toFixed(1)),
        'ratio p50': Number((median(a) / median(b)).toFixed(2)),
      };
      results.push(row);
      console.log(`  ${row.path}: ${row['product p50 ms']} ms vs ${row['baseline p50 ms']} ms`);
    }
    console.log(`\n${RUNS} interleaved runs per case after one warm-up each:`);
    console.table(results);
    console.log('\nMarkdown:\n');
    console.log('| case | product p50 | p95 | baseline p50 | p95 | ratio (p50) |\n|---|---:|---:|---:|---:|---:|');
    for (const r of results)
      console.log(
        `| ${r.path} | ${r['product p50 ms']} | ${r['product p95 ms']} | ${r['baseline p50 ms']} | ${r['baseline p95 ms']} | ${r['ratio p50']} |`,
      );
  } finally {
    await bench.drop();
    rmSync(before, { recursive: true, force: true });
    rmSync(upToAudit, { recursive: true, force: true });
    await services.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
