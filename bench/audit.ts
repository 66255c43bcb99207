/**
 * The audit trail at scale (docs/scale.md#audit-trail-at-scale): `npm run bench:audit`.
 *
 * 1. Fills `audit_log` with AUDIT_BENCH_ENTRIES entries (default 5,000,000) spread over two years,
 *    with the mix of actors, actions, record types and summaries the application writes; the
 *    indexes are built after the load, as a restore would, and are exactly the migration's.
 * 2. The cost the audit write adds to a typical write: the real `updateCourse` (which records an
 *    entry in its transaction) against the same transaction without the entry (its statements
 *    hand-written with the same drizzle calls), interleaved in one run (A B B A ...), AUDIT_WRITE_RUNS
 *    each (default 400); medians and p99.
 * 3. Reading the log through the real service functions (keyset page 1, filtered pages, a deep
 *    keyset page, a record's History, the REST page with its total and the page after it, which
 *    reuses that total) against the bare SQL baseline: the exact statements the service ran,
 *    captured once through postgres.js's debug hook and replayed over a plain connection.
 *    AUDIT_READ_RUNS each (default 30), interleaved.
 */
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import path from 'node:path';
import type { Db } from '../src/server/db/client';
import { courses } from '../src/server/db/schema';
import { projectRoot } from '../src/server/paths';
import { auditForEntity, listAudit, listAuditPage } from '../src/server/domains/audit/audit.queries';
import { toCourseDto, updateCourse } from '../src/server/domains/courses/courses.service';
import { firstRow } from '../src/server/db/rows';
import { startServices } from '../tests/setup/services';
import { benchDatabase, contextFor, interleaved, median, pct, rowsOf, superadmin } from './scale-context';

const ENTRIES = Number(process.env.AUDIT_BENCH_ENTRIES ?? 5_000_000);
const WRITE_RUNS = Number(process.env.AUDIT_WRITE_RUNS ?? 400);
const READ_RUNS = Number(process.env.AUDIT_READ_RUNS ?? 30);

const ms = (x: number) => Number(x.toFixed(2));

/** The log as two years of use would leave it: 200 actors, the application's actions and records. */
async function fill(db: Db, n: number) {
  const defs = rowsOf<{ indexdef: string; indexname: string }>(
    await db.execute(
      sql`select indexname, indexdef from pg_indexes where tablename = 'audit_log' and indexname <> 'audit_log_pkey'`,
    ),
  );
  for (const d of defs) await db.execute(sql.raw(`drop index ${d.indexname}`));
  const t0 = performance.now();
  const batch = 500_000;
  for (let done = 0; done < n; done += batch) {
    const size = Math.min(batch, n - done);
    await db.execute(sql`
      insert into audit_log (created_at, actor_id, actor_username, actor_role, action, entity_type, entity_id,
                             parent_type, parent_id, summary, changes, ip, user_agent, request_id)
      select now() - (random() * interval '730 days'),
             ('00000000-0000-4000-8000-' || lpad(to_hex(a), 12, '0'))::uuid, 'staff' || a,
             (array['admin','manager','superadmin'])[1 + a % 3],
             (array['update','create','mark_paid','mark_paid','mark_unpaid','sign_in','sign_in','sign_in','download','delete','void','complete','cancel'])[1 + k % 13],
             (array['course','enrollment','installment','installment','booking','user','user','user','report','payment','payment','enrollment','booking'])[1 + k % 13],
             'e' || (g % 400000), case when k % 13 in (2, 3, 4) then 'enrollment' end,
             case when k % 13 in (2, 3, 4) then 'e' || (g % 100000) end,
             (array['Updated course Course ','Enrolled student','Marked installment 2 of Course ','Marked installment 1 of Course ',
                    'Marked installment 3 of Course ','Signed in staff','Signed in staff','Signed in staff','Downloaded report ',
                    'Deleted user student','Voided receipt KAN-2025-','Completed Course ','Cancelled the booking of Massage ']
             )[1 + k % 13] || (g % 5000) || ' for student' || (g % 90000),
             jsonb_build_array(jsonb_build_object('field', 'isPaid', 'before', false, 'after', true)),
             '10.0.' || (a % 250) || '.' || (g % 250), 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/131.0',
             'req-' || to_hex(g)
      from (select g, (hashint4(g) & 2147483647) % 200 as a, (hashint4(g + 7) & 2147483647) % 13 as k
            from generate_series(${done + 1}::int, ${done + size}::int) g) x`);
    process.stdout.write(`\r  ${(done + size).toLocaleString()} entries`);
  }
  console.log(` in ${((performance.now() - t0) / 1000).toFixed(0)} s; building the migration's indexes`);
  const t1 = performance.now();
  for (const d of defs) await db.execute(sql.raw(d.indexdef));
  await db.execute(sql`vacuum analyze audit_log`);
  console.log(`  indexes built and analysed in ${((performance.now() - t1) / 1000).toFixed(0)} s`);
}

async function main() {
  const services = await startServices();
  const bench = await benchDatabase(services.databaseUrl, 'audit').catch(async (err: unknown) => {
    await services.stop();
    throw err;
  });
  const { pg, db, bare } = bench;
  try {
    console.log(`PostgreSQL from ${services.source}; database ${bench.name}`);
    await migrate(pg, { migrationsFolder: path.join(projectRoot, 'drizzle') });
    const actor = await superadmin(db);
    const handle = { kind: 'postgres', db, migrate: async () => {}, close: async () => {} } as never;
    const ctx = {
      ...contextFor(handle, actor),
      request: { ip: '10.0.0.1', userAgent: 'bench-audit', requestId: 'req-bench' },
    };
    console.log(`Filling audit_log with ${ENTRIES.toLocaleString()} entries`);
    await fill(db, ENTRIES);

    // --- The write: updateCourse with its entry, and the same transaction without it.
    const [course] = await db
      .insert(courses)
      .values({
        courseName: 'Bench Course',
        duration: '3 months',
        totalFee: 100000,
        installments: 3,
        category: 'X',
        admissionFee: 0,
      })
      .returning();
    const id = course!.id;
    const withAudit = (run: number) => updateCourse(ctx, { id, description: `with ${run} ${randomUUID()}` });
    const withoutAudit = (run: number) =>
      db.transaction(async (tx) => {
        const [old] = await tx.select().from(courses).where(eq(courses.id, id)).for('update').limit(1);
        const set = { description: `without ${run} ${randomUUID()}` };
        toCourseDto(old!);
        return toCourseDto(firstRow(await tx.update(courses).set(set).where(eq(courses.id, id)).returning()));
      });
    for (let i = 0; i < 30; i++) {
      await withAudit(-i);
      await withoutAudit(-i);
    }
    const { a, b } = await interleaved(WRITE_RUNS, withAudit, withoutAudit);
    const write = {
      'with the entry p50 ms': ms(median(a)),
      'p99 ms': ms(pct(a, 99)),
      'without p50 ms': ms(median(b)),
      'without p99 ms': ms(pct(b, 99)),
      'added p50 ms': ms(median(a) - median(b)),
      'added p99 ms': ms(pct(a, 99) - pct(b, 99)),
    };
    console.log(`\nA course update (${WRITE_RUNS} interleaved runs each, after 30 warm-up pairs):`);
    console.table([write]);

    // --- Reads: the service against the statements it ran, replayed bare.
    const someEntity = rowsOf<{ entity_type: string; entity_id: string }>(
      await db.execute(sql`select entity_type, entity_id from audit_log where entity_type = 'enrollment' limit 1`),
    )[0]!;
    const deepCursor = async () => {
      let cursor: string | undefined;
      for (let i = 0; i < 100; i++) cursor = (await listAudit(ctx, { limit: 50, cursor })).nextCursor ?? undefined;
      return cursor!;
    };
    const cursor100 = await deepCursor();
    const recent = new Date(Date.now() - 30 * 86400000).toISOString().slice(0, 10);
    const cases: Array<{ name: string; run: () => Promise<unknown> }> = [
      { name: 'audit.list, keyset page 1', run: () => listAudit(ctx, { limit: 50 }) },
      { name: 'audit.list, page 101 by keyset', run: () => listAudit(ctx, { limit: 50, cursor: cursor100 }) },
      { name: 'audit.list, action = void', run: () => listAudit(ctx, { limit: 50, action: 'void' }) },
      {
        name: 'audit.list, one actor (by id)',
        run: () => listAudit(ctx, { limit: 50, actorId: '00000000-0000-4000-8000-000000000007' }),
      },
      {
        name: 'audit.list, a deleted actor (by name)',
        run: () => listAudit(ctx, { limit: 50, actor: 'staff7' }),
      },
      {
        name: 'audit.list, entity type payment, last 30 days',
        run: () => listAudit(ctx, { limit: 50, entityType: 'payment', from: recent }),
      },
      {
        name: 'audit.list, summary contains "KAN-2025-"',
        run: () => listAudit(ctx, { limit: 50, search: 'KAN-2025-' }),
      },
      {
        name: 'audit.list, summary contains "student4711"',
        run: () => listAudit(ctx, { limit: 50, search: 'student4711' }),
      },
      {
        name: 'audit.forEntity, an enrolment with its parts',
        run: () => auditForEntity(ctx, { entityType: 'enrollment', entityId: someEntity.entity_id, limit: 50 }),
      },
      {
        name: 'GET /api/audit page 1 with total',
        run: () => listAuditPage(ctx, { page: 1, limit: 50 }),
      },
      {
        // Right after page 1's runs: the count page 1 made (at most 30 s ago) is reused.
        name: 'GET /api/audit page 2, within 30 s of page 1',
        run: () => listAuditPage(ctx, { page: 2, limit: 50 }),
      },
      {
        name: 'GET /api/audit action = void, with total',
        run: () => listAuditPage(ctx, { page: 1, limit: 50, action: 'void' }),
      },
    ];
    const results = [];
    for (const c of cases) {
      const statements = await bench.record(c.run);
      const baseline = async () => {
        for (const s of statements) await bare.unsafe(s.query, s.params as never[]);
      };
      await c.run();
      await baseline();
      const { a: p, b: q } = await interleaved(READ_RUNS, c.run, baseline);
      const row = {
        case: c.name,
        'product p50 ms': ms(median(p)),
        'p99 ms': ms(pct(p, 99)),
        'bare SQL p50 ms': ms(median(q)),
        'bare p99 ms': ms(pct(q, 99)),
        'ratio p50': Number((median(p) / median(q)).toFixed(2)),
      };
      results.push(row);
      console.log(`  ${row.case}: ${row['product p50 ms']} ms vs ${row['bare SQL p50 ms']} ms`);
    }
    console.log(`\n${ENTRIES.toLocaleString()} entries, ${READ_RUNS} interleaved runs per case after one warm-up:`);
    console.table(results);
    console.log('\nMarkdown:\n');
    console.log('| write | with the entry p50 | p99 | without p50 | p99 | added p50 | added p99 |');
    console.log('|---|---:|---:|---:|---:|---:|---:|');
    console.log(
      `| course update | ${write['with the entry p50 ms']} | ${write['p99 ms']} | ${write['without p50 ms']} | ${write['without p99 ms']} | ${write['added p50 ms']} | ${write['added p99 ms']} |`,
    );
    console.log('\n| read | product p50 | p99 | bare SQL p50 | p99 | ratio (p50) |\n|---|---:|---:|---:|---:|---:|');
    for (const r of results)
      console.log(
        `| ${r.case} | ${r['product p50 ms']} | ${r['p99 ms']} | ${r['bare SQL p50 ms']} | ${r['bare p99 ms']} | ${r['ratio p50']} |`,
      );
  } finally {
    await bench.drop();
    await services.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
