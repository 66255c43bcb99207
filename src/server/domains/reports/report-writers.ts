import { EventEmitter, once } from 'node:events';
import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { jsPDF } from 'jspdf';
import { autoTable, type RowInput } from 'jspdf-autotable';
import { formatAmount, formatDateTime, formatDay, wallPartsOf } from '../../../shared/format';
import type { ReportColumn, ReportRow, ReportSource } from './report-source';

export const BATCH_SIZE = 1000;
/**
 * jsPDF builds the whole document in memory, so a PDF is capped; Excel has no cap because its
 * writer streams. 20,000 rows is about 500 landscape pages.
 */
export const PDF_MAX_ROWS = 20_000;

export interface ReportMeta {
  generatedAt: Date;
  timeZone: string;
  /** The organisation's name and contact line (loadOrganisation), printed on the PDF's header. */
  organisation?: { name: string; contact: string };
  /** Called with the number of data rows written so far. */
  onRows?: (written: number) => Promise<void> | void;
}

/** After 1972 every time zone's offset is whole minutes (Liberia's -0:44:30 was the last). */
const WHOLE_MINUTE_OFFSETS_FROM = Date.UTC(1973, 0, 1);

/**
 * `formatDateTime` for a report's rows, which come in time order: a date-time cell shows the
 * minute, so the text of the row before is reused while the instant stays in the same UTC minute
 * (the same local minute wherever the offset is whole minutes). One time-zone conversion per minute
 * of data instead of one per row: it was about a fifth of the Excel writer's CPU.
 */
export function dateTimeCells(timeZone: string) {
  let minute = Number.NaN;
  let text = '';
  return (v: string): string => {
    const t = Date.parse(v);
    if (!(t >= WHOLE_MINUTE_OFFSETS_FROM)) return formatDateTime(v, timeZone);
    const m = Math.floor(t / 60_000);
    if (m !== minute) {
      text = formatDateTime(v, timeZone);
      minute = m;
    }
    return text;
  };
}

/**
 * An instant as an Excel date-time cell: Excel has no time zones, so the cell holds the wall-clock
 * time in `timeZone` (exceljs writes a Date's UTC fields), shown with a date-time number format
 * and sortable and filterable as a date, where text would not be. The offset is worked out once
 * per minute of data, as `dateTimeCells` does for the text; before 1973 once per row.
 */
export function wallClockDates(timeZone: string) {
  const offsetAt = (t: number) => {
    const p = wallPartsOf(new Date(t), timeZone);
    const wall = Date.UTC(p.y, p.m - 1, p.d, Number(p.hh), Number(p.mm), Number(p.ss));
    return wall - Math.floor(t / 1000) * 1000;
  };
  let minute = Number.NaN;
  let offset = 0;
  return (v: string): Date | string => {
    const t = Date.parse(v);
    if (Number.isNaN(t)) return v;
    const m = Math.floor(t / 60_000);
    if (m !== minute || t < WHOLE_MINUTE_OFFSETS_FROM) {
      offset = offsetAt(t);
      minute = m;
    }
    return new Date(t + offset);
  };
}

/**
 * The text a cell shows in a PDF: money with two decimals (the header names the currency), dates
 * and date-times as on the screens (docs/product.md#formats), in TIME_ZONE.
 */
type DateTimeText = (v: string) => string;

function cellText(col: ReportColumn, v: ReportRow[string] | undefined, dateTime: DateTimeText): string {
  if (v === null || v === undefined) return '';
  if (col.type === 'money' && typeof v === 'number') return formatAmount(v);
  if (col.type === 'date' && typeof v === 'string') return formatDay(v.slice(0, 10));
  if (col.type === 'datetime' && typeof v === 'string') return dateTime(v);
  return String(v);
}

function excelValue(
  col: ReportColumn,
  v: ReportRow[string] | undefined,
  wallClock: (v: string) => Date | string,
): ExcelJS.CellValue {
  if (v === null || v === undefined) return null;
  if (col.type === 'date' && typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v)) return new Date(`${v}T00:00:00Z`);
  if (col.type === 'datetime' && typeof v === 'string') return wallClock(v);
  return v;
}

/** Excel's number formats for the typed columns: dates and date-times read as on the screens. */
const EXCEL_FORMATS: Partial<Record<ReportColumn['type'], string>> = {
  money: '#,##0.00',
  date: 'dd mmm yyyy',
  datetime: 'dd mmm yyyy, hh:mm',
};

/** A stream exceljs writes a sheet's XML into: archiver's entry, a readable-stream Writable. */
interface EntryQueue extends EventEmitter {
  _writableState?: { length?: number };
}

const isEntryQueue = (v: unknown): v is EntryQueue => v instanceof EventEmitter && '_writableState' in v;

/**
 * The streams a sheet's committed rows wait in before the zip compresses them. exceljs keeps
 * them to itself (the sheet's buffer and its `pipes`), so this reads its internals; the unit test
 * fails if an upgrade moves them, rather than the memory growing again unnoticed.
 */
function entryQueues(sheet: ExcelJS.Worksheet): EntryQueue[] {
  const pipes = (sheet as unknown as { stream?: { pipes?: unknown } }).stream?.pipes;
  return Array.isArray(pipes) ? pipes.filter(isEntryQueue) : [];
}

/** Bytes of the sheet's XML waiting for the zip's compressor. */
export function sheetBacklog(sheet: ExcelJS.Worksheet): number {
  return entryQueues(sheet).reduce((n, q) => n + (q._writableState?.length ?? 0), 0);
}

/** The most of a sheet's XML left waiting for the compressor before the next batch is read. */
export const SHEET_BACKLOG_LIMIT = 1024 * 1024;

/**
 * Resolves at the first of `events` (pairs of emitter and event name), rejects at an `error` of
 * any of them (`events.once` does both); the other waits are dropped, so waiting once per batch
 * leaves no listener behind.
 */
export async function firstOf(events: Array<[EventEmitter, string]>): Promise<void> {
  const done = new AbortController();
  try {
    await Promise.race(events.map(([emitter, event]) => once(emitter, event, { signal: done.signal })));
  } finally {
    done.abort();
  }
}

/**
 * Waits until the zip has compressed the sheet's rows down to SHEET_BACKLOG_LIMIT, or `out` has
 * closed. exceljs hands each committed row on to the zip whatever the compressor's pace (it
 * ignores the entry stream's back-pressure), so when rows come faster than zlib deflates them, the
 * sheet's uncompressed XML piles up there: all of it, 173 MB at 500,000 rows, when the database
 * answered fast. Waiting here after each batch keeps that to a megabyte, at the same speed
 * (docs/performance.md).
 */
export async function sheetCaughtUp(
  sheet: ExcelJS.Worksheet,
  out: Writable,
  limit = SHEET_BACKLOG_LIMIT,
): Promise<void> {
  for (const queue of entryQueues(sheet)) {
    while (!out.destroyed && (queue._writableState?.length ?? 0) > limit) {
      await firstOf([
        [queue, 'drain'],
        [queue, 'close'],
        [out, 'close'],
      ]);
    }
  }
}

const HEADER_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FF1F4E79' } };
const TOTAL_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE7EEF7' } };

/**
 * Streams an .xlsx into `out`: each row is committed (written to the zip) as soon as it is made,
 * and the next batch is not fetched until the zip has compressed what it was given and `out` has
 * drained, so memory stays flat.
 */
export async function writeXlsx(source: ReportSource, out: Writable, meta: ReportMeta): Promise<number> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const wallClock = wallClockDates(meta.timeZone);
  workbook.creator = 'Back Office';
  workbook.created = meta.generatedAt;
  const sheet = workbook.addWorksheet(source.title.slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = source.columns.map((c) => ({
    key: c.key,
    width: c.width,
    style: EXCEL_FORMATS[c.type] ? { numFmt: EXCEL_FORMATS[c.type] } : {},
  }));
  const header = sheet.addRow(source.columns.map((c) => c.header));
  header.eachCell((cell) => {
    cell.font = { bold: true, color: { argb: 'FFFFFFFF' } };
    cell.fill = HEADER_FILL;
    cell.alignment = { vertical: 'middle' };
  });
  header.commit();

  let written = 0;
  for await (const batch of source.batches(BATCH_SIZE)) {
    for (const r of batch) {
      sheet.addRow(source.columns.map((c) => excelValue(c, r[c.key], wallClock))).commit();
    }
    written += batch.length;
    await meta.onRows?.(written);
    await sheetCaughtUp(sheet, out);
    if (out.writableNeedDrain && !out.destroyed) {
      await firstOf([
        [out, 'drain'],
        [out, 'close'],
      ]);
    }
    if (out.destroyed) {
      // Nobody reads the file any more: a download was closed (stop reading rows, quietly), or
      // storing it failed (the job fails with that error).
      if (out.errored) throw out.errored;
      return written;
    }
  }
  for (const t of await source.totals()) {
    const row = sheet.addRow(source.columns.map((c) => excelValue(c, t[c.key] ?? null, wallClock)));
    row.eachCell((cell) => {
      cell.font = { bold: true };
      cell.fill = TOTAL_FILL;
    });
    row.commit();
  }
  sheet.commit();

  const info = workbook.addWorksheet('Report info');
  info.columns = [{ width: 22 }, { width: 60 }];
  const lines: Array<[string, string]> = [
    ...(meta.organisation ? [['Organisation', meta.organisation.name] as [string, string]] : []),
    ['Report', source.title],
    ['Generated', `${formatDateTime(meta.generatedAt, meta.timeZone)} (${meta.timeZone})`],
    ['Rows', String(written)],
    ['Filters', source.filterLines.length ? source.filterLines.join('; ') : 'None'],
  ];
  for (const [k, v] of lines) {
    const row = info.addRow([k, v]);
    row.getCell(1).font = { bold: true };
    row.commit();
  }
  info.commit();
  await workbook.commit();
  return written;
}

/** The lines jsPDF breaks a text into at this width (its types say `any`). */
export function wrapText(doc: jsPDF, text: string, width: number): string[] {
  const parts: unknown = doc.splitTextToSize(text, width);
  return Array.isArray(parts) ? parts.map(String) : [String(parts)];
}

/** A PDF: title, filters used, generation time, the table with totals, page numbers. */
export async function buildPdf(source: ReportSource, meta: ReportMeta): Promise<Buffer> {
  // Page streams deflated: a 20,000-row table is 2.3 MB instead of 32 MB, for a second more of
  // CPU; smaller to store, to send and to open on a phone (docs/reports.md).
  const doc = new jsPDF({ orientation: 'landscape', unit: 'mm', format: 'a4', compress: true });
  const dateTime = dateTimeCells(meta.timeZone);
  const pageWidth = doc.internal.pageSize.getWidth();
  doc.setFontSize(16);
  doc.text(source.title, 14, 16);
  if (meta.organisation) {
    doc.setFontSize(11);
    doc.text(meta.organisation.name, pageWidth - 14, 12, { align: 'right' });
    doc.setFontSize(8);
    if (meta.organisation.contact) doc.text(meta.organisation.contact, pageWidth - 14, 16, { align: 'right' });
  }
  doc.setFontSize(9);
  doc.setTextColor(90);
  const lines = [
    `Generated: ${formatDateTime(meta.generatedAt, meta.timeZone)} (${meta.timeZone})`,
    `Filters: ${source.filterLines.length ? source.filterLines.join('; ') : 'None'}`,
  ];
  const wrapped = lines.flatMap((l) => wrapText(doc, l, pageWidth - 28));
  doc.text(wrapped, 14, 23);
  doc.setTextColor(0);

  // Rows arrive in batches; only their display strings are kept for the one autoTable call.
  const body: RowInput[] = [];
  let written = 0;
  for await (const batch of source.batches(BATCH_SIZE)) {
    for (const r of batch) body.push(source.columns.map((c) => cellText(c, r[c.key], dateTime)));
    written += batch.length;
    await meta.onRows?.(written);
  }
  const foot = (await source.totals()).map((t) => source.columns.map((c) => cellText(c, t[c.key] ?? null, dateTime)));
  const totalWidth = source.columns.reduce((a, c) => a + c.width, 0);
  // Where the table ends: the cursor when its last page is drawn (what autoTable calls finalY).
  let tableEndY = 0;
  autoTable(doc, {
    didDrawPage: (data) => {
      tableEndY = data.cursor?.y ?? tableEndY;
    },
    startY: 23 + wrapped.length * 4 + 3,
    head: [source.columns.map((c) => c.header)],
    body,
    foot,
    showHead: 'everyPage',
    showFoot: 'lastPage',
    styles: { fontSize: source.columns.length > 9 ? 7 : 8, cellPadding: 1.5, overflow: 'linebreak' },
    headStyles: { fillColor: [31, 78, 121], textColor: 255, fontStyle: 'bold' },
    footStyles: { fillColor: [231, 238, 247], textColor: 0, fontStyle: 'bold' },
    columnStyles: Object.fromEntries(
      source.columns.map((c, i) => [
        i,
        {
          halign: c.type === 'money' || c.type === 'int' ? 'right' : 'left',
          cellWidth: ((pageWidth - 28) * c.width) / totalWidth,
        },
      ]),
    ),
    margin: { left: 14, right: 14, bottom: 14 },
  });
  if (!body.length) {
    const y = tableEndY + 8;
    doc.setFontSize(10);
    doc.text('No rows match the filters.', 14, y);
  }
  const pages = doc.getNumberOfPages();
  const pageHeight = doc.internal.pageSize.getHeight();
  doc.setFontSize(8);
  for (let i = 1; i <= pages; i++) {
    doc.setPage(i);
    doc.text(`Page ${i} of ${pages}`, pageWidth - 14, pageHeight - 6, { align: 'right' });
  }
  return Buffer.from(doc.output('arraybuffer'));
}

/** `{"data":[...],"total":n, ...summary, "totals":[...]}`, produced piece by piece. */
export async function* jsonChunks(
  source: ReportSource,
  onRows?: (written: number) => Promise<void>,
): AsyncGenerator<string> {
  yield '{"data":[';
  let n = 0;
  for await (const batch of source.batches(BATCH_SIZE)) {
    const text = batch.map((r) => JSON.stringify(r)).join(',');
    yield n ? `,${text}` : text;
    n += batch.length;
    await onRows?.(n);
  }
  const totals = await source.totals();
  const summary = (await source.summary?.()) ?? {};
  const rest = {
    total: n,
    columns: source.columns.map(({ key, header, type }) => ({ key, header, type })),
    ...(totals.length && !('totals' in summary) ? { totals } : {}),
    ...summary,
  };
  yield `],${JSON.stringify(rest).slice(1)}`;
}
