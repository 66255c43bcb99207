/**
 * CPU time per request, product against baseline (docs/performance.md#where-the-products-time-goes):
 * on a shared machine, req/s swing with other people's work, but the CPU a process spends per
 * answer hardly does. Each path is sent at 10 connections (CPU_CONNECTIONS) for a few seconds to
 * each server in turn (product, baseline, product, baseline) and the server process's own CPU time
 * (/proc/<pid>/stat, user + system) is divided by the answers it gave; so is PostgreSQL's over the
 * same run (every backend of the cluster, which serves that side alone while it runs), because a
 * request's statements cost the database too, on the same cores.
 *
 *   CPU_USERS=2000 CPU_SECONDS=5 CPU_ROUNDS=2 CPU_PATHS=users.list,by\ id npx tsx bench/http/cpu.ts
 *
 * CPU_PROF=<dir> also runs the product with `node --cpu-prof` and leaves its profile there
 * (the baseline's in <dir>/baseline; `npx tsx bench/http/profile-summary.ts <file>`); the profiler's
 * own cost is then in the figures.
 *
 * CPU_COMPARE=<folder>[,<folder>...] measures other builds of the product alongside, in the same
 * interleaved rounds, each in a column named after its folder: a copy of an earlier `dist/server`
 * made before a change, e.g. `git stash && npm run build && mkdir -p dist/before && cp -r dist/server
 * dist/before/ && git stash pop`, then `CPU_COMPARE=dist/before` (the folder holds `server/main.js`,
 * which the run checks before it starts anything). A folder must be inside the repository (the
 * bundle finds its packages and migrations from there); the build replaces only `dist/server`.
 * A folder may carry its own Node flags after `@`, space-separated, in place of the `start`
 * script's: `CPU_COMPARE='dist@--max-semi-space-size=8'` measures the current build with
 * another young generation (the column is named after the folder and its flags).
 *
 * CPU_KEEP=1 keeps each server's output (its log, and whatever `--trace-gc` or `--trace-deopt`
 * given through CPU_COMPARE print) in the folder the run names at its end.
 */
import fs from 'node:fs';
import path from 'node:path';
import { startServices } from '../../tests/setup/services';
import postgres from 'postgres';
import { postgresCpuMs, postmasterOf, processCpuMs } from '../proc-cpu';
import { benchSizes, prepareData } from './data';
import { loadRun, median, type Target } from './load';
import { benchPaths } from './paths';
import {
  buildBaseline,
  buildProduct,
  createDatabase,
  productEnv,
  productNodeArgs,
  root,
  startNode,
  startPair,
  stopAll,
  workDir,
} from './stack';

const USERS = Number(process.env.CPU_USERS ?? 2000);
const SECONDS = Number(process.env.CPU_SECONDS ?? 5);
/** Interleaved rounds per path (each side once per round). */
const ROUNDS = Number(process.env.CPU_ROUNDS ?? 2);
const PATHS = (process.env.CPU_PATHS ?? '').split(',').filter(Boolean);
const KEEP = process.env.CPU_KEEP === '1';
/** Connections per run: 10 by default; 50 shows the tail the p99 target reads. */
const CONNECTIONS = Number(process.env.CPU_CONNECTIONS ?? 10);
const PROF = process.env.CPU_PROF ? path.resolve(process.env.CPU_PROF) : null;
/** Earlier builds to measure alongside (comma-separated folders), each labelled by its folder's name. */
const COMPARE = (process.env.CPU_COMPARE ?? '')
  .split(',')
  .filter(Boolean)
  .map((spec) => {
    const [dir, flags] = spec.split('@') as [string, string | undefined];
    const nodeArgs = flags === undefined ? null : flags.split(/\s+/).filter(Boolean);
    const label = [path.basename(dir), ...(nodeArgs ?? [])].join(' ');
    const folder = path.resolve(root, dir);
    // A copy made with `cp -r dist/server dist/x` (no dist/x yet) holds main.js one level up, and
    // the server would only fail to start after the data is loaded.
    if (!fs.existsSync(path.join(folder, 'server/main.js'))) {
      throw new Error(`CPU_COMPARE: ${dir} has no server/main.js (mkdir -p ${dir} && cp -r dist/server ${dir}/)`);
    }
    return { label, dir: folder, nodeArgs };
  });

await buildProduct();
const scripts = await buildBaseline();
const services = await startServices();
try {
  const url = await createDatabase(services.databaseUrl, 'bench_cpu');
  const data = await prepareData({ databaseUrl: url, dataDir: '' }, benchSizes(USERS), () => {});
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  const postmaster = await postmasterOf(admin);
  await admin.end();
  const { product, baseline } = await startPair(url, services.redisUrl, scripts.server, PROF || undefined);
  const others: Array<{ label: string; url: string; pid: number }> = [];
  for (const { label, dir, nodeArgs } of COMPARE) {
    const node = await startNode(
      `product-${label}`,
      path.join(dir, 'server/main.js'),
      productEnv(url, services.redisUrl),
      {
        healthPath: '/api/health',
        nodeArgs: nodeArgs ?? productNodeArgs(),
      },
    );
    others.push({ label, url: node.url, pid: node.pid });
  }
  /** The columns' order wherever a figure is given for every side: the other builds, then the two. */
  const labels = [...others.map((o) => o.label), 'product', 'baseline'];
  const paths = benchPaths(data).filter(
    (p) => !PATHS.length || PATHS.some((x) => p.name.toLowerCase().includes(x.toLowerCase())),
  );
  console.log(
    `| path |${others.map((o) => ` ${o.label} ms CPU / answer |`).join('')} product ms CPU / answer | baseline ms CPU / answer | baseline ÷ product | PostgreSQL ms / answer, ${labels.join(' · ')} | req/s, ${labels.join(' · ')} | p99 / open p99 ms (median of rounds), ${labels.join(' · ')} |`,
  );
  console.log(`|---|${others.map(() => '---:|').join('')}---:|---:|---:|---:|---:|---:|`);
  for (const p of paths) {
    const sides: Array<[Target, number]> = [
      [{ label: 'product', urls: [product.url] }, product.pid],
      [{ label: 'baseline', urls: [baseline.url] }, baseline.pid],
      ...others.map((o): [Target, number] => [{ label: o.label, urls: [o.url] }, o.pid]),
    ];
    const cost = new Map<string, { cpu: number; pg: number; answers: number; p99: number[]; p99Open: number[] }>();
    for (const [target] of sides)
      await loadRun(target, p, { connections: CONNECTIONS, duration: 1, token: data.token });
    for (let round = 0; round < ROUNDS; round++) {
      for (const [target, pid] of sides) {
        const before = processCpuMs(pid);
        const pgBefore = postgresCpuMs(postmaster);
        const r = await loadRun(target, p, { connections: CONNECTIONS, duration: SECONDS, token: data.token });
        const c = cost.get(target.label) ?? { cpu: 0, pg: 0, answers: 0, p99: [], p99Open: [] };
        c.cpu += processCpuMs(pid) - before;
        c.pg += postgresCpuMs(postmaster) - pgBefore;
        c.answers += r.rps * SECONDS;
        c.p99.push(r.p99);
        c.p99Open.push(r.p99Open);
        cost.set(target.label, c);
      }
    }
    const ms = (label: string) => cost.get(label)!.cpu / cost.get(label)!.answers;
    const pgMs = (label: string) => cost.get(label)!.pg / cost.get(label)!.answers;
    const a = ms('product');
    const b = ms('baseline');
    const was = others.map((o) => ` ${ms(o.label).toFixed(3)} |`).join('');
    const pg = labels.map((l) => pgMs(l).toFixed(2)).join(' · ');
    const rps = (label: string) => Math.round(cost.get(label)!.answers / (ROUNDS * SECONDS));
    const tail = (label: string) =>
      `${Math.round(median(cost.get(label)!.p99))} / ${Math.round(median(cost.get(label)!.p99Open))}`;
    console.log(
      `| ${p.name} |${was} ${a.toFixed(3)} | ${b.toFixed(3)} | ${(b / a).toFixed(2)} | ${pg} | ${labels.map(rps).join(' · ')} | ${labels.map(tail).join(' · ')} |`,
    );
  }
} finally {
  await stopAll();
  await services.stop();
  if (KEEP) console.log(`Servers' logs kept in ${workDir}`);
  else fs.rmSync(workDir, { recursive: true, force: true });
}
