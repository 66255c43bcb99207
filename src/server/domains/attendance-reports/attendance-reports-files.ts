import { PassThrough, Readable, type Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { RowInput } from 'jspdf-autotable';
import { todayIn } from '../../../shared/calendar';
import { formatDateTime } from '../../../shared/format';
import { reportFileName } from '../../../shared/report-columns';
import { AppError } from '../../errors';
import { recordAudit } from '../audit/audit.service';
import type { ServiceContext } from '../context';
import { CONTENT_TYPES } from '../reports/reports.service';
import { firstOf, PDF_MAX_ROWS, sheetCaughtUp } from '../reports/report-writers';
import { sectionsPdf, type PdfSection } from '../reports/sections-pdf';
import { paperOrganisation } from '../settings/organisation.service';
import type {
  TAttendanceBatchRow,
  TAttendanceReportFilters,
  TAttendanceStudentRow,
} from '@shared/schemas/attendance-reports';
import { rosterPlaceCount, type AttendanceReportScope } from './attendance-reports.sql';
import {
  attendanceReportFilterLines,
  attendanceReportScope,
  batchRows,
  studentRows,
} from './attendance-reports.service';

export const ATTENDANCE_REPORT_TITLE = 'Attendance';

type Cell = string | number | null;

/** One table of the files: its rows come in batches, so a sheet is written as they are read. */
interface Section {
  title: string;
  headers: string[];
  /** Which columns are numbers (right-aligned in the PDF). */
  numeric: boolean[];
  rows: () => AsyncGenerator<Cell[][]>;
}

const MARK_HEADERS = ['Present', 'Late', 'Absent', 'Excused', 'Unmarked', 'Rate %'];
const marks = (r: Pick<TAttendanceBatchRow, 'present' | 'late' | 'absent' | 'excused' | 'unmarked' | 'rate'>) => [
  r.present,
  r.late,
  r.absent,
  r.excused,
  r.unmarked,
  r.rate,
];

const studentSection = (title: string, rows: () => AsyncGenerator<TAttendanceStudentRow[]>): Section => ({
  title,
  headers: ['Batch', 'Student', 'Held', ...MARK_HEADERS],
  numeric: [false, false, true, true, true, true, true, true, true],
  rows: async function* () {
    for await (const batch of rows()) yield batch.map((r) => [r.batch.name, r.student.fullName, r.held, ...marks(r)]);
  },
});

/** By batch (bounded by the batches), by student and under the threshold (read a chunk at a time). */
function sections(ctx: ServiceContext, s: AttendanceReportScope, threshold: number): Section[] {
  return [
    {
      title: 'By batch',
      headers: ['Batch', 'Branch', 'Status', 'Sessions', 'Held', 'Cancelled', 'To come', ...MARK_HEADERS],
      numeric: [false, false, false, ...Array<boolean>(10).fill(true)],
      rows: async function* () {
        yield (await batchRows(ctx, s)).map((r) => [
          r.batch.name,
          r.branch.name,
          r.batch.status === 'open' ? 'Open' : 'Closed',
          r.sessions,
          r.held,
          r.cancelled,
          r.upcoming,
          ...marks(r),
        ]);
      },
    },
    studentSection('By student', () => studentRows(ctx, s)),
    studentSection(`Under ${threshold} %`, () => studentRows(ctx, s, threshold)),
  ];
}

interface FileMeta {
  generatedAt: Date;
  timeZone: string;
  filterLines: string[];
  threshold: number;
  organisation: { name: string; contact: string };
}

const infoLines = (meta: FileMeta): Array<[string, string]> => [
  ['Organisation', meta.organisation.name],
  ['Report', ATTENDANCE_REPORT_TITLE],
  ['Generated', `${formatDateTime(meta.generatedAt, meta.timeZone)} (${meta.timeZone})`],
  ['Filters', meta.filterLines.join('; ')],
  ['Rate', `(present + late) ÷ (present + late + absent) over held sessions; threshold ${meta.threshold} %`],
];

/**
 * Streams an .xlsx into `out`: one sheet per table, each row committed as it is made and the next
 * chunk of students read only once the zip has caught up and `out` has drained (as the list
 * reports' writer does, docs/reports.md#streaming-memory-and-the-job); then "Report info".
 */
async function writeXlsx(parts: Section[], meta: FileMeta, out: Writable): Promise<void> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  wb.creator = 'Back Office';
  wb.created = meta.generatedAt;
  for (const part of parts) {
    const sheet = wb.addWorksheet(part.title.slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = part.headers.map((h, i) => ({
      width: i < 2 ? 30 : Math.max(10, h.length + 2),
      style: h === 'Rate %' ? { numFmt: '0.0' } : {},
    }));
    const header = sheet.addRow(part.headers);
    header.eachCell((cell) => {
      cell.font = { bold: true, color: { argb: 'FFFFFFFF' } };
      cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FF1F4E79' } };
    });
    header.commit();
    for await (const batch of part.rows()) {
      for (const row of batch) sheet.addRow(row).commit();
      await sheetCaughtUp(sheet, out);
      if (out.writableNeedDrain && !out.destroyed)
        await firstOf([
          [out, 'drain'],
          [out, 'close'],
        ]);
      // Nobody reads the file any more (the download was closed): stop reading rows.
      if (out.destroyed) return;
    }
    sheet.commit();
  }
  const info = wb.addWorksheet('Report info');
  info.columns = [{ width: 22 }, { width: 80 }];
  for (const [k, v] of infoLines(meta)) {
    const row = info.addRow([k, v]);
    row.getCell(1).font = { bold: true };
    row.commit();
  }
  info.commit();
  await wb.commit();
}

/** A cell as the PDF prints it: a rate with its one decimal (85.0), an empty one blank. */
const pdfCell = (c: Cell, rate: boolean) =>
  c === null ? '' : rate && typeof c === 'number' ? c.toFixed(1) : String(c);

/** Title, filters, generation time and the rate's rule, then each table under its heading. */
async function buildPdf(parts: Section[], meta: FileMeta): Promise<Buffer> {
  const sections: PdfSection[] = [];
  for (const part of parts) {
    // Only the cells' text is kept for each table.
    const body: RowInput[] = [];
    for await (const batch of part.rows())
      for (const r of batch) body.push(r.map((c, i) => pdfCell(c, part.headers[i] === 'Rate %')));
    sections.push({ title: part.title, headers: part.headers, numeric: part.numeric, body });
  }
  return sectionsPdf({
    title: ATTENDANCE_REPORT_TITLE,
    organisation: meta.organisation,
    lines: [
      `Generated: ${formatDateTime(meta.generatedAt, meta.timeZone)} (${meta.timeZone})`,
      `Filters: ${meta.filterLines.join('; ')}`,
      `Rate: (present + late) / (present + late + absent) over held sessions; threshold ${meta.threshold} %`,
    ],
    sections,
  });
}

export interface AttendanceReportFile {
  fileName: string;
  contentType: string;
  body: Readable;
}

/**
 * The report as Excel (streamed as it is written) or PDF (at most PDF_MAX_ROWS students, as the
 * list reports; more answers 400 pointing to Excel). The download is in the audit trail.
 */
export async function attendanceReportFile(
  ctx: ServiceContext,
  filters: TAttendanceReportFilters,
  format: 'xlsx' | 'pdf',
): Promise<AttendanceReportFile> {
  const { deps } = ctx;
  const tz = deps.config.TIME_ZONE;
  const threshold = deps.config.ATTENDANCE_THRESHOLD;
  const scope = await attendanceReportScope(ctx, filters);
  if (format === 'pdf') {
    const rows = await rosterPlaceCount(ctx.db, scope);
    if (rows > PDF_MAX_ROWS)
      throw new AppError(
        'BAD_REQUEST',
        `This report has ${rows.toLocaleString('en-US')} students; a PDF can hold at most ${PDF_MAX_ROWS.toLocaleString('en-US')}. Narrow the filters or download it as Excel.`,
        { rows, maxRows: PDF_MAX_ROWS },
      );
  }
  const [filterLines, organisation] = await Promise.all([
    attendanceReportFilterLines(ctx, scope),
    paperOrganisation(ctx.db, deps.config),
  ]);
  await recordAudit(ctx.db, ctx, {
    action: 'download',
    entityType: 'report',
    entityId: 'attendance',
    summary: `Downloaded Attendance (${format === 'pdf' ? 'PDF' : 'Excel'}); filters: ${filterLines.join('; ')}`,
  });
  const meta: FileMeta = { generatedAt: new Date(), timeZone: tz, filterLines, threshold, organisation };
  const parts = sections(ctx, scope, threshold);
  const fileName = reportFileName('attendance_report', todayIn(tz), format);
  if (format === 'pdf')
    return { fileName, contentType: CONTENT_TYPES.pdf, body: Readable.from([await buildPdf(parts, meta)]) };
  const out = new PassThrough();
  writeXlsx(parts, meta, out).catch((err: unknown) => {
    deps.log.error({ err, report: 'attendance' }, 'report stream failed');
    out.destroy(err instanceof Error ? err : new Error(String(err)));
  });
  return { fileName, contentType: CONTENT_TYPES.xlsx, body: out };
}
