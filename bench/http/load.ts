/**
 * Load runs with autocannon, interleaved (A, B, A, B, A, B) so that a slow minute of the shared
 * machine lands on both sides; each side's figure is the median of its runs.
 */
import autocannon from 'autocannon';
import postgres from 'postgres';
import { pct } from '../scale-context';
import type { BenchPath } from './paths';

export interface RunResult {
  rps: number;
  p50: number;
  p99: number;
  /**
   * The p99 of the answers on connections already open: each connection's first answer left out
   * (docs/performance.md#new-connections-under-load).
   */
  p99Open: number;
  /** The slowest first answer of a connection: how long the last connection opened at the start waited. */
  firstMax: number;
  /** Answers other than 2xx, connection errors and timeouts: a run with any is flagged. */
  failures: number;
  statuses: string;
}

export interface Measured {
  /** Seconds per run (longer than asked for slow paths, see runSeconds). */
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  p99Open: number;
  firstMax: number;
  runs: RunResult[];
  failures: number;
}

export interface Target {
  label: string;
  /** Several urls: autocannon spreads the connections over them round-robin. */
  urls: string[];
}

export async function loadRun(
  target: Target,
  path: BenchPath,
  opts: { connections: number; duration: number; token?: string },
): Promise<RunResult> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (path.method === 'POST') headers['content-type'] = 'application/json';
  const next = path.next;
  const instance = autocannon({
    url: target.urls.map((u) => `${u}${next ? '' : path.url}`),
    connections: opts.connections,
    duration: opts.duration,
    // A request still waiting after this long counts as a failure; the table then says so.
    timeout: 30,
    method: path.method,
    headers,
    requests: next
      ? [
          {
            setupRequest: (req) => {
              const { url, body } = next();
              return { ...req, path: url, body };
            },
          },
        ]
      : undefined,
  });
  // autocannon's own histogram mixes the two kinds of answer; each connection's first is kept apart.
  const opened = new Set<object>();
  const later: number[] = [];
  let firstMax = 0;
  instance.on('response', (client, _status, _bytes, ms) => {
    if (opened.has(client)) later.push(ms);
    else {
      opened.add(client);
      firstMax = Math.max(firstMax, ms);
    }
  });
  const result = await instance;
  const statuses = Object.entries(result.statusCodeStats)
    .map(([code, s]) => `${code}×${s.count}`)
    .join(' ');
  return {
    rps: result['2xx'] / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    p99Open: pct(later, 99),
    firstMax,
    failures: result.non2xx + result.errors + result.timeouts,
    statuses,
  };
}

export const median = (xs: number[]) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

function summarise(runs: RunResult[], seconds: number): Measured {
  return {
    seconds,
    rps: median(runs.map((r) => r.rps)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    p99Open: median(runs.map((r) => r.p99Open)),
    firstMax: median(runs.map((r) => r.firstMax)),
    runs,
    failures: runs.reduce((s, r) => s + r.failures, 0),
  };
}

/**
 * Waits until no other session of `database` is running a statement: a server whose event loop is
 * free may still have requests queued for its connection pool, and their statements would run
 * into the next side's run.
 */
export function databaseIdle(adminUrl: string, database: string) {
  return async () => {
    const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
    try {
      const end = Date.now() + 120_000;
      while (Date.now() < end) {
        const [row] = await sql<{ n: number }[]>`
          select count(*)::int as n from pg_stat_activity
          where datname = ${database} and state = 'active' and pid <> pg_backend_pid()`;
        if (row!.n === 0) return;
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      await sql.end();
    }
  };
}

/**
 * Waits until every server of the target answers its health check promptly again: a run ends
 * with requests still being served (slow ones, or a single-threaded embedded database working
 * through a queue), and the next run must not start behind that backlog.
 */
export async function settle(target: Target) {
  for (const url of target.urls) {
    const end = Date.now() + 60_000;
    let quick = 0;
    while (quick < 2 && Date.now() < end) {
      const t = performance.now();
      await fetch(`${url}/api/health`).then((r) => r.arrayBuffer());
      quick = performance.now() - t < 50 ? quick + 1 : 0;
      if (!quick) await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** One side of a comparison: a path on a target, signed in or not. */
export interface Side {
  target: Target;
  path: BenchPath;
  token?: string;
}

/**
 * A short warm-up on each side (JIT, plans, pools, caches), then `repeats` rounds of one run per
 * side in turn.
 */
export async function interleaved(
  sides: Side[],
  opts: {
    connections: number;
    duration: number;
    warmup: number;
    repeats: number;
    /** Requests per second the path was seen to answer (probe), to size the runs. */
    rate?: number;
    maxDuration?: number;
    /** Waits until the database has finished the previous run's queued statements. */
    dbIdle?: () => Promise<void>;
  },
): Promise<Measured[]> {
  const quiet = async (t: Target) => {
    await settle(t);
    await opts.dbIdle?.();
  };
  const duration = runSeconds(opts.duration, 3, opts);
  const warmup = opts.warmup > 0 ? runSeconds(opts.warmup, 1, opts) : 0;
  if (warmup > 0) {
    for (const s of sides) {
      await loadRun(s.target, s.path, { connections: opts.connections, duration: warmup, token: s.token });
      await quiet(s.target);
    }
  }
  const runs: RunResult[][] = sides.map(() => []);
  for (let r = 0; r < opts.repeats; r++) {
    for (const [i, s] of sides.entries()) {
      runs[i]!.push(await loadRun(s.target, s.path, { connections: opts.connections, duration, token: s.token }));
      await quiet(s.target);
    }
  }
  return runs.map((r) => summarise(r, duration));
}

/**
 * A run must last several times one request's wait, or a slow path at many connections ends
 * before its first answers arrive and shows 0 req/s. At `connections` in flight and `rate`
 * answers a second, a request waits about connections ÷ rate seconds; a run lasts `waits` times
 * that, at least `seconds` and at most `maxDuration` (then the table shows the timeouts).
 */
function runSeconds(
  seconds: number,
  waits: number,
  opts: { connections: number; rate?: number; maxDuration?: number },
) {
  if (!opts.rate) return seconds;
  const wait = opts.connections / Math.max(opts.rate, 0.1);
  return Math.max(seconds, Math.min(opts.maxDuration ?? 20, Math.ceil(waits * wait)));
}

/**
 * Answers a second at 10 connections, from the mean wait of 20 requests after 10 to warm up: how
 * slow a path is, to size its runs. A cold server answers slower, so this errs towards longer runs.
 */
export async function probeRate(target: Target, path: BenchPath, token?: string): Promise<number> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (path.method === 'POST') headers['content-type'] = 'application/json';
  const next = path.next;
  const burst = (amount: number) =>
    autocannon({
      url: target.urls.map((u) => `${u}${next ? '' : path.url}`),
      connections: 10,
      amount,
      timeout: 30,
      method: path.method,
      headers,
      requests: next ? [{ setupRequest: (req) => ({ ...req, ...toRequest(next()) }) }] : undefined,
    });
  await burst(10);
  await settle(target);
  const result = await burst(20);
  await settle(target);
  // Ten requests in flight, each waiting `mean` ms: ten answers per mean wait (connection set-up aside).
  return result['2xx'] ? 10 / Math.max(result.latency.mean / 1000, 0.001) : 0.1;
}

const toRequest = ({ url, body }: { url: string; body: string }) => ({ path: url, body });
