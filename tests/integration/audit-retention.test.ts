import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditArchiveRuns, auditLog, jobs } from '../../src/server/db/schema';
import { archiveAuditLog } from '../../src/server/domains/audit/audit.retention';
import { handlers } from '../../src/server/jobs/handlers';
import { startTestApp, type TestApp } from '../helpers/app';
import { waitFor } from './reminders.fixtures';

/**
 * docs/audit.md#retention: with AUDIT_RETENTION_MONTHS set, the job archives entries older than
 * that to a JSON-lines file and removes them through audit_log_purge, never silently; nothing
 * else may delete or rewrite an entry.
 */

const lines: string[] = [];
const sink = new Writable({
  write(chunk: Buffer, _enc, done) {
    lines.push(chunk.toString());
    done();
  },
});

let t: TestApp;
let dir = '';
const DAY = 86_400_000;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'audit-archive-'));
  t = await startTestApp({ AUDIT_RETENTION_MONTHS: 6, AUDIT_ARCHIVE_DIR: dir }, { logTo: sink });
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

async function entry(daysAgo: number, summary: string) {
  const [row] = await t.deps.db
    .insert(auditLog)
    .values({
      createdAt: new Date(Date.now() - daysAgo * DAY),
      action: 'update',
      entityType: 'course',
      entityId: 'c1',
      summary,
      changes: [{ field: 'totalFee', before: 1, after: 2 }],
    })
    .returning();
  return row!;
}

const code = async (q: Promise<unknown>) => {
  try {
    await q;
    return 'ok';
  } catch (err) {
    const e = err as { code?: string; cause?: { code?: string } };
    return e.cause?.code ?? e.code ?? 'error';
  }
};

describe('audit retention', () => {
  it('refuses every other way to remove or rewrite entries', async () => {
    const old = await entry(400, 'A year-old change');
    expect(await code(t.deps.db.delete(auditLog).where(eq(auditLog.id, old.id)))).toBe('42501');
    expect(await code(t.deps.db.update(auditLog).set({ summary: 'Rewritten' }).where(eq(auditLog.id, old.id)))).toBe(
      '42501',
    );
    // The function refuses a cutoff less than a month back, and a count other than what is older.
    expect(await code(t.deps.db.execute(sql`select audit_log_purge(now() - interval '1 day', 0, 'x.jsonl')`))).toBe(
      '22023',
    );
    expect(await code(t.deps.db.execute(sql`select audit_log_purge(now() - interval '200 days', 0, 'x.jsonl')`))).toBe(
      '40001',
    );
    // A run recorded by hand in another transaction opens nothing for this one.
    await t.deps.db.insert(auditArchiveRuns).values({
      cutoff: new Date(),
      entryCount: 1,
      archiveFile: 'forged.jsonl',
      txId: 1,
    });
    expect(await code(t.deps.db.delete(auditLog).where(eq(auditLog.id, old.id)))).toBe('42501');
    await t.deps.db.execute(sql`delete from audit_archive_runs`);
    expect(await t.deps.db.select().from(auditLog).where(eq(auditLog.id, old.id))).toHaveLength(1);
  });

  it('archives entries older than the retention to a JSON-lines file through the job, then removes them', async () => {
    const old = [await entry(300, 'Old change one'), await entry(250, 'Old change two')];
    const recent = await entry(120, 'Recent change');
    const olderIds = (
      await t.deps.db
        .select({ id: auditLog.id })
        .from(auditLog)
        .where(sql`${auditLog.createdAt} < now() - interval '6 months' + interval '1 day'`)
    ).map((r) => r.id);
    expect(olderIds.length).toBeGreaterThanOrEqual(3);

    // The daily run queues the archive once a day; the in-process runner (the worker's role here) runs it.
    await handlers['send-overdue-reminders'](t.deps, {}, { id: 'x', attempt: 1, updateProgress: async () => {} });
    const job = await waitFor(async () => {
      const [j] = await t.deps.db.select().from(jobs).where(eq(jobs.name, 'archive-audit-log'));
      return j && (j.status === 'completed' || j.status === 'failed') ? j : undefined;
    }, 'the archive job');
    expect(job.status).toBe('completed');

    const files = (await readdir(dir)).filter((f) => f.endsWith('.jsonl'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^audit-log_before_\d{4}-\d{2}-\d{2}_.+\.jsonl$/);
    const archived = (await readFile(path.join(dir, files[0]!), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(archived.map((a) => a.id).sort()).toEqual([...olderIds].sort());
    const one = archived.find((a) => a.id === old[0]!.id)!;
    expect(one).toMatchObject({
      summary: 'Old change one',
      action: 'update',
      entityType: 'course',
      changes: [{ field: 'totalFee', before: 1, after: 2 }],
    });
    expect(one.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    // Every column, in the table's order: an archive line reads the same from run to run.
    expect(Object.keys(one)).toEqual([
      'id',
      'createdAt',
      'actorId',
      'actorUsername',
      'actorRole',
      'action',
      'entityType',
      'entityId',
      'parentType',
      'parentId',
      'summary',
      'changes',
      'ip',
      'userAgent',
      'requestId',
    ]);

    // Gone from the log; the recent one stays.
    expect(await t.deps.db.select().from(auditLog).where(inArray(auditLog.id, olderIds))).toEqual([]);
    expect(await t.deps.db.select().from(auditLog).where(eq(auditLog.id, recent.id))).toHaveLength(1);

    // Never silently: the run's record, an entry in the log itself, and a log line.
    const [run] = await t.deps.db.select().from(auditArchiveRuns);
    expect(run).toMatchObject({ entryCount: olderIds.length, archiveFile: files[0] });
    const [noted] = await t.deps.db.select().from(auditLog).where(eq(auditLog.action, 'archive'));
    expect(noted).toMatchObject({ entityType: 'audit_log', entityId: files[0], actorId: null });
    expect(noted!.summary).toMatch(
      new RegExp(`^Archived ${olderIds.length} audit entries from before \\d{4}-\\d{2}-\\d{2} to `),
    );
    expect(lines.some((l) => l.includes('audit archive: entries archived') && l.includes(files[0]!))).toBe(true);

    // A second run finds nothing older and writes nothing.
    const again = await archiveAuditLog(t.deps);
    expect(again).toMatchObject({ entries: 0, file: null });
    expect((await readdir(dir)).filter((f) => f.endsWith('.jsonl'))).toHaveLength(1);
  });

  it('keeps everything when AUDIT_RETENTION_MONTHS is unset', async () => {
    const old = await entry(900, 'Very old change');
    const none = await archiveAuditLog({ ...t.deps, config: { ...t.deps.config, AUDIT_RETENTION_MONTHS: undefined } });
    expect(none).toBeNull();
    expect(await t.deps.db.select().from(auditLog).where(eq(auditLog.id, old.id))).toHaveLength(1);
  });
});

describe('an archive run interrupted after writing its file', () => {
  it('keeps the file when its purge committed, removes it when not, and leaves a file still being written', async () => {
    const committed = 'audit-log_before_2026-01-01_committed.jsonl';
    const abandoned = 'audit-log_before_2026-01-01_abandoned.jsonl';
    const writing = 'audit-log_before_2026-01-01_writing.jsonl';
    const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000);
    for (const [name, at] of [
      [committed, hoursAgo(7)],
      [abandoned, hoursAgo(7)],
      [writing, new Date()],
    ] as const) {
      await writeFile(path.join(dir, `${name}.partial`), '{"id":"x"}\n');
      await utimes(path.join(dir, `${name}.partial`), at, at);
    }
    // The purge of `committed` is on record: its entries left the log, so the file is their only copy.
    await t.deps.db
      .insert(auditArchiveRuns)
      .values({ cutoff: new Date(), entryCount: 1, archiveFile: committed, txId: 1 });

    await archiveAuditLog(t.deps);

    const files = await readdir(dir);
    expect(files).toContain(committed);
    expect(files).not.toContain(`${committed}.partial`);
    expect(files.filter((f) => f.startsWith(abandoned))).toEqual([]);
    expect(files).toContain(`${writing}.partial`);
    expect(await readFile(path.join(dir, committed), 'utf8')).toBe('{"id":"x"}\n');
  });
});
