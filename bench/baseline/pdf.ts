/**
 * The bare PDF script of `npm run bench:http`: the rows of the largest PDF the product allows
 * (CATEGORY selects them) through jsPDF and jspdf-autotable with the product's page, table styles,
 * totals and page numbers. Prints `{ rows, bytes, ms, startRss, peakRss }` as JSON.
 *
 * Environment: DATABASE_URL, OUT, CATEGORY, TIME_ZONE.
 */
import fs from 'node:fs';
import { jsPDF } from 'jspdf';
import { autoTable, type RowInput } from 'jspdf-autotable';
import { COLUMNS, courseRows, dateTimeText, memoryWatch, openSql, TIME_ZONE } from './report-common';

const sql = openSql();
await sql`select 1`;
const memory = memoryWatch();
const t0 = performance.now();

const amount = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const doc = new jsPDF({ orientation: 'landscape', unit: 'mm', format: 'a4' });
const pageWidth = doc.internal.pageSize.getWidth();
doc.setFontSize(16);
doc.text('Course List', 14, 16);
doc.setFontSize(9);
doc.setTextColor(90);
doc.text(
  [`Generated: ${dateTimeText(new Date())} (${TIME_ZONE})`, `Filters: Category: ${process.env.CATEGORY}`],
  14,
  23,
);
doc.setTextColor(0);

const body: RowInput[] = [];
let total = 0;
let admission = 0;
for await (const batch of courseRows(sql, process.env.CATEGORY)) {
  for (const r of batch) {
    body.push([r[0], r[1], r[2], amount.format(r[3]), amount.format(r[4]), String(r[5]), r[6]]);
    total += r[3];
    admission += r[4];
  }
}
const totalWidth = COLUMNS.reduce((a, c) => a + c.width, 0);
autoTable(doc, {
  startY: 34,
  head: [COLUMNS.map((c) => c.header)],
  body,
  foot: [['Total', '', '', amount.format(total), amount.format(admission), '', '']],
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
const pdf = Buffer.from(doc.output('arraybuffer'));
fs.writeFileSync(process.env.OUT!, pdf);

const ms = performance.now() - t0;
const peakRss = memory.peak();
await sql.end();
console.log(JSON.stringify({ rows: body.length, bytes: pdf.length, ms, startRss: memory.start, peakRss }));
