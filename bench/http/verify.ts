/**
 * Before any load: the baseline must answer the same JSON as the product (keys in the same
 * order) and run the same SQL, or the ratio compares different work. Mismatches are reported, not
 * hidden; with BENCH_DIFF_DIR their full text is kept for `diff`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { statementsDuring, withoutBackground, type Statement } from './capture';
import type { BenchData } from './data';
import type { BenchPath } from './paths';

export interface Check {
  path: string;
  /** 'same', or where the answers differ. */
  json: string;
  /** 'same', 'not captured' (no readable server log), or the statements only one side ran. */
  sql: string;
}

async function call(base: string, token: string, method: string, url: string, body?: string) {
  const res = await fetch(`${base}${url}`, {
    method,
    body,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
  });
  const text = await res.text();
  let json: unknown = text;
  try {
    json = JSON.parse(text);
  } catch {
    /* compared as text */
  }
  return { status: res.status, json };
}

/**
 * The first place two answers differ, or null. Key order counts too: the same answer is the same
 * text, not just the same values.
 */
export function firstDifference(a: unknown, b: unknown, at = '$'): string | null {
  if (isDeepStrictEqual(a, b)) return keyOrderDifference(a, b, at);
  if (
    typeof a !== 'object' ||
    typeof b !== 'object' ||
    a === null ||
    b === null ||
    Array.isArray(a) !== Array.isArray(b)
  )
    return `${at}: ${JSON.stringify(a)?.slice(0, 120)} vs ${JSON.stringify(b)?.slice(0, 120)}`;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    const d = firstDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${at}.${k}`);
    if (d) return d;
  }
  return `${at}: differs`;
}

/** Where two equal answers name their keys in another order, or null. */
function keyOrderDifference(a: unknown, b: unknown, at: string): string | null {
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return null;
  const keys = Object.keys(a);
  if (!Array.isArray(a) && keys.join() !== Object.keys(b).join())
    return `${at}: keys in the order ${keys.join(', ')} vs ${Object.keys(b).join(', ')}`;
  for (const k of keys) {
    const d = keyOrderDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${at}.${k}`);
    if (d) return d;
  }
  return null;
}

/** Times a write sets itself (paidAt, updatedAt) differ between two writes by nature. */
function maskWriteTimes(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(maskWriteTimes);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => [
        k,
        (k === 'paidAt' || k === 'updatedAt') && typeof x === 'string' ? '<time of the write>' : maskWriteTimes(x),
      ]),
    );
  return v;
}

const SESSION_SQL = /from "sessions"|update "sessions"/;

/** A long statement's start and end: where two pages' statements differ is often their end. */
const shorten = (s: string) => (s.length > 240 ? `${s.slice(0, 110)} … ${s.slice(-110)}` : s);

function compareSql(a: Statement[], b: Statement[], withParams: boolean): string {
  // How a statement is sent counts as much as its text: a named one may keep its plan.
  const key = (s: Statement) => `(${s.protocol}) ${withParams ? `${s.text} [${s.params}]` : s.text}`;
  const count = (xs: Statement[]) => {
    const m = new Map<string, number>();
    for (const s of xs) if (!SESSION_SQL.test(s.text)) m.set(key(s), (m.get(key(s)) ?? 0) + 1);
    return m;
  };
  const ca = count(a);
  const cb = count(b);
  const diffs: string[] = [];
  for (const k of new Set([...ca.keys(), ...cb.keys()])) {
    const na = ca.get(k) ?? 0;
    const nb = cb.get(k) ?? 0;
    if (na !== nb) diffs.push(`${na} vs ${nb}× ${shorten(k)}`);
  }
  return diffs.length ? `product vs baseline: ${diffs.join(' | ')}` : 'same';
}

/**
 * With BENCH_DIFF_DIR=<folder>: a path whose statements differ leaves both sides' full statements
 * there, one per line in the order they ran (sign-in look-ups aside), as `<path>.product.sql` and
 * `<path>.baseline.sql`, and one whose answers differ both answers as `<path>.product.json` and
 * `<path>.baseline.json`, so that `diff` shows what the shortened report cannot.
 */
function mismatchFile(name: string, side: 'product' | 'baseline', ext: 'sql' | 'json', text: string) {
  const dir = process.env.BENCH_DIFF_DIR;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${name.replace(/[^A-Za-z0-9.-]+/g, '-')}.${side}.${ext}`), text);
}

function writeStatements(name: string, a: Statement[], b: Statement[]) {
  const lines = (xs: Statement[]) =>
    xs
      .filter((s) => !SESSION_SQL.test(s.text))
      .map((s) => `(${s.protocol}) ${s.text}${s.params ? ` [${s.params}]` : ''}\n`)
      .join('');
  mismatchFile(name, 'product', 'sql', lines(a));
  mismatchFile(name, 'baseline', 'sql', lines(b));
}

function writeAnswers(name: string, a: unknown, b: unknown) {
  mismatchFile(name, 'product', 'json', `${JSON.stringify(a, null, 2)}\n`);
  mismatchFile(name, 'baseline', 'json', `${JSON.stringify(b, null, 2)}\n`);
}

/**
 * Each path on each server with its answers compared, and once more with statement logging on
 * (SQL compared, sign-in look-ups aside: they depend on each server's cache age), in the order
 * explained below.
 */
export async function verify(
  product: string,
  baseline: string,
  paths: BenchPath[],
  data: BenchData,
  logFile: string | null,
): Promise<Check[]> {
  /** The enrolment of the measured write: the pool's last. */
  const toggled = data.toggles[data.toggles.length - 1]!;
  /** The measured write: the first instalment of `toggled` marked paid or unpaid. */
  const toggle = (base: string, isPaid: boolean) =>
    call(
      base,
      data.token,
      'POST',
      `/api/enrollments/${toggled.id}/pay-installment`,
      JSON.stringify({ installmentIndex: 0, isPaid }),
    );
  /** Whether both servers answered the same (for a write: each direction of the toggle). */
  const answers = async (p: BenchPath): Promise<string> => {
    if (!p.next) {
      const [a, b] = [
        await call(product, data.token, p.method, p.url),
        await call(baseline, data.token, p.method, p.url),
      ];
      const d = a.status !== b.status ? `status ${a.status} vs ${b.status}` : firstDifference(a.json, b.json);
      if (d) writeAnswers(p.name, a.json, b.json);
      return d ? `differs at ${d}` : a.status === 200 ? 'same' : `both answered ${a.status}`;
    }
    // Pay on the product, unpay on the product, pay on the baseline, unpay on the baseline:
    // the same state before each pair, and the pool's state is left as it was.
    const { isPaid } = toggled;
    const a1 = await toggle(product, !isPaid);
    const a2 = await toggle(product, isPaid);
    const b1 = await toggle(baseline, !isPaid);
    const b2 = await toggle(baseline, isPaid);
    const d =
      [a1, a2, b1, b2].find((r) => r.status !== 200) !== undefined
        ? `statuses ${[a1, a2, b1, b2].map((r) => r.status).join(', ')}`
        : (firstDifference(maskWriteTimes(a1.json), maskWriteTimes(b1.json)) ??
          firstDifference(maskWriteTimes(a2.json), maskWriteTimes(b2.json)));
    if (d) writeAnswers(p.name, [a1.json, a2.json], [b1.json, b2.json]);
    return d ? `differs at ${d}` : 'same';
  };
  /** Whether both servers ran the same statements for one request (a write: both directions). */
  const statements = async (p: BenchPath, logFile: string): Promise<string> => {
    const capture = async (base: string, isPaid = false) =>
      withoutBackground(
        await statementsDuring(logFile, () =>
          p.next ? toggle(base, isPaid) : call(base, data.token, p.method, p.url),
        ),
      );
    let a: Statement[];
    let b: Statement[];
    if (!p.next) {
      a = await capture(product);
      b = await capture(baseline);
    } else {
      // Both directions on each server from the same state, as for the answers above.
      const { isPaid } = toggled;
      a = [...(await capture(product, !isPaid)), ...(await capture(product, isPaid))];
      b = [...(await capture(baseline, !isPaid)), ...(await capture(baseline, isPaid))];
    }
    if (a.length === 0) return 'nothing captured';
    const result = compareSql(a, b, !p.next);
    if (result !== 'same') writeStatements(p.name, a, b);
    return result;
  };
  // The order matters twice. A write's answers are compared before its statements are captured:
  // the first payment of a receipt series also creates the series' prefix, once, which the capture
  // would otherwise count as work the baseline does not do. A read's statements are captured before
  // its answers are compared: a reused read (the statistics) runs its SQL on its first call only.
  const json = new Map<string, string>();
  const sql = new Map<string, string>();
  for (const p of paths) if (p.next) json.set(p.name, await answers(p));
  if (logFile) for (const p of paths) sql.set(p.name, await statements(p, logFile));
  for (const p of paths) if (!p.next) json.set(p.name, await answers(p));
  return paths.map((p) => ({ path: p.name, json: json.get(p.name)!, sql: sql.get(p.name) ?? 'not captured' }));
}

/**
 * What the sign-in check costs the product in database round trips, read from the statement
 * log: a request after the session memory expired (twice: the first may also slide the session's
 * idle window, which happens at most once a minute), and the same request again at once.
 */
export async function signInCost(product: string, token: string, url: string, logFile: string, cacheMs = 5000) {
  const sessionStatements = async () =>
    withoutBackground(await statementsDuring(logFile, () => call(product, token, 'GET', url))).filter((s) =>
      SESSION_SQL.test(s.text),
    );
  const describe = (xs: Statement[]) =>
    xs.length ? xs.map((s) => (s.text.startsWith('update') ? 'update' : 'select')).join(' + ') : 'none';
  const expire = () => new Promise((r) => setTimeout(r, cacheMs + 500));
  await expire();
  const first = await sessionStatements();
  const warm = await sessionStatements();
  await expire();
  const second = await sessionStatements();
  return (
    `after the ${cacheMs / 1000}-second session memory expired ${describe(first)}, then ${describe(second)}; ` +
    `the same request again at once ${describe(warm)}`
  );
}
