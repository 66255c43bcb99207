/**
 * HTTP benchmark (`npm run bench:http`, docs/performance.md#http-benchmark): what a user waits
 * for, sign-in check, validation, tRPC or REST and serialisation included, against a bare
 * Fastify + postgres.js server running the same SQL and answering the same JSON.
 *
 * 1. PostgreSQL and Redis as the tests start them; the scale data (bench/scale-seed.ts).
 * 2. The product as production runs it (`npm run build`, `node dist/server/main.js`) and the
 *    baseline (bench/baseline/server.ts); both answers and both servers' SQL compared once.
 * 3. Each path at each connection count, product and baseline interleaved; medians.
 * 4. Two product processes on the same PostgreSQL and Redis, round-robin, against one.
 * 5. The embedded mode (PGlite): each path against the same server's anonymous /api/health.
 * 6. Reports (bench/http/reports.ts).
 *
 * Environment (defaults: the scale data of docs/performance.md#targets):
 *   BENCH_USERS=100000            data size; enrolments 1.5×, bookings 0.3× (10000 for a quick run)
 *   BENCH_EMBEDDED_USERS          data size of the embedded run (default: BENCH_USERS)
 *   BENCH_DURATION=5              seconds per run; BENCH_WARMUP=1 second of warm-up per side
 *   BENCH_MAX_DURATION=20         slow paths get longer runs (several request waits), up to this
 *   BENCH_REPEATS=3               runs per side (the median is reported)
 *   BENCH_CONNECTIONS=10,50,100   connection counts on PostgreSQL (embedded: 10)
 *   BENCH_PATHS                   comma-separated parts of path names to keep (default: all)
 *   BENCH_PHASES=postgres,two-servers,embedded,reports
 *   BENCH_REPORT_ROWS=100000,500000
 *   BENCH_WRITE_RESULTS=1         write the tables and figures into bench/results/ (0: print only)
 *   BENCH_CPU_PROF=<dir>          run the PostgreSQL product with --cpu-prof, profiles into <dir>
 *   BENCH_DIFF_DIR=<dir>          a path whose answers or statements differ from the baseline's
 *                                 leaves both sides' full text in <dir> (bench/http/verify.ts)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { startServices } from '../tests/setup/services';
import { statementLog } from './http/capture';
import { benchSizes, prepareData } from './http/data';
import {
  checksTable,
  commitOf,
  embeddedTable,
  load,
  machine,
  pgTable,
  reportTable,
  scalingTable,
  targets,
  writeResults,
  type EmbeddedRow,
  type PgRow,
  type ScalingRow,
} from './http/doc';
import { databaseIdle, interleaved, probeRate } from './http/load';
import { benchPaths, healthPath, type BenchPath } from './http/paths';
import { reportBench } from './http/reports';
import {
  buildBaseline,
  buildProduct,
  createDatabase,
  embeddedEnv,
  productEnv,
  productNodeArgs,
  root,
  startNode,
  startPair,
  stopAll,
  workDir,
} from './http/stack';
import { signInCost, verify, type Check } from './http/verify';

const int = (name: string, dflt: number) => {
  const v = Number(process.env[name] ?? dflt);
  if (!Number.isInteger(v) || v < 0) throw new Error(`${name} must be a whole number`);
  return v;
};
const list = (name: string, dflt: string) =>
  (process.env[name] ?? dflt)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

const USERS = int('BENCH_USERS', 100_000);
const EMBEDDED_USERS = int('BENCH_EMBEDDED_USERS', USERS);
const DURATION = int('BENCH_DURATION', 5);
const WARMUP = int('BENCH_WARMUP', 1);
const MAX_DURATION = int('BENCH_MAX_DURATION', 20);
const REPEATS = int('BENCH_REPEATS', 3);
const CONNECTIONS = list('BENCH_CONNECTIONS', '10,50,100').map(Number);
const PATHS = list('BENCH_PATHS', '');
const PHASES = new Set(list('BENCH_PHASES', 'postgres,two-servers,embedded,reports'));
const REPORT_ROWS = list('BENCH_REPORT_ROWS', '100000,500000').map(Number);
const WRITE_RESULTS = process.env.BENCH_WRITE_RESULTS !== '0';
const CPU_PROF = process.env.BENCH_CPU_PROF ? path.resolve(process.env.BENCH_CPU_PROF) : null;

const t0 = Date.now();
const log = (s: string) => console.log(`[${((Date.now() - t0) / 1000).toFixed(0).padStart(4)} s] ${s}`);
const pick = (paths: BenchPath[]) =>
  PATHS.length ? paths.filter((p) => PATHS.some((x) => p.name.toLowerCase().includes(x.toLowerCase()))) : paths;
const baseOpts = { duration: DURATION, warmup: WARMUP, repeats: REPEATS, maxDuration: MAX_DURATION };
/** Set once PostgreSQL and Redis run, so that Ctrl-C stops them too. */
let stopServices: (() => Promise<void>) | null = null;

interface Section {
  id: 'postgres' | 'two-servers' | 'embedded' | 'reports';
  title: string;
  body: string[];
  /** The figures behind the tables, for the run's JSON. */
  figures: Record<string, unknown>;
}

async function main() {
  const sections: Section[] = [];
  let machineText = '';
  const http = `median of ${REPEATS} runs per side of ${DURATION} s (longer for slow paths, at most ${MAX_DURATION} s: s/run), interleaved, after a warm-up per side; autocannon in the benchmark's process on the same machine`;
  /** The first lines of a section: when, where, how busy the shared machine was. */
  const runLine = (started: Date, loadBefore: string, what: string) =>
    `Run of ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC, product at commit ${commitOf(root)}, on ${machineText}; ` +
    `load average ${loadBefore} before, ${load()} after (2 shared cores: other work ran meanwhile). ${what}.`;
  const sizes = (c: Record<string, number>) =>
    Object.entries(c)
      .map(([k, v]) => `${v.toLocaleString('en-US')} ${k.replace(/_/g, ' ')}`)
      .join(', ');
  const targetList = (goals: string[]) =>
    goals.length ? `Targets (docs/performance.md#targets):\n\n${goals.map((g) => `- ${g}`).join('\n')}` : '';

  log('Building the product (npm run build, skipped when up to date) and the baseline');
  await buildProduct();
  const scripts = await buildBaseline();

  const services = await startServices();
  stopServices = () => services.stop();
  log(`PostgreSQL and Redis from ${services.source}`);
  try {
    const admin = postgres(services.databaseUrl, { max: 1, onnotice: () => {} });
    const [v] = await admin<{ v: string }[]>`select current_setting('server_version') as v`;
    await admin.end();
    machineText = machine(v!.v);

    if (PHASES.has('postgres') || PHASES.has('two-servers')) {
      const started = new Date();
      const loadBefore = load();
      const url = await createDatabase(services.databaseUrl, 'bench_http');
      const data = await prepareData({ databaseUrl: url, dataDir: '' }, benchSizes(USERS), log);
      const paths = pick(benchPaths(data));
      const env = productEnv(url, services.redisUrl);
      const opts = { ...baseOpts, dbIdle: databaseIdle(services.databaseUrl, 'bench_http') };
      const { product, baseline } = await startPair(url, services.redisUrl, scripts.server, CPU_PROF || undefined);
      log(`product pid ${product.pid} at ${product.url}, baseline pid ${baseline.pid} at ${baseline.url}`);

      const statements = await statementLog(services.databaseUrl);
      let checks: Check[];
      let signIn = '';
      try {
        checks = await verify(product.url, baseline.url, paths, data, statements?.logFile ?? null);
        if (statements)
          signIn = await signInCost(product.url, data.token, '/api/enrollments/statistics', statements.logFile);
      } finally {
        await statements?.off();
      }
      console.log(
        `\nSame answers and SQL (product vs baseline):\n${checksTable(checks)}\nSession look-ups: ${signIn}\n`,
      );

      // How fast each path answers on the product, to size the runs of slow paths.
      const rates = new Map<BenchPath, number>();
      for (const p of paths) rates.set(p, await probeRate({ label: 'product', urls: [product.url] }, p, data.token));
      log(`probe (req/s at 10 connections): ${paths.map((p) => `${p.name} ${rates.get(p)!.toFixed(0)}`).join(', ')}`);

      if (PHASES.has('postgres')) {
        const rows: PgRow[] = [];
        for (const connections of CONNECTIONS) {
          for (const p of paths) {
            const [a, b] = await interleaved(
              [
                { target: { label: 'product', urls: [product.url] }, path: p, token: data.token },
                { target: { label: 'baseline', urls: [baseline.url] }, path: p, token: data.token },
              ],
              { ...opts, connections, rate: rates.get(p) },
            );
            const check = checks.find((c) => c.path === p.name);
            const sameWork = !check || (check.json === 'same' && ['same', 'not captured'].includes(check.sql));
            rows.push({ path: p, connections, product: a!, baseline: b!, sameWork });
            log(
              `${p.name} @${connections}: product ${a!.rps.toFixed(0)} req/s p99 ${a!.p99} ms, baseline ${b!.rps.toFixed(0)} req/s p99 ${b!.p99} ms, ratio ${(a!.rps / b!.rps).toFixed(2)}`,
            );
          }
        }
        sections.push({
          id: 'postgres',
          title: 'PostgreSQL: product vs baseline',
          body: [
            runLine(started, loadBefore, `Each figure: ${http}`),
            `Data: ${sizes(data.counts)}.`,
            `The baseline answered the same JSON and ran the same SQL (PostgreSQL's statement log, sign-in look-ups aside) as the product, checked before the load:\n\n${checksTable(checks)}`,
            signIn ? `Session look-ups per signed-in request (the product's statement log): ${signIn}.` : '',
            `ratio = product req/s ÷ baseline req/s; ≠: the baseline did not do the same work (see above), so the ratio is not a comparison. ⚠n: n answers in those runs were not 2xx, failed or timed out. open p99: the answers on connections already open, each connection's first answer left out; slowest first answer: the longest a connection opened at the start of a run waited for its first answer (docs/performance.md#new-connections-under-load).\n\n${pgTable(rows)}`,
            targetList(targets(rows, [], [])),
          ],
          figures: { checks, signIn, rows },
        });
      }
      await baseline.stop();

      if (PHASES.has('two-servers')) {
        const started2 = new Date();
        const load2 = load();
        const second = await startNode('product-2', path.join(root, 'dist/server/main.js'), env, {
          healthPath: '/api/health',
          nodeArgs: productNodeArgs(),
        });
        const connections = 50;
        const rows: ScalingRow[] = [];
        for (const p of paths) {
          const [one, two] = await interleaved(
            [
              { target: { label: '1 server', urls: [product.url] }, path: p, token: data.token },
              { target: { label: '2 servers', urls: [product.url, second.url] }, path: p, token: data.token },
            ],
            { ...opts, connections, rate: rates.get(p) },
          );
          rows.push({ path: p, connections, one: one!, two: two! });
          log(
            `${p.name} @${connections}: 1 server ${one!.rps.toFixed(0)} req/s, 2 servers ${two!.rps.toFixed(0)} req/s`,
          );
        }
        await second.stop();
        sections.push({
          id: 'two-servers',
          title: 'Two product processes on one PostgreSQL and Redis',
          body: [
            runLine(started2, load2, `Each figure: ${http}`),
            `Data: ${sizes(data.counts)}. autocannon spreads the connections over both servers in turn; ratio = 2 servers ÷ 1 server.\n\n${scalingTable(rows)}`,
          ],
          figures: { rows },
        });
      }
      await product.stop();
    }

    if (PHASES.has('embedded')) {
      const started = new Date();
      const loadBefore = load();
      const dataDir = path.join(workDir, 'embedded');
      const data = await prepareData({ dataDir }, benchSizes(EMBEDDED_USERS), log);
      // The health check with a Bearer token first: what the sign-in check alone costs here.
      const paths = [{ ...healthPath, name: 'health (Bearer)' }, ...pick(benchPaths(data))];
      const server = await startNode('embedded', path.join(root, 'dist/server/main.js'), embeddedEnv(dataDir), {
        healthPath: '/api/health',
        timeoutMs: 600_000,
        nodeArgs: productNodeArgs(),
      });
      const target = { label: 'embedded', urls: [server.url] };
      const rows: EmbeddedRow[] = [];
      for (const p of paths) {
        const rate = await probeRate(target, p, data.token);
        const [a, h] = await interleaved(
          [
            { target, path: p, token: data.token },
            { target, path: healthPath },
          ],
          { ...baseOpts, connections: 10, rate },
        );
        rows.push({ path: p, product: a!, health: h! });
        log(
          `embedded ${p.name} @10: ${a!.rps.toFixed(0)} req/s p99 ${a!.p99} ms; /api/health ${h!.rps.toFixed(0)} req/s`,
        );
      }
      await server.stop();
      sections.push({
        id: 'embedded',
        title: 'Embedded (PGlite), 10 connections',
        body: [
          runLine(started, loadBefore, `Each figure: ${http}`),
          `Data: ${sizes(data.counts)}. ratio = the path's req/s ÷ the same server's anonymous \`/api/health\` req/s, the two interleaved.\n\n${embeddedTable(rows)}`,
          targetList(targets([], rows, [])),
        ],
        figures: { rows },
      });
    }

    if (PHASES.has('reports')) {
      const started = new Date();
      const loadBefore = load();
      const results = await reportBench({
        adminUrl: services.databaseUrl,
        redisUrl: services.redisUrl,
        sizes: REPORT_ROWS,
        scripts,
        log,
      });
      sections.push({
        id: 'reports',
        title: 'Reports on PostgreSQL',
        body: [
          runLine(started, loadBefore, 'One run of each'),
          reportTable(results),
          targetList(targets([], [], results)),
        ],
        figures: { results },
      });
    }
  } finally {
    await stopAll();
    stopServices = null;
    await services.stop();
  }

  const written = sections.map((s) => ({ ...s, body: s.body.filter(Boolean).join('\n\n') }));
  for (const s of written) console.log(`\n### ${s.title}\n\n${s.body}\n`);
  if (WRITE_RESULTS && written.length) {
    const settings = {
      USERS,
      EMBEDDED_USERS,
      DURATION,
      WARMUP,
      MAX_DURATION,
      REPEATS,
      CONNECTIONS,
      PATHS,
      REPORT_ROWS,
    };
    const file = writeResults(
      root,
      { started: new Date(t0), commit: commitOf(root), machine: machineText, settings },
      written,
    );
    log(`Written to ${path.relative(root, file)} and its .json`);
  }
  fs.rmSync(workDir, { recursive: true, force: true });
}

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    void stopAll()
      .then(() => stopServices?.())
      .finally(() => process.exit(130));
  });
}

main().catch(async (err) => {
  console.error(err);
  console.error(`Logs kept in ${workDir} (${os.hostname()})`);
  await stopAll();
  process.exit(1);
});
