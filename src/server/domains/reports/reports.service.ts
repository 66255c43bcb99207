import { randomUUID } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { and, eq, isNotNull, lt, ne, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppDeps } from '../../deps';
import { reportFiles } from '../../db/schema';
import { firstRow } from '../../db/rows';
import { AppError } from '../../errors';
import { todayIn } from '../../../shared/calendar';
import { isAdmin } from '../../../shared/roles';
import { reportFileName, type ReportFormat } from '../../../shared/report-columns';
import type { ServiceContext } from '../context';
import { assertId } from '../ids';
import { branchScopeOf, type BranchScope } from '../branch-scope';
import { getCurrencySettings } from '../settings/settings.service';
import { recordAudit } from '../audit/audit.service';
import type { ReportSource } from './report-source';
import { reportSource } from './report-sources';
import { buildPdf, jsonChunks, PDF_MAX_ROWS, writeXlsx } from './report-writers';
import { PieceWriter, readStoredFile } from './report-file-store';
import { ZReportSpec, type TReportCountInput, type TReportSpec } from '@shared/schemas/reports';
import type { TReportFileStatus } from '@shared/schemas/reports.output';
import { paperOrganisation } from '../settings/organisation.service';

export const CONTENT_TYPES = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
  json: 'application/json; charset=utf-8',
} as const;

/** What a report_files row stores in `params` (runReport writes it). */
const ZStoredParams = z.object({
  spec: ZReportSpec,
  /** The branch scope the report was asked with (docs/security.md#branch-scope). */
  scope: z.object({ branchId: z.string().nullable() }).nullish(),
});

/** A built file is kept this long for its requester to download. */
const FILE_TTL_MS = 24 * 3600_000;

export type ReportOutcome =
  | { kind: 'json'; body: Readable }
  | { kind: 'file'; fileName: string; contentType: string; body: Readable }
  | { kind: 'job'; reportId: string; jobId: string; status: 'queued'; fileName: string };

const FORMAT_LABELS: Record<ReportFormat, string> = { xlsx: 'Excel', pdf: 'PDF', json: 'JSON' };

/** docs/audit.md: a report leaving the server is recorded, with what was in it. */
async function recordDownload(ctx: ServiceContext, kind: string, what: string, detail: string[], filters: string[]) {
  await recordAudit(ctx.db, ctx, {
    action: 'download',
    entityType: 'report',
    entityId: kind,
    summary: `Downloaded ${what} (${detail.join(', ')})${filters.length ? `; filters: ${filters.join('; ')}` : ''}`,
  });
}

async function sourceFor(deps: AppDeps, spec: TReportSpec, scope: BranchScope | null): Promise<ReportSource> {
  const currency = await getCurrencySettings(deps.db);
  return reportSource(deps.db, spec, { timeZone: deps.config.TIME_ZONE, currency, scope });
}

/**
 * Runs a chunk generator up to its first rows before the answer starts, so a query that fails
 * answers an error status instead of a 200 cut off mid-body.
 */
async function startedStream(chunks: AsyncGenerator<string>): Promise<Readable> {
  const head: string[] = [];
  for (let i = 0; i < 2; i++) {
    const r = await chunks.next();
    if (r.done) break;
    head.push(r.value);
  }
  return Readable.from(
    (async function* () {
      yield* head;
      yield* chunks;
    })(),
  );
}

/**
 * Answers a report as JSON or as a file. Reports of more than REPORT_JOB_THRESHOLD rows, JSON
 * included, are built by the `build-report` job instead (docs/reports.md): the caller gets the
 * report file's id to poll and download, and the web process never holds a huge answer.
 */
export async function runReport(ctx: ServiceContext, spec: TReportSpec, format: ReportFormat): Promise<ReportOutcome> {
  const { deps } = ctx;
  // The scope is decided now and stored with a queued report, so the worker builds what was asked.
  const scope = await branchScopeOf(ctx);
  const source = await sourceFor(deps, spec, scope);
  const rows = await source.count();
  const detail = [FORMAT_LABELS[format], `${rows.toLocaleString('en-US')} ${rows === 1 ? 'row' : 'rows'}`];
  if (format === 'json' && rows <= deps.config.REPORT_JOB_THRESHOLD) {
    const body = await startedStream(jsonChunks(source));
    await recordDownload(ctx, spec.report, source.title, detail, source.filterLines);
    return { kind: 'json', body };
  }

  if (format === 'pdf' && rows > PDF_MAX_ROWS) {
    throw new AppError(
      'BAD_REQUEST',
      `This report has ${rows.toLocaleString('en-US')} rows; a PDF can hold at most ${PDF_MAX_ROWS.toLocaleString('en-US')}. Narrow the filters or download it as Excel.`,
      { rows, maxRows: PDF_MAX_ROWS },
    );
  }
  const fileName = reportFileName(source.fileBase, todayIn(deps.config.TIME_ZONE), format);
  if (rows > deps.config.REPORT_JOB_THRESHOLD) {
    // The file row and its job are recorded together: no row is ever left queued without a job.
    const { row, job } = await deps.db.transaction(async (tx) => {
      const row = firstRow(
        await tx
          .insert(reportFiles)
          .values({
            requestedBy: ctx.actor.id,
            kind: spec.report,
            format,
            fileName,
            contentType: CONTENT_TYPES[format],
            params: { spec, rows, scope },
            expiresAt: new Date(Date.now() + FILE_TTL_MS),
          })
          .returning({ id: reportFiles.id }),
      );
      const job = await deps.jobs.enqueue(
        'build-report',
        { reportFileId: row.id },
        { jobId: `build-report:${row.id}`, tx },
      );
      return { row, job };
    });
    // Committed now: hand the job on at once rather than at the next relay tick (up to a second).
    void deps.jobs.flush?.();
    // Expired files are removed here rather than by a schedule of their own: cheap and bounded.
    await deps.db
      .delete(reportFiles)
      .where(and(isNotNull(reportFiles.expiresAt), lt(reportFiles.expiresAt, new Date())));
    return { kind: 'job', reportId: row.id, jobId: job.id, status: 'queued', fileName };
  }

  const meta = {
    generatedAt: new Date(),
    timeZone: deps.config.TIME_ZONE,
    organisation: await paperOrganisation(deps.db, deps.config),
  };
  await recordDownload(ctx, spec.report, source.title, detail, source.filterLines);
  if (format === 'pdf') {
    const pdf = await buildPdf(source, meta);
    return { kind: 'file', fileName, contentType: CONTENT_TYPES.pdf, body: Readable.from([pdf]) };
  }
  const out = new PassThrough();
  writeXlsx(source, out, meta).catch((err: unknown) => {
    deps.log.error({ err, report: spec.report }, 'report stream failed');
    out.destroy(err instanceof Error ? err : new Error(String(err)));
  });
  return { kind: 'file', fileName, contentType: CONTENT_TYPES.xlsx, body: out };
}

/**
 * Builds a queued report file (the `build-report` job). Safe to run twice, even at the same time:
 * each run stores its pieces under its own run id and the first to finish makes its pieces the file
 * (docs/reports.md#how-a-built-file-is-stored); a file already built is left alone.
 */
export async function buildStoredReport(
  deps: AppDeps,
  reportFileId: string,
  onProgress: (pct: number) => Promise<void>,
): Promise<void> {
  const [file] = await deps.db.select().from(reportFiles).where(eq(reportFiles.id, reportFileId)).limit(1);
  if (!file || file.status === 'ready') return;
  const notReady = and(eq(reportFiles.id, reportFileId), ne(reportFiles.status, 'ready'));
  const setProgress = async (pct: number) => {
    // Never backwards, and never on a file another run has finished.
    await deps.db
      .update(reportFiles)
      .set({ progress: sql`greatest(${reportFiles.progress}, ${pct})` })
      .where(notReady);
    await onProgress(pct);
  };
  await deps.db
    .update(reportFiles)
    .set({
      status: 'building',
      progress: sql`case when ${reportFiles.status} = 'failed' then 0 else ${reportFiles.progress} end`,
      error: null,
    })
    .where(notReady);
  const pieces = new PieceWriter(deps.db, reportFileId, randomUUID());
  try {
    const { spec, scope } = ZStoredParams.parse(file.params);
    const source = await sourceFor(deps, spec, scope ?? null);
    const total = Math.max(1, await source.count());
    let last = 0;
    const meta = {
      generatedAt: new Date(),
      timeZone: deps.config.TIME_ZONE,
      organisation: await paperOrganisation(deps.db, deps.config),
      // Writing rows is most of the work; the last 5% is storing the file.
      onRows: async (written: number) => {
        const pct = Math.min(95, Math.floor((written / total) * 95));
        if (pct > last) {
          last = pct;
          await setProgress(pct);
        }
      },
    };
    if (file.format === 'pdf') {
      // jsPDF makes the whole document at once; it is still stored a piece at a time.
      await pieces.write(await buildPdf(source, meta));
      await pieces.end();
    } else if (file.format === 'json') {
      for await (const part of jsonChunks(source, meta.onRows)) await pieces.write(Buffer.from(part, 'utf8'));
      await pieces.end();
    } else {
      const out = pieces.stream();
      await writeXlsx(source, out, meta);
      await finished(out);
    }
    if (await pieces.finish()) await onProgress(100);
  } catch (err) {
    await pieces.discard().catch(() => undefined);
    await deps.db
      .update(reportFiles)
      .set({ status: 'failed', error: 'The report could not be built. Please try again.' })
      .where(notReady);
    throw err;
  }
}

/**
 * The caller's report file row (its pieces are read only by the download, a piece at a time: a
 * caller polling for the status never loads the file).
 */
async function ownFile(ctx: ServiceContext, id: string) {
  assertId(id, 'Report file');
  const [file] = await ctx.db.select().from(reportFiles).where(eq(reportFiles.id, id)).limit(1);
  // Someone else's file is answered like a missing one: its existence is not theirs to know.
  if (!file || (file.requestedBy !== ctx.actor.id && !isAdmin(ctx.actor.role)))
    throw new AppError('NOT_FOUND', 'Report file not found.');
  if (file.expiresAt && file.expiresAt < new Date())
    throw new AppError('NOT_FOUND', 'Report file not found. It has expired; please request it again.');
  return file;
}

export async function reportFileStatus(ctx: ServiceContext, id: string): Promise<TReportFileStatus> {
  const f = await ownFile(ctx, id);
  return {
    id: f.id,
    reportId: f.id,
    kind: f.kind,
    format: f.format,
    fileName: f.fileName,
    status: f.status,
    progress: f.progress,
    error: f.error,
    downloadUrl: f.status === 'ready' ? `/api/reports/files/${f.id}/download` : null,
    createdAt: f.createdAt.toISOString(),
  };
}

/** A built file, streamed from its stored pieces (docs/reports.md#how-a-built-file-is-stored). */
export async function downloadReportFile(ctx: ServiceContext, id: string) {
  const f = await ownFile(ctx, id);
  if (f.status !== 'ready' || !f.runId || f.size === null) {
    throw new AppError(
      'CONFLICT',
      f.status === 'failed'
        ? 'The report could not be built. Please request it again.'
        : 'The report is not ready yet.',
    );
  }
  const body = await readStoredFile(ctx.db, f.id, f.runId, f.size);
  await recordDownload(ctx, f.kind, `the prepared file ${f.fileName}`, [FORMAT_LABELS[f.format]], []);
  return { fileName: f.fileName, contentType: f.contentType, size: f.size, body };
}

export async function countReportRows(ctx: ServiceContext, input: TReportCountInput): Promise<{ rows: number }> {
  const source = await sourceFor(ctx.deps, input, await branchScopeOf(ctx));
  return { rows: await source.count() };
}
