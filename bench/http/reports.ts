/**
 * The report part of `npm run bench:http`, on PostgreSQL: the course list as Excel downloaded over
 * REST at 100,000 and 500,000 rows, and the largest PDF allowed, each against a bare script
 * (bench/baseline/excel.ts, pdf.ts) making the same file from the same rows.
 *
 * Two ways the product answers are measured: as deployed (more rows than REPORT_JOB_THRESHOLD go
 * to the worker, the caller polls and downloads the stored file; docs/reports.md) and streamed in
 * the request (a server with REPORT_JOB_THRESHOLD above the row count). Time is from the request
 * to the last byte received; memory is each process's peak resident memory above its level
 * before the request.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { createSession } from '../../src/server/auth/sessions';
import { openDatabase } from '../../src/server/db/client';
import { PDF_MAX_ROWS } from '../../src/server/domains/reports/report-writers';
import { insertCourses } from '../reports-data';
import {
  createDatabase,
  productEnv,
  productNodeArgs,
  root,
  run,
  startNode,
  watchMemory,
  workDir,
  workerNodeArgs,
  type Proc,
} from './stack';

export interface ReportResult {
  report: string;
  how: string;
  seconds: number;
  /** MB above the start, per process measured. */
  memory: string;
  /** MB: the largest growth among the processes measured. */
  growthMb: number;
  bytes: number;
}

const MB = 1024 * 1024;
const mb = (n: number) => Math.round(n / MB);

async function prepare(adminUrl: string) {
  const databaseUrl = await createDatabase(adminUrl, 'bench_reports');
  const handle = await openDatabase({ databaseUrl, dataDir: '', max: 1 });
  try {
    await handle.migrate();
    await handle.db.execute(sql`insert into settings (id) values (1) on conflict do nothing`);
    const rows = await handle.db.execute(sql`
      insert into users (username, full_name, email, password_hash, role)
      values ('bench-superadmin', 'Bench Superadmin', 'bench-superadmin@example.com', 'x', 'superadmin') returning id`);
    const id = (Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows)[0] as { id: string };
    const { token } = await createSession(handle.db, id.id, { idleMs: 7 * 86400_000, maxMs: 7 * 86400_000 });
    return { databaseUrl, token };
  } finally {
    await handle.close();
  }
}

async function download(base: string, url: string, token: string): Promise<number> {
  const headers = { authorization: `Bearer ${token}` };
  const res = await fetch(`${base}${url}`, { headers });
  if (res.status === 200) return (await res.arrayBuffer()).byteLength;
  if (res.status !== 202) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
  const job = (await res.json()) as { statusUrl: string; downloadUrl: string };
  for (;;) {
    const s = (await (await fetch(`${base}${job.statusUrl}`, { headers })).json()) as { status: string };
    if (s.status === 'ready') break;
    if (s.status === 'failed') throw new Error(`the report job failed: ${JSON.stringify(s)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const file = await fetch(`${base}${job.downloadUrl}`, { headers });
  if (!file.ok) throw new Error(`download answered ${file.status}`);
  return (await file.arrayBuffer()).byteLength;
}

async function viaRest(label: string, how: string, procs: Proc[], base: string, url: string, token: string) {
  const m = await watchMemory(
    procs.map((p) => p.pid),
    () => download(base, url, token),
  );
  return {
    report: label,
    how,
    seconds: m.ms / 1000,
    memory: m.memory.map((x, i) => `${procs[i]!.name} +${mb(x.growth)}`).join(', '),
    growthMb: Math.max(...m.memory.map((x) => mb(x.growth))),
    bytes: m.result,
  } satisfies ReportResult;
}

async function bare(label: string, script: string, env: Record<string, string>): Promise<ReportResult> {
  const out = await run(process.execPath, [script], { ...env, OUT: path.join(workDir, 'bare-report.out') });
  const r = JSON.parse(out.trim().split('\n').pop()!) as {
    rows: number;
    bytes: number;
    ms: number;
    startRss: number;
    peakRss: number;
  };
  return {
    report: label,
    how: `bare script (${r.rows.toLocaleString('en-US')} rows)`,
    seconds: r.ms / 1000,
    memory: `script +${mb(r.peakRss - r.startRss)}`,
    growthMb: mb(r.peakRss - r.startRss),
    bytes: r.bytes,
  };
}

export async function reportBench(opts: {
  adminUrl: string;
  redisUrl: string;
  sizes: number[];
  scripts: { excel: string; pdf: string };
  log: (s: string) => void;
}): Promise<ReportResult[]> {
  const { databaseUrl, token } = await prepare(opts.adminUrl);
  const results: ReportResult[] = [];
  const env = productEnv(databaseUrl, opts.redisUrl, { LOG_LEVEL: 'info' });
  const main = path.join(root, 'dist/server/main.js');
  const deployed = await startNode('report-server', main, env, {
    healthPath: '/api/health',
    nodeArgs: productNodeArgs(),
  });
  const worker = await startNode('report-worker', path.join(root, 'dist/worker/main.js'), env, {
    readyLog: /worker ready/,
    nodeArgs: workerNodeArgs(),
  });
  const streaming = await startNode(
    'report-server-streaming',
    main,
    { ...env, REPORT_JOB_THRESHOLD: String(10_000_000) },
    { healthPath: '/api/health', nodeArgs: productNodeArgs() },
  );
  const bareEnv = { DATABASE_URL: databaseUrl };
  try {
    let have = 0;
    for (const n of opts.sizes) {
      opts.log(`Reports: ${n.toLocaleString('en-US')} courses`);
      await insertCourses(databaseUrl, have + 1, n);
      have = n;
      const label = `Excel, ${n.toLocaleString('en-US')} rows`;
      const url = '/api/course-reports/excel';
      results.push(
        await viaRest(
          label,
          'REST, as deployed (worker builds, then download)',
          [deployed, worker],
          deployed.url,
          url,
          token,
        ),
      );
      results.push(await viaRest(label, 'REST, streamed in the request', [streaming], streaming.url, url, token));
      results.push(await bare(label, opts.scripts.excel, bareEnv));
      for (const r of results.slice(-3)) opts.log(`  ${r.how}: ${r.seconds.toFixed(1)} s, ${r.memory} MB`);
    }
    // The PDF is the largest allowed whatever the Excel sizes were.
    if (have < PDF_MAX_ROWS) await insertCourses(databaseUrl, have + 1, PDF_MAX_ROWS);
    const label = `PDF, ${PDF_MAX_ROWS.toLocaleString('en-US')} rows (the cap)`;
    const url = '/api/course-reports/pdf?category=BenchPdf';
    results.push(
      await viaRest(
        label,
        'REST, as deployed (worker builds, then download)',
        [deployed, worker],
        deployed.url,
        url,
        token,
      ),
    );
    results.push(await viaRest(label, 'REST, built in the request', [streaming], streaming.url, url, token));
    results.push(await bare(label, opts.scripts.pdf, { ...bareEnv, CATEGORY: 'BenchPdf' }));
    for (const r of results.slice(-3)) opts.log(`  ${r.how}: ${r.seconds.toFixed(1)} s, ${r.memory} MB`);
  } finally {
    await Promise.all([deployed.stop(), worker.stop(), streaming.stop()]);
    fs.rmSync(path.join(workDir, 'bare-report.out'), { force: true });
  }
  return results;
}
