/**
 * The statements a request makes PostgreSQL run, read from the server's own log
 * (`log_statement = all` for the capture only). The baseline's SQL is checked against the
 * product's this way rather than trusted.
 */
import fs from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';

export interface Statement {
  /** The backend that ran it: one connection of a pool. */
  pid: number;
  /** The statement text with whitespace collapsed. */
  text: string;
  /**
   * How it was sent: by the simple protocol, as an unnamed statement (planned on every call), or
   * as a named (prepared) one, whose plan PostgreSQL may keep.
   */
  protocol: 'simple' | 'unnamed' | 'named';
  /** `$1 = '...'` as logged, when it had parameters. */
  params: string;
}

const PREFIX = '@@%p@@ ';
const ENTRY = /^@@(\d+)@@ /m;

/** Turns statement logging on for the whole cluster; `off()` turns it back. Null when the log is not readable. */
export async function statementLog(adminUrl: string) {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    const [row] = await admin<{ dir: string }[]>`select current_setting('data_directory') as dir`;
    const logFile = path.join(path.dirname(row!.dir), 'pg.log');
    if (!fs.existsSync(logFile)) return null;
    await admin.unsafe(`alter system set log_statement = 'all'`);
    await admin.unsafe(`alter system set log_line_prefix = '${PREFIX}'`);
    await admin.unsafe(`select pg_reload_conf()`);
    // Reloading is asynchronous: give every backend time to read the new settings.
    await new Promise((r) => setTimeout(r, 500));
    return {
      logFile,
      async off() {
        const a = postgres(adminUrl, { max: 1, onnotice: () => {} });
        try {
          await a.unsafe(`alter system reset log_statement`);
          await a.unsafe(`alter system reset log_line_prefix`);
          await a.unsafe(`select pg_reload_conf()`);
        } finally {
          await a.end();
        }
      },
    };
  } finally {
    await admin.end();
  }
}

export function parseStatements(logText: string): Statement[] {
  // split() with a capture group alternates: text before the first entry, pid, entry, pid, entry...
  const parts = logText.split(ENTRY);
  const out: Statement[] = [];
  for (let k = 1; k + 1 < parts.length; k += 2) {
    const pid = Number(parts[k]);
    const e = parts[k + 1]!;
    const m = /^LOG:\s+(?:execute ([^:]+)|statement): ([\s\S]*)$/.exec(e.trimEnd());
    if (m) {
      const protocol = m[1] === undefined ? 'simple' : m[1] === '<unnamed>' ? 'unnamed' : 'named';
      out.push({ pid, text: m[2]!.replace(/\s+/g, ' ').trim(), protocol, params: '' });
      continue;
    }
    const d = /^DETAIL:\s+parameters: ([\s\S]*)$/.exec(e.trimEnd());
    if (d && out.length) out[out.length - 1]!.params = d[1]!.replace(/\s+/g, ' ').trim();
  }
  return out;
}

/** The statements logged while `fn` ran (nothing else may use the cluster meanwhile). */
export async function statementsDuring(logFile: string, fn: () => Promise<unknown>): Promise<Statement[]> {
  const before = fs.statSync(logFile).size;
  await fn();
  // The log is written by the backend after it runs the statement; let it land.
  await new Promise((r) => setTimeout(r, 150));
  const fd = fs.openSync(logFile, 'r');
  try {
    const size = fs.statSync(logFile).size;
    const buf = Buffer.alloc(size - before);
    fs.readSync(fd, buf, 0, buf.length, before);
    return parseStatements(buf.toString('utf8'));
  } finally {
    fs.closeSync(fd);
  }
}

/** Statements no request caused: the job outbox poller, and the type look-up of a new connection. */
const BACKGROUND = [/"job_outbox"/, /pg_catalog\.pg_type/];

const isBackground = (s: Statement) => BACKGROUND.some((re) => re.test(s.text));
const isBegin = (s: Statement) => /^begin$/i.test(s.text);

/**
 * Drops background work from a capture: the matching statements, and the begin/commit around
 * them when nothing else ran in that transaction on that connection. A transaction may already
 * be open when the capture starts (the job relay's, which runs every second): its `commit` then
 * comes without a `begin`, and the statements of that connection before it are that
 * transaction's; when they are all background work, the lone `commit` is too.
 */
export function withoutBackground(statements: Statement[]): Statement[] {
  const drop = new Set<Statement>();
  // Per connection: the statements since its `begin`, or since the capture began.
  const open = new Map<number, Statement[]>();
  const seen = new Set<number>();
  for (const s of statements) {
    if (!seen.has(s.pid)) {
      seen.add(s.pid);
      open.set(s.pid, []);
    }
    if (isBackground(s)) drop.add(s);
    if (isBegin(s)) {
      open.set(s.pid, [s]);
      continue;
    }
    const block = open.get(s.pid);
    if (/^(commit|rollback)$/i.test(s.text)) {
      open.delete(s.pid);
      if (block && block.every((x) => isBegin(x) || drop.has(x))) for (const x of [...block, s]) drop.add(x);
      continue;
    }
    block?.push(s);
  }
  for (const block of open.values())
    if (block.length && isBegin(block[0]!) && block.every((x) => isBegin(x) || drop.has(x)))
      for (const x of block) drop.add(x);
  return statements.filter((s) => !drop.has(s));
}
