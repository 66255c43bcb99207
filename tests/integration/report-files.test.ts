import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportFileChunks, reportFiles } from '../../src/server/db/schema';
import { buildReportFile } from '../../src/server/domains/reports/report-job';
import { PIECE_BYTES, PieceWriter } from '../../src/server/domains/reports/report-file-store';
import { startTestApp, type TestApp } from '../helpers/app';
import {
  countPieces,
  download,
  expectBulkCourseWorkbook,
  insertBulkCourses,
  readXlsx,
} from '../helpers/report-factories';

// Built files are stored in pieces of PIECE_BYTES (docs/reports.md#how-a-built-file-is-stored).
// 15,000 courses as JSON are several pieces; any report of more than 5 rows goes to the job.
let t: TestApp;
let manager: { id: string; token: string };
const BULK = 15_000;
const JSON_URL = '/api/course-reports/excel?format=json&category=Bulk';

beforeAll(async () => {
  t = await startTestApp({ REPORT_JOB_THRESHOLD: 5 });
  manager = await t.userWithSession('manager');
  await insertBulkCourses(t.deps.db, BULK);
});
afterAll(() => t.close());

async function waitUntilReady(id: string) {
  for (let i = 0; i < 600; i++) {
    const res = await t.api<{ status: string; downloadUrl: string }>('GET', `/api/reports/files/${id}`, {
      token: manager.token,
    });
    if (res.body.status === 'ready') return res.body.downloadUrl;
    if (res.body.status === 'failed') throw new Error(`report ${id} failed`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`report ${id} did not finish`);
}

/** The same report answered in the request, by a server whose threshold is above its rows. */
async function builtInRequest(url: string): Promise<Buffer> {
  const threshold = t.deps.config.REPORT_JOB_THRESHOLD;
  t.deps.config.REPORT_JOB_THRESHOLD = 1_000_000;
  try {
    const res = await download(t.baseUrl, 'GET', url, { token: manager.token });
    expect(res.status).toBe(200);
    return res.bytes;
  } finally {
    t.deps.config.REPORT_JOB_THRESHOLD = threshold;
  }
}

async function piecesOf(fileId: string) {
  return t.deps.db
    .select({ runId: reportFileChunks.runId, seq: reportFileChunks.seq, bytes: sql<number>`length(data)` })
    .from(reportFileChunks)
    .where(eq(reportFileChunks.fileId, fileId))
    .orderBy(asc(reportFileChunks.seq));
}

async function queuedFile(format: 'json' | 'xlsx') {
  const [row] = await t.deps.db
    .insert(reportFiles)
    .values({
      requestedBy: manager.id,
      kind: 'courses',
      format,
      fileName: `course_report_2025-01-01.${format}`,
      contentType: format === 'json' ? 'application/json; charset=utf-8' : 'application/vnd.ms-excel',
      params: { spec: { report: 'courses', filters: { category: 'Bulk' } } },
      expiresAt: new Date(Date.now() + 3600_000),
    })
    .returning();
  return row!;
}

describe('report files stored in pieces', () => {
  it('downloads a file of several pieces byte for byte as the report built in the request', async () => {
    const res = await t.api<{ reportId: string }>('GET', JSON_URL, { token: manager.token });
    expect(res.status).toBe(202);
    const url = await waitUntilReady(res.body.reportId);
    const file = await download(t.baseUrl, 'GET', url, { token: manager.token });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/json; charset=utf-8');
    // JSON is compressed on the way (no length then); the decoded bytes are the file.
    if (!file.headers.get('content-encoding'))
      expect(file.headers.get('content-length')).toBe(String(file.bytes.length));

    const pieces = await piecesOf(res.body.reportId);
    expect(pieces.length).toBe(Math.ceil(file.bytes.length / PIECE_BYTES));
    expect(pieces.length).toBeGreaterThanOrEqual(3);
    expect(pieces.slice(0, -1).every((p) => p.bytes === PIECE_BYTES)).toBe(true);

    const direct = await builtInRequest(JSON_URL);
    expect(file.bytes.equals(direct)).toBe(true);
    expect((JSON.parse(file.bytes.toString('utf8')) as { total: number }).total).toBe(BULK);
  });

  it('streams a built Excel file that opens with every row', async () => {
    const res = await t.api<{ reportId: string }>('GET', '/api/course-reports/excel?category=Bulk', {
      token: manager.token,
    });
    expect(res.status).toBe(202);
    const file = await download(t.baseUrl, 'GET', await waitUntilReady(res.body.reportId), { token: manager.token });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-length')).toBe(String(file.bytes.length));
    const [row] = await t.deps.db.select().from(reportFiles).where(eq(reportFiles.id, res.body.reportId));
    expect(row!.size).toBe(file.bytes.length);
    await expectBulkCourseWorkbook(file.bytes, BULK);
  });

  it('builds an Excel file of several pieces with the same rows as the one built in the request', async () => {
    // Random descriptions do not compress: 6,000 of them make a workbook of several pieces.
    await t.deps.db.execute(sql`
      insert into courses (course_name, duration, total_fee_minor, installments, category, admission_fee_minor, description)
      select 'Wide course ' || lpad(g::text, 5, '0'), '1 month', 1000 + g, 1, 'Wide', 0,
        (select string_agg(md5(random()::text || x || g), '') from generate_series(1, 30) x)
      from generate_series(1, 6000) g`);
    const url = '/api/course-reports/custom?category=Wide';
    const body = { fields: ['courseName', 'description', 'totalFee'] };
    const res = await t.api<{ reportId: string }>('POST', url, { token: manager.token, body });
    expect(res.status).toBe(202);
    const file = await download(t.baseUrl, 'GET', await waitUntilReady(res.body.reportId), { token: manager.token });
    expect(file.status).toBe(200);
    expect(await countPieces(t.deps.db, res.body.reportId)).toBeGreaterThanOrEqual(3);

    const threshold = t.deps.config.REPORT_JOB_THRESHOLD;
    t.deps.config.REPORT_JOB_THRESHOLD = 1_000_000;
    const direct = await download(t.baseUrl, 'POST', url, { token: manager.token, body }).finally(() => {
      t.deps.config.REPORT_JOB_THRESHOLD = threshold;
    });
    expect(direct.status).toBe(200);
    // The workbooks differ only in their generation time; every cell is the same.
    const [stored, built] = [(await readXlsx(file.bytes)).rows, (await readXlsx(direct.bytes)).rows];
    expect(stored).toHaveLength(6002);
    expect(stored).toEqual(built);
  });

  it('keeps one complete file when two runs of the same job build it at once, and leaves a built file alone', async () => {
    const row = await queuedFile('json');
    await Promise.all([
      buildReportFile(t.deps, row.id, async () => {}),
      buildReportFile(t.deps, row.id, async () => {}),
    ]);
    const [built] = await t.deps.db.select().from(reportFiles).where(eq(reportFiles.id, row.id));
    expect(built).toMatchObject({ status: 'ready', progress: 100 });
    const pieces = await piecesOf(row.id);
    // Only the finishing run's pieces are left, numbered 0..n-1 with nothing missing or doubled.
    expect(new Set(pieces.map((p) => p.runId))).toEqual(new Set([built!.runId]));
    expect(pieces.map((p) => p.seq)).toEqual(pieces.map((_, i) => i));
    expect(pieces.reduce((a, p) => a + p.bytes, 0)).toBe(built!.size);

    const file = await download(t.baseUrl, 'GET', `/api/reports/files/${row.id}/download`, { token: manager.token });
    expect(file.status).toBe(200);
    expect(file.bytes.equals(await builtInRequest(JSON_URL))).toBe(true);

    // A further run of the built file changes nothing.
    const steps: number[] = [];
    await buildReportFile(t.deps, row.id, async (pct) => void steps.push(pct));
    expect(steps).toEqual([]);
    const [still] = await t.deps.db.select().from(reportFiles).where(eq(reportFiles.id, row.id));
    expect(still).toMatchObject({ status: 'ready', runId: built!.runId, size: built!.size });
    expect(await piecesOf(row.id)).toEqual(pieces);

    // A run that was still writing when the file was finished removes its own pieces at its end.
    const late = new PieceWriter(t.deps.db, row.id, randomUUID());
    await late.write(Buffer.alloc(PIECE_BYTES + 10, 1));
    expect(await countPieces(t.deps.db, row.id)).toBe(pieces.length + 1);
    expect(await late.finish()).toBe(false);
    expect(await piecesOf(row.id)).toEqual(pieces);
    const [after] = await t.deps.db.select().from(reportFiles).where(eq(reportFiles.id, row.id));
    expect(after).toMatchObject({ runId: built!.runId, size: built!.size });
  });

  it('removes the pieces of a run that fails, and marks the file failed', async () => {
    const row = await queuedFile('json');
    let stored = 0;
    const failing = buildReportFile(t.deps, row.id, async (pct) => {
      // Past 60 % of 15,000 rows of JSON at least one piece has been stored.
      if (pct >= 60) {
        stored = await countPieces(t.deps.db, row.id);
        throw new Error('the worker stopped');
      }
    });
    await expect(failing).rejects.toThrow('the worker stopped');
    expect(stored).toBeGreaterThanOrEqual(1);
    expect(await countPieces(t.deps.db, row.id)).toBe(0);
    const [failed] = await t.deps.db.select().from(reportFiles).where(eq(reportFiles.id, row.id));
    expect(failed).toMatchObject({ status: 'failed', runId: null, size: null });
    const res = await t.api('GET', `/api/reports/files/${row.id}/download`, { token: manager.token });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ message: 'The report could not be built. Please request it again.' });
  });

  it('removes the pieces of expired files with the files', async () => {
    const row = await queuedFile('json');
    await buildReportFile(t.deps, row.id, async () => {});
    expect(await countPieces(t.deps.db, row.id)).toBeGreaterThanOrEqual(3);
    await t.deps.db
      .update(reportFiles)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(reportFiles.id, row.id));
    expect(
      (await download(t.baseUrl, 'GET', `/api/reports/files/${row.id}/download`, { token: manager.token })).status,
    ).toBe(404);

    // Asking for a large report is when expired files are removed.
    const res = await t.api('GET', '/api/course-reports/excel?category=Bulk&maxFee=1000.20', { token: manager.token });
    expect(res.status).toBe(202);
    expect(await t.deps.db.select().from(reportFiles).where(eq(reportFiles.id, row.id))).toEqual([]);
    expect(await countPieces(t.deps.db, row.id)).toBe(0);
  });

  it('moves a file stored whole before migration 0013 into pieces that download as the same bytes', async () => {
    const row = await queuedFile('json');
    const old = randomBytes(2 * PIECE_BYTES + 123);
    // The table as it was before 0013, with one file stored whole in `data`.
    await t.deps.db.execute(sql`alter table report_files add column data bytea`);
    try {
      await t.deps.db.execute(sql`update report_files set data = ${old}, status = 'ready' where id = ${row.id}`);
      // The migration's statements that move the bytes (the rest of 0013 has already run).
      const moves = fs
        .readFileSync(new URL('../../drizzle/0013_report_file_chunks.sql', import.meta.url), 'utf8')
        .split('--> statement-breakpoint')
        .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
        .filter((s) => /^(UPDATE|INSERT)/.test(s));
      expect(moves).toHaveLength(2);
      for (const statement of moves) await t.deps.db.execute(sql.raw(statement));
    } finally {
      await t.deps.db.execute(sql`alter table report_files drop column data`);
    }
    const pieces = await piecesOf(row.id);
    expect(pieces.map((p) => p.bytes)).toEqual([PIECE_BYTES, PIECE_BYTES, 123]);
    const file = await download(t.baseUrl, 'GET', `/api/reports/files/${row.id}/download`, { token: manager.token });
    expect(file.status).toBe(200);
    expect(file.bytes.equals(old)).toBe(true);
  });
});
