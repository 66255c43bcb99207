/**
 * What the bare report scripts share: the course-list rows streamed with a postgres.js cursor,
 * the cells as the product shows them, and a peak-memory reading of this process.
 */
import fs from 'node:fs';
import type ExcelJS from 'exceljs';
import type { jsPDF } from 'jspdf';
import { autoTable, type RowInput } from 'jspdf-autotable';
import postgres from 'postgres';

export const TIME_ZONE = process.env.TIME_ZONE ?? 'Asia/Colombo';

export const COLUMNS = [
  { key: 'courseName', header: 'Course Name', type: 'text', width: 30 },
  { key: 'category', header: 'Category', type: 'text', width: 18 },
  { key: 'duration', header: 'Duration', type: 'text', width: 14 },
  { key: 'totalFee', header: 'Total Fee (Rs.)', type: 'money', width: 16 },
  { key: 'admissionFee', header: 'Admission Fee (Rs.)', type: 'money', width: 18 },
  { key: 'installments', header: 'Installments', type: 'int', width: 12 },
  { key: 'createdAt', header: 'Created At', type: 'datetime', width: 18 },
] as const;

const stamp = new Intl.DateTimeFormat('en-CA', {
  timeZone: TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
/** `YYYY-MM-DD HH:MM` in the institute's time zone, as the product's reports print it. */
export function dateTimeText(d: Date): string {
  const p = Object.fromEntries(stamp.formatToParts(d).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
}

export type Cells = [string, string, string, number, number, number, string];

export function openSql() {
  return postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {}, connection: { jit: 'off' } });
}

/** The rows of the course list report, oldest first, 1,000 at a time. */
export async function* courseRows(sql: postgres.Sql, category?: string): AsyncGenerator<Cells[]> {
  const where = category ? sql`where lower(category) = lower(${category})` : sql``;
  const cursor = sql<
    {
      course_name: string;
      category: string;
      duration: string;
      total: string;
      admission: string;
      installments: number;
      created_at: Date;
    }[]
  >`select course_name, category, duration, total_fee_minor as total, admission_fee_minor as admission, installments, created_at
    from courses ${where} order by created_at, id`.cursor(1000);
  for await (const rows of cursor) {
    yield rows.map((r) => [
      r.course_name,
      r.category,
      r.duration,
      Number(r.total) / 100,
      Number(r.admission) / 100,
      r.installments,
      dateTimeText(r.created_at),
    ]);
  }
}

/**
 * Resident memory now, with the kernel's high-water mark reset (Linux: clear_refs 5), and a
 * function answering the peak since then.
 */
export function memoryWatch() {
  const read = (key: string) =>
    Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) *
    1024;
  let sampled = process.memoryUsage().rss;
  try {
    fs.writeFileSync('/proc/self/clear_refs', '5');
  } catch {
    /* sampling below still catches most of the peak */
  }
  const start = read('VmRSS') || sampled;
  const timer = setInterval(() => (sampled = Math.max(sampled, process.memoryUsage().rss)), 20);
  return {
    start,
    peak() {
      clearInterval(timer);
      return Math.max(sampled, read('VmHWM'));
    },
  };
}

/** The course list's sheet in a streaming workbook: columns, money format, the header row. */
export function courseSheet(workbook: ExcelJS.stream.xlsx.WorkbookWriter) {
  const sheet = workbook.addWorksheet('Course List', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = COLUMNS.map((c) => ({
    key: c.key,
    width: c.width,
    style: c.type === 'money' ? { numFmt: '#,##0.00' } : {},
  }));
  const header = sheet.addRow(COLUMNS.map((c) => c.header));
  header.eachCell((cell) => {
    cell.font = { bold: true, color: { argb: 'FFFFFFFF' } };
    cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FF1F4E79' } };
  });
  header.commit();
  return sheet;
}

/** The course list's table on `doc` with the product's styles, then the page numbers. */
export function coursePdfTable(doc: jsPDF, body: RowInput[], foot: RowInput[]) {
  const pageWidth = doc.internal.pageSize.getWidth();
  const totalWidth = COLUMNS.reduce((a, c) => a + c.width, 0);
  autoTable(doc, {
    startY: 34,
    head: [COLUMNS.map((c) => c.header)],
    body,
    foot,
    showHead: 'everyPage',
    showFoot: 'lastPage',
    styles: { fontSize: 8, cellPadding: 1.5, overflow: 'linebreak' },
    headStyles: { fillColor: [31, 78, 121], textColor: 255, fontStyle: 'bold' },
    footStyles: { fillColor: [231, 238, 247], textColor: 0, fontStyle: 'bold' },
    columnStyles: Object.fromEntries(
      COLUMNS.map((c, i) => [
        i,
        {
          halign: c.type === 'money' || c.type === 'int' ? 'right' : 'left',
          cellWidth: ((pageWidth - 28) * c.width) / totalWidth,
        },
      ]),
    ),
    margin: { left: 14, right: 14, bottom: 14 },
  });
  const pages = doc.getNumberOfPages();
  const pageHeight = doc.internal.pageSize.getHeight();
  doc.setFontSize(8);
  for (let i = 1; i <= pages; i++) {
    doc.setPage(i);
    doc.text(`Page ${i} of ${pages}`, pageWidth - 14, pageHeight - 6, { align: 'right' });
  }
}
