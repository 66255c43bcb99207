/**
 * The benchmark's tables as Markdown (printed, and written with the run's figures into
 * bench/results/), and the targets (docs/performance.md#targets) read from them.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Measured } from './load';
import type { BenchPath } from './paths';
import type { ReportResult } from './reports';
import type { Check } from './verify';

export interface PgRow {
  path: BenchPath;
  connections: number;
  product: Measured;
  baseline: Measured;
  /** False when the check before the load found different answers or SQL: the ratio compares different work. */
  sameWork: boolean;
}
export interface EmbeddedRow {
  path: BenchPath;
  product: Measured;
  health: Measured;
}
export interface ScalingRow {
  path: BenchPath;
  connections: number;
  one: Measured;
  two: Measured;
}

const n0 = (x: number) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : '–');
const ms = (x: number) => (Number.isFinite(x) ? `${x < 10 ? x.toFixed(1) : Math.round(x)}` : '–');
const ratio = (a: number, b: number) => (b > 0 && Number.isFinite(a) ? (a / b).toFixed(2) : '–');
/** A side whose runs had non-2xx answers, errors or timeouts is marked: its figures mean less. */
const flag = (m: Measured) => (m.failures ? ` ⚠${m.failures}` : '');

/** A Markdown table; the first `textColumns` are left-aligned, the rest (numbers) right-aligned. */
export function table(head: string[], rows: string[][], textColumns = 2): string {
  return [
    `| ${head.join(' | ')} |`,
    `|${head.map((_, i) => (i < textColumns ? '---' : '---:')).join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}

export function pgTable(rows: PgRow[]): string {
  return table(
    [
      'path',
      'API',
      'conns',
      's/run',
      'product req/s',
      'baseline req/s',
      'ratio',
      'product p50 / p99 / open p99 ms',
      'baseline p50 / p99 / open p99 ms',
      'slowest first answer ms, product · baseline',
    ],
    rows.map((r) => [
      r.path.name,
      r.path.api,
      String(r.connections),
      String(r.product.seconds),
      `${n0(r.product.rps)}${flag(r.product)}`,
      `${n0(r.baseline.rps)}${flag(r.baseline)}`,
      `${ratio(r.product.rps, r.baseline.rps)}${r.sameWork ? '' : ' ≠'}`,
      `${ms(r.product.p50)} / ${ms(r.product.p99)} / ${ms(r.product.p99Open)}`,
      `${ms(r.baseline.p50)} / ${ms(r.baseline.p99)} / ${ms(r.baseline.p99Open)}`,
      `${ms(r.product.firstMax)} · ${ms(r.baseline.firstMax)}`,
    ]),
  );
}

export function embeddedTable(rows: EmbeddedRow[]): string {
  return table(
    ['path', 'API', 's/run', 'product req/s', 'anonymous /api/health req/s', 'ratio', 'product p50 / p99 ms'],
    rows.map((r) => [
      r.path.name,
      r.path.api,
      String(r.product.seconds),
      `${n0(r.product.rps)}${flag(r.product)}`,
      `${n0(r.health.rps)}${flag(r.health)}`,
      ratio(r.product.rps, r.health.rps),
      `${ms(r.product.p50)} / ${ms(r.product.p99)}`,
    ]),
  );
}

export function scalingTable(rows: ScalingRow[]): string {
  return table(
    [
      'path',
      'API',
      'conns',
      's/run',
      '1 server req/s',
      '2 servers req/s',
      'ratio',
      '1 server p99 ms',
      '2 servers p99 ms',
    ],
    rows.map((r) => [
      r.path.name,
      r.path.api,
      String(r.connections),
      String(r.one.seconds),
      `${n0(r.one.rps)}${flag(r.one)}`,
      `${n0(r.two.rps)}${flag(r.two)}`,
      ratio(r.two.rps, r.one.rps),
      ms(r.one.p99),
      ms(r.two.p99),
    ]),
  );
}

export function reportTable(rows: ReportResult[]): string {
  const bareOf = (r: ReportResult) => rows.find((x) => x.report === r.report && x.how.startsWith('bare'));
  return table(
    ['report', 'how', 'seconds', 'time / bare', 'peak RSS growth MB', 'file MB'],
    rows.map((r) => [
      r.report,
      r.how,
      r.seconds.toFixed(1),
      r.how.startsWith('bare') ? '1.00' : ratio(r.seconds, bareOf(r)?.seconds ?? NaN),
      r.memory,
      (r.bytes / 1024 / 1024).toFixed(1),
    ]),
  );
}

export function checksTable(checks: Check[]): string {
  return table(
    ['path', 'same JSON', 'same SQL'],
    checks.map((c) => [c.path, c.json, c.sql]),
    3,
  );
}

/** The targets (docs/performance.md#targets), each with the figures that decide it. */
export function targets(pg: PgRow[], embedded: EmbeddedRow[], reports: ReportResult[]): string[] {
  const out: string[] = [];
  const mark = (ok: boolean) => (ok ? 'met' : 'NOT met');
  if (pg.length) {
    const unlike = [...new Set(pg.filter((r) => !r.sameWork).map((r) => r.path.name))];
    if (unlike.length)
      out.push(`not judged, the baseline did not do the same work (≠, see the check table): ${unlike.join(', ')}`);
    for (const api of ['REST', 'tRPC'] as const) {
      const need = api === 'REST' ? 0.7 : 0.5;
      const rows = pg.filter((r) => r.path.api === api && r.sameWork);
      if (!rows.length) continue;
      const low = rows.filter((r) => !(r.product.rps / r.baseline.rps >= need));
      out.push(
        `${api} paths ≥ ${need} of the baseline's req/s: ${mark(!low.length)}` +
          (low.length
            ? ` (below: ${low.map((r) => `${r.path.name} @${r.connections} ${ratio(r.product.rps, r.baseline.rps)}`).join(', ')})`
            : ''),
      );
    }
    const at50 = pg.filter((r) => r.connections === 50 && (r.path.kind === 'page' || r.path.kind === 'detail'));
    if (at50.length) {
      // Both readings are given: every answer, and the answers on open connections, without each
      // connection's first (docs/performance.md#new-connections-under-load).
      for (const [which, p99] of [
        ['every answer', (m: Measured) => m.p99],
        ["open connections (each connection's first answer left out)", (m: Measured) => m.p99Open],
      ] as const) {
        const slow = at50.filter((r) => !(p99(r.product) < 100));
        out.push(
          `p99 < 100 ms at 50 connections, list page 1 and detail, ${which}: ${mark(!slow.length)}` +
            (slow.length ? ` (over: ${slow.map((r) => `${r.path.name} ${ms(p99(r.product))} ms`).join(', ')})` : ''),
        );
      }
    }
    const stats = pg.filter((r) => r.path.kind === 'statistics');
    if (stats.length)
      out.push(
        `statistics p50 < 50 ms: ${mark(stats.every((r) => r.product.p50 < 50))} (${stats.map((r) => `@${r.connections} ${ms(r.product.p50)} ms`).join(', ')})`,
      );
  }
  const lists = embedded.filter((r) => r.path.kind === 'page');
  if (lists.length) {
    const low = lists.filter((r) => !(r.product.rps / r.health.rps >= 0.25));
    out.push(
      `embedded authenticated list pages ≥ 25 % of anonymous /api/health: ${mark(!low.length)} (${lists.map((r) => `${r.path.name} ${ratio(r.product.rps, r.health.rps)}`).join(', ')})`,
    );
  }
  const excel = reports.filter((r) => r.report.startsWith('Excel') && r.how.startsWith('REST'));
  for (const how of new Set(excel.map((r) => r.how))) {
    const rows = excel.filter((r) => r.how === how);
    const first = rows.find((r) => r.report.includes('100,000'));
    const big = rows.find((r) => r.report.includes('500,000'));
    const bareOf = (r: ReportResult) => reports.find((x) => x.report === r.report && x.how.startsWith('bare'))!;
    if (first)
      out.push(
        `Excel 100k rows < 5 s and < 256 MB RSS growth (${how}): ${mark(first.seconds < 5 && first.growthMb < 256)} (${first.seconds.toFixed(1)} s, ${first.growthMb} MB)`,
      );
    if (first && big)
      out.push(
        `Excel 500k memory within +25 % of 100k (${how}): ${mark(big.growthMb <= first.growthMb * 1.25)} (${big.growthMb} vs ${first.growthMb} MB)`,
      );
    for (const r of rows)
      out.push(
        `${r.report} within 1.4× of bare exceljs (${how}): ${mark(r.seconds <= bareOf(r).seconds * 1.4)} (${ratio(r.seconds, bareOf(r).seconds)}×)`,
      );
  }
  for (const r of reports.filter((x) => x.report.startsWith('PDF') && x.how.startsWith('REST'))) {
    const b = reports.find((x) => x.report === r.report && x.how.startsWith('bare'))!;
    out.push(
      `${r.report} within 1.5× of bare jspdf (${r.how}): ${mark(r.seconds <= b.seconds * 1.5)} (${r.seconds.toFixed(1)} s vs ${b.seconds.toFixed(1)} s, ${ratio(r.seconds, b.seconds)}×)`,
    );
  }
  return out;
}

/** The commit measured (with `+` when the working tree differs from it). */
export function commitOf(root: string): string {
  try {
    const hash = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src', 'worker', 'bench'], {
      cwd: root,
      encoding: 'utf8',
    }).trim();
    return dirty ? `${hash}+` : hash;
  } catch {
    return 'unknown';
  }
}

/** The 1-minute load average: the machine's cores are shared, so every section says how busy it was. */
export const load = () => os.loadavg()[0]!.toFixed(1);

export function machine(pgVersion: string): string {
  const cpus = os.cpus();
  let distro = os.type();
  try {
    distro = /PRETTY_NAME="([^"]+)"/.exec(fs.readFileSync('/etc/os-release', 'utf8'))?.[1] ?? distro;
  } catch {
    /* not Linux */
  }
  return [
    `${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 1024 ** 3)} GB RAM, ${distro}`,
    `Node ${process.version}, PostgreSQL ${pgVersion}, Redis ${redisVersion()}`,
  ].join('; ');
}

function redisVersion() {
  try {
    return /v=(\S+)/.exec(execFileSync('redis-server', ['--version'], { encoding: 'utf8' }))?.[1] ?? '?';
  } catch {
    return '?';
  }
}

/**
 * One run's output, kept apart from the docs (bench/results/README.md): its tables as Markdown and
 * its figures as JSON, named after the run's start and the commit measured, so that no run
 * overwrites another. Returns the Markdown file's path.
 */
export function writeResults(
  root: string,
  run: { started: Date; commit: string; machine: string; settings: Record<string, unknown> },
  sections: Array<{ id: string; title: string; body: string; figures: Record<string, unknown> }>,
): string {
  const dir = path.join(root, 'bench/results');
  fs.mkdirSync(dir, { recursive: true });
  const stamp = run.started.toISOString().slice(0, 16).replace(':', '');
  const base = path.join(dir, `http-${stamp}-${run.commit}`);
  const markdown = [
    `# HTTP benchmark, ${run.started.toISOString().slice(0, 16).replace('T', ' ')} UTC, commit ${run.commit}`,
    ...sections.map((s) => `## ${s.title}\n\n${s.body.trim()}`),
  ].join('\n\n');
  fs.writeFileSync(`${base}.md`, `${markdown}\n`);
  const figures = sections.map(({ id, title, figures }) => ({ id, title, ...figures }));
  const json = { ...run, started: run.started.toISOString(), sections: figures };
  fs.writeFileSync(`${base}.json`, `${JSON.stringify(json, null, 2)}\n`);
  return `${base}.md`;
}
