/**
 * Scale benchmark: the hot read paths on 100,000 users and about a million installments, on a
 * real PostgreSQL. `npm run bench:scale`. Sizes: SCALE_USERS, SCALE_ENROLLMENTS, SCALE_BOOKINGS,
 * SCALE_COURSES, SCALE_TREATMENTS, SCALE_BRANCHES; SCALE_RUNS timed runs per path (median
 * reported, after one warm-up run); SCALE_EXPLAIN=0 skips the plan pass.
 *
 * The database comes from tests/setup/services.ts (Docker, else local postgres binaries, else
 * TEST_DATABASE_URL). The plan pass loads auto_explain for the benchmark database and reads the
 * server log, so it needs the local-binaries server; elsewhere it is skipped with a note.
 * Results are discussed in docs/scale.md.
 */
import fs from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { sql } from 'drizzle-orm';
import type { Actor } from '../src/server/auth/sessions';
import { openDatabase, type DbHandle } from '../src/server/db/client';
import type { ServiceContext } from '../src/server/domains/context';
import { listBookings } from '../src/server/domains/bookings/bookings.queries';
import {
  enrollmentStatistics,
  listEnrollments,
  listEnrollmentsWhere,
  listOverdueInstallments,
} from '../src/server/domains/enrollments/enrollments.queries';
import { queueOverdueReminders } from '../src/server/domains/reminders/reminders.service';
import { reportSource } from '../src/server/domains/reports/report-sources';
import { jsonChunks } from '../src/server/domains/reports/report-writers';
import { courseStatistics, treatmentStatistics, userStatistics } from '../src/server/domains/reports/reports.stats';
import { getCurrencySettings } from '../src/server/domains/settings/settings.service';
import { listUsers } from '../src/server/domains/users/users.queries';
import { startServices } from '../tests/setup/services';
import { contextFor, median, rowsOf, superadmin } from './scale-context';
import { seedScale, sizesFromEnv } from './scale-seed';

const RUNS = Number(process.env.SCALE_RUNS ?? 5);
const EXPLAIN = process.env.SCALE_EXPLAIN !== '0';
const PLANS_FILE = process.env.SCALE_PLANS ?? path.join(process.env.TMPDIR ?? '/tmp', 'scale-plans.txt');
const BIG_TABLES = ['users', 'enrollments', 'enrollment_installments', 'treatment_bookings', 'booking_installments'];

interface Case {
  name: string;
  runs?: number;
  fn: (ctx: ServiceContext) => Promise<unknown>;
}

/** A rolled-back transaction: the reminder run writes reminder_log rows, every run must start clean. */
class Rollback extends Error {}

function cases(ids: { courseId: string }): Case[] {
  const page = { page: 1, pageSize: 25, sortDir: 'desc' as const };
  return [
    { name: 'users.list page 1', fn: (c) => listUsers(c, { ...page, sortBy: 'createdAt' }) },
    {
      name: 'users.list page 2,000 (offset 50k)',
      fn: (c) => listUsers(c, { ...page, page: 2000, sortBy: 'createdAt' }),
    },
    {
      name: 'users.list search "perera" (common)',
      fn: (c) => listUsers(c, { ...page, search: 'perera', sortBy: 'createdAt' }),
    },
    {
      name: 'users.list search "user4242" (rare)',
      fn: (c) => listUsers(c, { ...page, search: 'user4242', sortBy: 'createdAt' }),
    },
    { name: 'users.list role=student', fn: (c) => listUsers(c, { ...page, role: 'student', sortBy: 'createdAt' }) },
    { name: 'users.list sort by username', fn: (c) => listUsers(c, { ...page, sortBy: 'username', sortDir: 'asc' }) },
    { name: 'enrollments.list page 1', fn: (c) => listEnrollments(c, { ...page, sortBy: 'createdAt' }) },
    {
      name: 'enrollments.list page 1,000',
      fn: (c) => listEnrollments(c, { ...page, page: 1000, sortBy: 'createdAt' }),
    },
    {
      name: 'enrollments.list search "user4242@"',
      fn: (c) => listEnrollments(c, { ...page, search: 'user4242@', sortBy: 'createdAt' }),
    },
    {
      name: 'enrollments.list search "yoga" (course)',
      fn: (c) => listEnrollments(c, { ...page, search: 'yoga', sortBy: 'createdAt' }),
    },
    {
      name: 'enrollments.list status Pending Payment',
      fn: (c) => listEnrollments(c, { ...page, displayStatus: 'Pending Payment', sortBy: 'createdAt' }),
    },
    {
      name: 'enrollments.list status Completed',
      fn: (c) => listEnrollments(c, { ...page, displayStatus: 'Completed', sortBy: 'createdAt' }),
    },
    {
      name: 'enrollments.list status Active (Paid)',
      fn: (c) => listEnrollments(c, { ...page, displayStatus: 'Active (Paid)', sortBy: 'createdAt' }),
    },
    {
      name: 'enrollments.list one course',
      fn: (c) => listEnrollments(c, { ...page, courseId: ids.courseId, sortBy: 'createdAt' }),
    },
    { name: 'enrollments REST one course (≤1000)', fn: (c) => listEnrollmentsWhere(c, { courseId: ids.courseId }) },
    { name: 'enrollments.statistics', fn: (c) => enrollmentStatistics(c) },
    { name: 'enrollments.overdue (200)', fn: (c) => listOverdueInstallments(c, { limit: 200 }) },
    { name: 'bookings.list page 1', fn: (c) => listBookings(c, { ...page, sortBy: 'createdAt' }) },
    {
      name: 'bookings.list search "user4242@"',
      fn: (c) => listBookings(c, { ...page, sortBy: 'createdAt', search: 'user4242@' }),
    },
    {
      name: 'bookings.list search "treatment 7"',
      fn: (c) => listBookings(c, { ...page, sortBy: 'createdAt', search: 'treatment 7' }),
    },
    {
      name: 'bookings.list paymentStatus=overdue',
      fn: (c) => listBookings(c, { ...page, sortBy: 'createdAt', paymentStatus: 'overdue' }),
    },
    {
      name: 'bookings.list paymentStatus=pending',
      fn: (c) => listBookings(c, { ...page, sortBy: 'createdAt', paymentStatus: 'pending' }),
    },
    { name: 'reports user statistics', fn: (c) => userStatistics(c) },
    { name: 'reports course statistics', fn: (c) => courseStatistics(c) },
    { name: 'reports treatment statistics', fn: (c) => treatmentStatistics(c) },
    {
      name: 'reminders scan (all overdue, rolled back)',
      runs: 3,
      fn: async (c) => {
        let queued = 0;
        try {
          await c.db.transaction(async (tx) => {
            queued = (await queueOverdueReminders({ ...c.deps, db: tx })).queued;
            throw new Rollback();
          });
        } catch (err) {
          if (!(err instanceof Rollback)) throw err;
        }
        return `${queued.toLocaleString()} queued`;
      },
    },
    {
      name: 'users report JSON stream (all users)',
      runs: 1,
      fn: async (c) => {
        const currency = await getCurrencySettings(c.db);
        let bytes = 0;
        for await (const chunk of jsonChunks(
          reportSource(c.db, { report: 'users', filters: {} }, { timeZone: c.deps.config.TIME_ZONE, currency }),
        )) {
          bytes += Buffer.byteLength(chunk);
        }
        return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
      },
    },
  ];
}

async function time(c: Case, ctx: ServiceContext) {
  const runs = c.runs ?? RUNS;
  let note = await c.fn(ctx); // warm-up: caches, plans, connection pool
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    note = await c.fn(ctx);
    ms.push(performance.now() - t0);
  }
  const detail =
    typeof note === 'string'
      ? note
      : note && typeof note === 'object' && 'total' in note
        ? `total ${(note as { total: number }).total.toLocaleString()}`
        : Array.isArray(note)
          ? `${note.length.toLocaleString()} rows`
          : '';
  return {
    path: c.name,
    medianMs: Number(median(ms).toFixed(1)),
    maxMs: Number(Math.max(...ms).toFixed(1)),
    runs,
    result: detail,
  };
}

/** Runs each case once with auto_explain on and collects the plans the server logged for it. */
async function explainPass(url: string, dbName: string, admin: postgres.Sql, list: Case[], actor: Actor) {
  const [setting] = await admin<
    { data_directory: string }[]
  >`select current_setting('data_directory') as data_directory`;
  const logFile = path.join(path.dirname(setting!.data_directory), 'pg.log');
  if (!fs.existsSync(logFile)) {
    console.log(`\nPlan pass skipped: the server log is not readable here (${logFile}).`);
    return;
  }
  await admin.unsafe(`alter database ${dbName} set session_preload_libraries = 'auto_explain'`);
  await admin.unsafe(`alter database ${dbName} set auto_explain.log_min_duration = '20ms'`);
  await admin.unsafe(`alter database ${dbName} set auto_explain.log_analyze = on`);
  await admin.unsafe(`alter database ${dbName} set auto_explain.log_buffers = on`);
  await admin.unsafe(`alter database ${dbName} set auto_explain.log_nested_statements = on`);
  const handle = await openDatabase({ databaseUrl: url, dataDir: '', max: 5 });
  const ctx = contextFor(handle, actor);
  const out: string[] = [];
  const summary: Array<{ path: string; slowQueries: number; seqScansOnBigTables: string }> = [];
  try {
    for (const c of list) {
      const before = fs.statSync(logFile).size;
      await c.fn(ctx);
      await new Promise((r) => setTimeout(r, 100));
      const text = fs.readFileSync(logFile, 'utf8').slice(before);
      const plans = text.split(/(?=^\S.*LOG:\s+duration:)/m).filter((p) => /duration: .* ms\s+plan:/.test(p));
      const seq = new Set<string>();
      for (const p of plans)
        for (const m of p.matchAll(/Seq Scan on (\w+)/g)) if (BIG_TABLES.includes(m[1]!)) seq.add(m[1]!);
      summary.push({ path: c.name, slowQueries: plans.length, seqScansOnBigTables: [...seq].join(', ') });
      out.push(`==== ${c.name}\n${plans.join('\n') || '(no statement over 20 ms)\n'}`);
    }
  } finally {
    await handle.close();
  }
  fs.writeFileSync(PLANS_FILE, out.join('\n'));
  console.log(
    '\nStatements over 20 ms (EXPLAIN ANALYZE, BUFFERS via auto_explain) and sequential scans of big tables:',
  );
  console.table(summary);
  console.log(`Full plans: ${PLANS_FILE}`);
}

async function main() {
  const sizes = sizesFromEnv();
  const services = await startServices();
  const dbName = `scale_${Date.now()}`;
  const adminUrl = services.databaseUrl;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  let handle: DbHandle | null = null;
  try {
    console.log(`PostgreSQL from ${services.source}; database ${dbName}`);
    await admin.unsafe(`create database ${dbName}`);
    handle = await openDatabase({ databaseUrl: url.toString(), dataDir: '', max: 5 });
    await handle.migrate();
    console.log('Generating data:', sizes);
    const t0 = performance.now();
    await seedScale(handle.db, sizes);
    console.log(`Data ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const counts = await handle.db.execute(sql`
      select (select count(*) from users) as users, (select count(*) from enrollments) as enrollments,
             (select count(*) from enrollment_installments) as enrollment_installments, (select count(*) from treatment_bookings) as bookings,
             (select count(*) from booking_installments) as booking_installments,
             (select count(*) from enrollment_installments where not is_paid and due_date < current_date) as overdue_enrolment_installments`);
    console.table(rowsOf(counts));

    const actor = await superadmin(handle.db);
    const [course] = rowsOf<{ id: string }>(
      await handle.db.execute(
        sql`select course_id as id from enrollments group by course_id order by count(*) desc limit 1`,
      ),
    );
    const list = cases({ courseId: course!.id });
    const ctx = contextFor(handle, actor);
    const results = [];
    for (const c of list) {
      const r = await time(c, ctx);
      results.push(r);
      console.log(`  ${r.path}: ${r.medianMs} ms (${r.result})`);
    }
    console.log(`\nMedian of ${RUNS} warm runs (reminders: 3, report: 1):`);
    console.table(results);
    await handle.close();
    handle = null;
    if (EXPLAIN) await explainPass(url.toString(), dbName, admin, list, actor);
  } finally {
    if (handle) await handle.close();
    await admin.unsafe(`drop database if exists ${dbName} with (force)`).catch(() => {});
    await admin.end();
    await services.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
