/**
 * The processes the HTTP benchmark runs: PostgreSQL and Redis (the tests' starter), the product
 * as production runs it (`npm run build`, then `node dist/server/main.js`), the worker, and the
 * baseline server (bundled to plain JavaScript like the product, so neither compiles at run time).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { freePort, waitForPort } from '../../tests/setup/services';
import { nodeFlagsOf } from '../../tests/setup/start-flags';

export const root = path.resolve(import.meta.dirname, '../..');

/** One temporary folder for the run: logs, the baseline bundle, PGlite data. */
export const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-http-'));

export interface Proc {
  name: string;
  pid: number;
  url: string;
  port: number;
  log: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

const running = new Set<Proc>();

/** Stops every process this run started (on success, failure or Ctrl-C). */
export async function stopAll() {
  await Promise.all([...running].map((p) => p.stop()));
}

/** Runs `node <script>` with `env`, its output to a log file, and waits until its port answers HTTP. */
export async function startNode(
  name: string,
  script: string,
  env: Record<string, string>,
  opts: { port?: number; healthPath?: string; readyLog?: RegExp; timeoutMs?: number; nodeArgs?: string[] } = {},
): Promise<Proc> {
  const port = opts.port ?? (await freePort());
  const log = path.join(workDir, `${name}.log`);
  const fd = fs.openSync(log, 'a');
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), script], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      TMPDIR: os.tmpdir(),
      ...env,
      PORT: String(port),
    },
    stdio: ['ignore', fd, fd],
  });
  fs.closeSync(fd);
  const state: { exited: string | null } = { exited: null };
  child.on('exit', (code, signal) => {
    state.exited = `${name} exited (${signal ?? code})`;
  });
  const url = `http://127.0.0.1:${port}`;
  const proc: Proc = {
    name,
    pid: child.pid!,
    url,
    port,
    log,
    child,
    async stop() {
      running.delete(proc);
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await gone;
      clearTimeout(timer);
    },
  };
  running.add(proc);
  const end = Date.now() + (opts.timeoutMs ?? 120_000);
  for (;;) {
    if (state.exited) throw new Error(`${state.exited} before answering; see ${log}:\n${tail(log)}`);
    if (Date.now() > end) throw new Error(`${name} did not answer within the time limit; see ${log}`);
    if (opts.readyLog) {
      if (opts.readyLog.test(fs.readFileSync(log, 'utf8'))) return proc;
      await new Promise((r) => setTimeout(r, 200));
      continue;
    }
    if (opts.healthPath === undefined) {
      try {
        await waitForPort(port, 200);
        return proc;
      } catch {
        continue;
      }
    }
    try {
      const res = await fetch(`${url}${opts.healthPath}`);
      if (res.ok) return proc;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

export function tail(file: string, lines = 20) {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/**
 * The Node flags `npm start` runs the server with (package.json's `start` script, e.g.
 * `--enable-source-maps`), so the benchmark starts the product exactly as production does;
 * `workerNodeArgs` the same for `npm run worker`.
 */
export function productNodeArgs(): string[] {
  return nodeFlagsOf('start', 'dist/server/main.js');
}

export function workerNodeArgs(): string[] {
  return nodeFlagsOf('worker', 'dist/worker/main.js');
}

/** `npm run build` when the sources changed since the last build (the build's own `--if-stale`). */
export async function buildProduct() {
  await run(process.execPath, [path.join(root, 'scripts/build.mjs'), '--if-stale']);
}

/** The baseline server and the bare report scripts as plain JavaScript (dependencies stay in node_modules). */
export async function buildBaseline(): Promise<{ server: string; excel: string; pdf: string }> {
  const esbuild = await import('esbuild');
  const outdir = path.join(root, 'dist/bench');
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: { server: 'bench/baseline/server.ts', excel: 'bench/baseline/excel.ts', pdf: 'bench/baseline/pdf.ts' },
    outdir,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    logLevel: 'warning',
  });
  return {
    server: path.join(outdir, 'server.js'),
    excel: path.join(outdir, 'excel.js'),
    pdf: path.join(outdir, 'pdf.js'),
  };
}

export function run(cmd: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${cmd} ${args.join(' ')} failed (${code}):\n${out}`)),
    );
  });
}

/**
 * The product's environment in production: PostgreSQL and Redis, no demo data, logs at info.
 * The daily reminder run is off: on fresh scale data every overdue instalment would get its
 * first reminder at once, a one-off burst of jobs that a running deployment never has.
 */
export function productEnv(databaseUrl: string, redisUrl: string, extra: Record<string, string> = {}) {
  return {
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    SEED_DEMO: 'false',
    SEED_ADMIN_PASSWORD: 'bench-admin-password',
    JOB_QUEUE_PREFIX: `bench${process.pid}`,
    REMINDER_SCHEDULE: 'false',
    ...extra,
  };
}

/** The embedded mode as `npm start` runs it (no DATABASE_URL, no REDIS_URL), reminders off as above. */
export function embeddedEnv(dataDir: string) {
  return {
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    SEED_DEMO: 'false',
    SEED_ADMIN_PASSWORD: 'bench-admin-password',
    REMINDER_SCHEDULE: 'false',
  };
}

/** Current and peak resident memory of a process, from /proc (Linux). */
export function memoryOf(pid: number): { rss: number; hwm: number } | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return null;
  }
}

/**
 * Watches a process's resident memory while `fn` runs: the peak above the level at the start.
 * The kernel's own high-water mark is reset first when allowed (clear_refs 5), and sampling every
 * 20 ms covers the case where it is not.
 */
export async function watchMemory<T>(pids: number[], fn: () => Promise<T>) {
  const start = new Map<number, number>();
  const peak = new Map<number, number>();
  const canReset = new Map<number, boolean>();
  for (const pid of pids) {
    let reset = false;
    try {
      fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
      reset = true;
    } catch {
      /* not permitted: sampling only */
    }
    canReset.set(pid, reset);
    const m = memoryOf(pid);
    start.set(pid, m?.rss ?? 0);
    peak.set(pid, m?.rss ?? 0);
  }
  const sample = () => {
    for (const pid of pids) {
      const m = memoryOf(pid);
      if (m) peak.set(pid, Math.max(peak.get(pid)!, m.rss, canReset.get(pid) ? m.hwm : 0));
    }
  };
  const timer = setInterval(sample, 20);
  const t0 = performance.now();
  try {
    const result = await fn();
    const ms = performance.now() - t0;
    sample();
    return {
      result,
      ms,
      memory: pids.map((pid) => ({
        pid,
        startRss: start.get(pid)!,
        peakRss: peak.get(pid)!,
        growth: peak.get(pid)! - start.get(pid)!,
      })),
    };
  } finally {
    clearInterval(timer);
  }
}

/** A database on the benchmark's PostgreSQL, created empty. */
export async function createDatabase(adminUrl: string, name: string): Promise<string> {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.unsafe(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * The product as `npm start` runs it and the baseline server, both on the same database, answering
 * on `/api/health` before this returns. With `cpuProfDir`, both write CPU profiles there (the
 * baseline's in its `baseline/` folder).
 */
export async function startPair(
  databaseUrl: string,
  redisUrl: string,
  baselineScript: string,
  cpuProfDir?: string,
): Promise<{ product: Proc; baseline: Proc }> {
  const prof = (dir: string) => (cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : []);
  const product = await startNode(
    'product',
    path.join(root, 'dist/server/main.js'),
    productEnv(databaseUrl, redisUrl),
    {
      healthPath: '/api/health',
      nodeArgs: [...productNodeArgs(), ...prof(cpuProfDir ?? '')],
    },
  );
  const baseline = await startNode(
    'baseline',
    baselineScript,
    { DATABASE_URL: databaseUrl },
    { healthPath: '/api/health', nodeArgs: prof(path.join(cpuProfDir ?? '', 'baseline')) },
  );
  return { product, baseline };
}
