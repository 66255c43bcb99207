import { PassThrough, Readable } from 'node:stream';
import { AppError } from '../../errors';
import { todayIn } from '../../../shared/calendar';
import { reportFileName } from '../../../shared/report-columns';
import { recordAudit } from '../audit/audit.service';
import type { ServiceContext } from '../context';
import { CONTENT_TYPES } from '../reports/reports.service';
import { buildPdf, PDF_MAX_ROWS, writeXlsx } from '../reports/report-writers';
import { receivablesSource } from './receivables-source';
import { receivablesFilterLines, receivablesScope } from './receivables.service';
import type { TReceivablesFilters } from '@shared/schemas/receivables';

export interface ReceivablesFile {
  fileName: string;
  contentType: string;
  body: Readable;
}

/**
 * The whole receivables list as Excel (streamed a batch at a time) or PDF (built at once, so capped
 * like every PDF report). The download is recorded in the audit trail as other reports are.
 */
export async function receivablesFile(
  ctx: ServiceContext,
  filters: TReceivablesFilters,
  format: 'xlsx' | 'pdf',
): Promise<ReceivablesFile> {
  const tz = ctx.deps.config.TIME_ZONE;
  const scope = await receivablesScope(ctx, filters);
  const lines = await receivablesFilterLines(ctx, scope);
  const source = receivablesSource(ctx.db, scope, lines);
  const rows = await source.count();
  if (format === 'pdf' && rows > PDF_MAX_ROWS) {
    throw new AppError(
      'BAD_REQUEST',
      `This report has ${rows.toLocaleString('en-US')} rows; a PDF can hold at most ${PDF_MAX_ROWS.toLocaleString('en-US')}. Narrow the filters or download it as Excel.`,
      { rows, maxRows: PDF_MAX_ROWS },
    );
  }
  await recordAudit(ctx.db, ctx, {
    action: 'download',
    entityType: 'report',
    entityId: 'receivables',
    summary: `Downloaded Receivables (${format === 'pdf' ? 'PDF' : 'Excel'}, ${rows.toLocaleString('en-US')} ${rows === 1 ? 'row' : 'rows'}); filters: ${lines.join('; ')}`,
  });
  const fileName = reportFileName(source.fileBase, todayIn(tz), format);
  const meta = { generatedAt: new Date(), timeZone: tz };
  if (format === 'pdf') {
    return { fileName, contentType: CONTENT_TYPES.pdf, body: Readable.from([await buildPdf(source, meta)]) };
  }
  const out = new PassThrough();
  writeXlsx(source, out, meta).catch((err: unknown) => {
    ctx.deps.log.error({ err, report: 'receivables' }, 'report stream failed');
    out.destroy(err instanceof Error ? err : new Error(String(err)));
  });
  return { fileName, contentType: CONTENT_TYPES.xlsx, body: out };
}
