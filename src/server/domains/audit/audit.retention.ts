import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { once } from 'node:events';
import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { auditArchiveRuns, auditLog } from '../../db/schema';
import type { AppDeps } from '../../deps';
import { auditCursorTs, auditEntryDetails } from './audit.queries';
import { recordAudit } from './audit.service';

/**
 * Retention (docs/audit.md#retention). With AUDIT_RETENTION_MONTHS set, the daily job writes every
 * entry older than that many months (counted from the start of today in TIME_ZONE) to a JSON-lines
 * file in the archive directory, then removes exactly those entries through `audit_log_purge`, the
 * one function the append-only trigger lets delete. The run is never silent: a log line, a row in
 * `audit_archive_runs` (written by the function), and an `archive` entry in the log itself.
 */

const BATCH = 5000;

export function archiveDirOf(config: Pick<Config, 'AUDIT_ARCHIVE_DIR' | 'DATA_DIR'>): string {
  return path.resolve(config.AUDIT_ARCHIVE_DIR ?? path.join(config.DATA_DIR, 'audit-archive'));
}

export interface ArchiveRun {
  cutoff: Date;
  entries: number;
  /** The file's name in the archive directory; null when there was nothing to archive. */
  file: string | null;
}

/** The start of today in the time zone, `months` months back, as an instant and as that day. */
async function cutoffOf(db: Db, months: number, timeZone: string): Promise<{ at: Date; day: string }> {
  const result: unknown = await db.execute(sql`
    select to_char(d, 'YYYY-MM-DD') as day, (extract(epoch from (d at time zone ${timeZone})) * 1000)::float8 as ms
    from (select date_trunc('day', now() at time zone ${timeZone}) - make_interval(months => ${months}::int) as d) x`);
  // postgres.js answers the rows, PGlite an object holding them.
  const rows = Array.isArray(result) ? result : (result as { rows: unknown[] }).rows;
  const row = rows[0] as { day: string; ms: number | string };
  return { at: new Date(Number(row.ms)), day: row.day };
}

/** One line per entry, every column, the time to the microsecond (UTC). */
const archiveColumns = {
  id: auditLog.id,
  createdAt: sql<string>`to_char(${auditLog.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
  cursorTs: auditCursorTs,
  ...auditEntryDetails,
};

/** Writes the entries older than the cutoff, oldest first, by keyset; answers how many. */
async function writeArchive(db: Db, cutoffText: string, file: string): Promise<number> {
  const out = createWriteStream(file, { flags: 'wx' });
  let written = 0;
  let after: { ts: string; id: string } | null = null;
  try {
    for (;;) {
      const rows = await db
        .select(archiveColumns)
        .from(auditLog)
        .where(
          and(
            sql`${auditLog.createdAt} < ${cutoffText}::timestamptz`,
            after
              ? sql`(${auditLog.createdAt}, ${auditLog.id}) > (${after.ts}::timestamptz, ${after.id}::uuid)`
              : undefined,
          ),
        )
        .orderBy(asc(auditLog.createdAt), asc(auditLog.id))
        .limit(BATCH);
      for (const { cursorTs: _ts, ...r } of rows) {
        if (!out.write(`${JSON.stringify(r)}\n`)) await once(out, 'drain');
      }
      written += rows.length;
      const last = rows.at(-1);
      if (!last || rows.length < BATCH) break;
      after = { ts: last.cursorTs, id: last.id };
    }
  } finally {
    out.end();
    await once(out, 'close');
  }
  return written;
}

const PARTIAL = '.partial';

/** Whether a purge recorded this archive file (its transaction committed). */
async function purgeRecorded(db: Db, name: string): Promise<boolean> {
  const [run] = await db
    .select({ id: auditArchiveRuns.id })
    .from(auditArchiveRuns)
    .where(eq(auditArchiveRuns.archiveFile, name))
    .limit(1);
  return Boolean(run);
}

/**
 * A file is written as `<name>.partial` and gets its final name only once the purge that removed
 * its entries has committed, so a `.jsonl` in the directory always holds entries that left the
 * log. Whether that commit happened is read from `audit_archive_runs`, never assumed: a purge
 * whose COMMIT succeeded while the connection failed is recorded there, and its file is then the
 * only copy of those entries, so it is kept. A file whose purge is not recorded duplicates entries
 * still in the log, so it is removed. Answers whether the file was kept.
 */
async function settleArchiveFile(db: Db, dir: string, name: string): Promise<boolean> {
  const partial = path.join(dir, `${name}${PARTIAL}`);
  if (await purgeRecorded(db, name)) {
    await rename(partial, path.join(dir, name));
    return true;
  }
  await rm(partial, { force: true });
  return false;
}

/** A `.partial` untouched this long belongs to a run that died, not to one still writing it. */
const LEFTOVER_MS = 6 * 60 * 60 * 1000;

/** Settles the `.partial` files a crashed run left behind (see settleArchiveFile). */
async function settleLeftovers(deps: Pick<AppDeps, 'db' | 'log'>, dir: string): Promise<void> {
  for (const f of await readdir(dir)) {
    if (!f.endsWith(PARTIAL)) continue;
    const { mtimeMs } = await stat(path.join(dir, f));
    if (Date.now() - mtimeMs < LEFTOVER_MS) continue;
    const name = f.slice(0, -PARTIAL.length);
    const kept = await settleArchiveFile(deps.db, dir, name);
    deps.log.warn({ file: name, kept }, 'audit archive: settled a file an interrupted run left behind');
  }
}

/**
 * The daily archive run: nothing without AUDIT_RETENTION_MONTHS. Safe to run twice (the second
 * finds nothing older than the cutoff) and concurrently (the purge deletes only when the count it
 * finds is the count written, else the run fails, its file is removed, and the job retries).
 */
export async function archiveAuditLog(deps: Pick<AppDeps, 'db' | 'config' | 'log'>): Promise<ArchiveRun | null> {
  const months = deps.config.AUDIT_RETENTION_MONTHS;
  if (!months) return null;
  const dir = archiveDirOf(deps.config);
  await mkdir(dir, { recursive: true });
  await settleLeftovers(deps, dir);
  const { at: cutoff, day } = await cutoffOf(deps.db, months, deps.config.TIME_ZONE);
  const cutoffText = cutoff.toISOString();
  const [older] = await deps.db
    .select({ n: count() })
    .from(auditLog)
    .where(sql`${auditLog.createdAt} < ${cutoffText}::timestamptz`);
  if (!older?.n) {
    deps.log.info({ cutoff: cutoffText, months }, 'audit archive: no entries older than the retention period');
    return { cutoff, entries: 0, file: null };
  }
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const name = `audit-log_before_${day}_${stamp}.jsonl`;
  const partial = path.join(dir, `${name}${PARTIAL}`);
  let entries = 0;
  try {
    entries = await writeArchive(deps.db, cutoffText, partial);
    await deps.db.transaction(async (tx) => {
      await tx.execute(sql`select audit_log_purge(${cutoffText}::timestamptz, ${entries}::bigint, ${name})`);
      await recordAudit(
        tx,
        {},
        {
          action: 'archive',
          entityType: 'audit_log',
          entityId: name,
          summary: `Archived ${entries} audit ${entries === 1 ? 'entry' : 'entries'} from before ${day} to ${name}`,
          changes: [
            { field: 'entries', before: entries, after: null },
            { field: 'before', before: null, after: cutoffText },
            { field: 'file', before: null, after: name },
          ],
        },
      );
    });
  } catch (err) {
    // Kept only if the purge committed after all; otherwise the entries are still in the log.
    const kept = await settleArchiveFile(deps.db, dir, name).catch(() => null);
    deps.log.error({ err, cutoff: cutoffText, file: name, kept }, 'audit archive failed');
    if (kept) return { cutoff, entries, file: name };
    throw err;
  }
  await rename(partial, path.join(dir, name));
  deps.log.info(
    { cutoff: cutoffText, entries, file: path.join(dir, name) },
    'audit archive: entries archived and removed from the log',
  );
  return { cutoff, entries, file: name };
}
