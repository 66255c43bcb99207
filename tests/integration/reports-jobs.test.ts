import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportFiles } from '../../src/server/db/schema';
import { buildReportFile } from '../../src/server/domains/reports/report-job';
import { startTestApp, type TestApp } from '../helpers/app';
import { download, expectBulkCourseWorkbook, insertBulkCourses, readPdfText } from '../helpers/report-factories';

// A low threshold: any report of more than 5 rows is built by the `build-report` job.
let t: TestApp;
let manager: { id: string; token: string };
let otherManager: { token: string };
let admin: { token: string };
const BULK = 2500;

beforeAll(async () => {
  t = await startTestApp({ REPORT_JOB_THRESHOLD: 5 });
  manager = await t.userWithSession('manager');
  otherManager = await t.userWithSession('manager');
  admin = await t.userWithSession('admin');
  await insertBulkCourses(t.deps.db, BULK);
});
afterAll(() => t.close());

async function waitUntilDone(id: string, token: string) {
  const seen: Array<{ status: string; progress: number }> = [];
  for (let i = 0; i < 150; i++) {
    const res = await t.api('GET', `/api/reports/files/${id}`, { token });
    expect(res.status).toBe(200);
    seen.push({ status: res.body.status, progress: res.body.progress });
    if (res.body.status === 'ready' || res.body.status === 'failed') return { last: res.body, seen };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`report ${id} did not finish: ${JSON.stringify(seen.slice(-3))}`);
}

describe('large reports', () => {
  it('are built by the job: 202 with an id, progress to 100, then the file downloads and opens', async () => {
    const res = await t.api('GET', '/api/course-reports/excel?category=Bulk', { token: manager.token });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: 'queued', statusUrl: `/api/reports/files/${res.body.reportId}` });
    expect(res.body.fileName).toMatch(/^course_report_\d{4}-\d{2}-\d{2}\.xlsx$/);

    const { last, seen } = await waitUntilDone(res.body.reportId, manager.token);
    expect(last).toMatchObject({
      status: 'ready',
      progress: 100,
      downloadUrl: `/api/reports/files/${res.body.reportId}/download`,
    });
    // Progress never goes backwards.
    const progress = seen.map((s) => s.progress);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);

    const file = await download(t.baseUrl, 'GET', last.downloadUrl, { token: manager.token });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="${res.body.fileName}"`);
    await expectBulkCourseWorkbook(file.bytes, BULK);

    // Only the requester or an admin may see it.
    expect((await t.api('GET', `/api/reports/files/${res.body.reportId}`, { token: otherManager.token })).status).toBe(
      404,
    );
    expect((await download(t.baseUrl, 'GET', last.downloadUrl, { token: otherManager.token })).status).toBe(404);
    expect((await download(t.baseUrl, 'GET', last.downloadUrl, { token: admin.token })).status).toBe(200);
    expect((await t.trpc(manager.token).reports.fileStatus.query({ id: res.body.reportId })).status).toBe('ready');
  });

  it('reports progress in steps while building, and building twice is harmless', async () => {
    const [row] = await t.deps.db
      .insert(reportFiles)
      .values({
        requestedBy: manager.id,
        kind: 'courses',
        format: 'xlsx',
        fileName: 'course_report_2025-01-01.xlsx',
        contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        params: { spec: { report: 'courses', filters: { category: 'Bulk' } } },
      })
      .returning();
    const steps: number[] = [];
    await buildReportFile(t.deps, row!.id, async (pct) => void steps.push(pct));
    // 2,500 rows in batches of 1,000: 38%, 76%, 95% of the rows, then 100 once stored.
    expect(steps).toEqual([38, 76, 95, 100]);
    const [built] = await t.deps.db.select().from(reportFiles).where(eq(reportFiles.id, row!.id));
    expect(built).toMatchObject({ status: 'ready', progress: 100 });
    const size = built!.size;
    expect(size).toBeGreaterThan(0);

    const again: number[] = [];
    await buildReportFile(t.deps, row!.id, async (pct) => void again.push(pct));
    expect(again).toEqual([]);
    const [still] = await t.deps.db.select().from(reportFiles).where(eq(reportFiles.id, row!.id));
    expect(still).toMatchObject({ status: 'ready', runId: built!.runId, size });
  });

  it('builds a large PDF through the job too, and refuses a download before it is ready', async () => {
    const res = await t.api('GET', '/api/course-reports/pdf?category=Bulk&maxFee=1000.20', { token: manager.token });
    expect(res.status).toBe(202);
    const early = await t.api('GET', `/api/reports/files/${res.body.reportId}/download`, { token: manager.token });
    // Either still building (409) or already done (200): never a 500.
    expect([200, 409]).toContain(early.status);
    const { last } = await waitUntilDone(res.body.reportId, manager.token);
    expect(last.status).toBe('ready');
    const file = await download(t.baseUrl, 'GET', last.downloadUrl, { token: manager.token });
    expect(file.headers.get('content-type')).toBe('application/pdf');
    const pages = await readPdfText(file.bytes);
    expect(pages[0]).toContain('Course fee: at most Rs. 1,000.20');
    expect(pages.join(' ')).toContain('Bulk course 00020');
    expect(pages.join(' ')).not.toContain('Bulk course 00021');
    expect(pages[pages.length - 1]).toContain(`Page ${pages.length} of ${pages.length}`);
  });

  it('builds a large JSON report through the job like the other formats, and answers a small one directly', async () => {
    const res = await t.api('GET', '/api/course-reports/excel?format=json&category=Bulk', { token: manager.token });
    expect(res.status).toBe(202);
    expect(res.body.fileName).toMatch(/^course_report_\d{4}-\d{2}-\d{2}\.json$/);
    const { last } = await waitUntilDone(res.body.reportId, manager.token);
    expect(last).toMatchObject({ status: 'ready', progress: 100 });
    const file = await download(t.baseUrl, 'GET', last.downloadUrl, { token: manager.token });
    expect(file.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = JSON.parse(Buffer.from(file.bytes).toString('utf8')) as { total: number; data: unknown[] };
    expect(body.total).toBe(BULK);
    expect(body.data).toHaveLength(BULK);

    const small = await t.api('GET', '/api/course-reports/excel?format=json&category=Bulk&maxFee=1000.03', {
      token: manager.token,
    });
    expect(small.status).toBe(200);
    expect(small.body.data.length).toBeLessThanOrEqual(5);
    expect(small.body.total).toBe(small.body.data.length);
  });

  it('refuses a PDF too large to build, pointing to Excel', async () => {
    await t.deps.db.execute(sql`
      insert into courses (course_name, duration, total_fee_minor, installments, category, admission_fee_minor)
      select 'Huge ' || g, '1 month', 1000, 1, 'Huge', 0 from generate_series(1, 20001) g`);
    const res = await t.api('GET', '/api/course-reports/pdf?category=Huge', { token: manager.token });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      'This report has 20,001 rows; a PDF can hold at most 20,000. Narrow the filters or download it as Excel.',
    );
  });
});
