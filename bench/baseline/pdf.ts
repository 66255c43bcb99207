/**
 * The bare PDF script of `npm run bench:http`: the rows of the largest PDF the product allows
 * (CATEGORY selects them) through jsPDF and jspdf-autotable with the product's page, table styles,
 * totals and page numbers. Prints `{ rows, bytes, ms, startRss, peakRss }` as JSON.
 *
 * Environment: DATABASE_URL, OUT, CATEGORY, TIME_ZONE.
 */
import fs from 'node:fs';
import { jsPDF } from 'jspdf';
import type { RowInput } from 'jspdf-autotable';
import { courseRows, coursePdfTable, dateTimeText, memoryWatch, openSql, TIME_ZONE } from './report-common';

const sql = openSql();
await sql`select 1`;
const memory = memoryWatch();
const t0 = performance.now();

const amount = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
// Deflated page streams, as the product's PDFs are.
const doc = new jsPDF({ orientation: 'landscape', unit: 'mm', format: 'a4', compress: true });
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
coursePdfTable(doc, body, [['Total', '', '', amount.format(total), amount.format(admission), '', '']]);
const pdf = Buffer.from(doc.output('arraybuffer'));
fs.writeFileSync(process.env.OUT!, pdf);

const ms = performance.now() - t0;
const peakRss = memory.peak();
await sql.end();
console.log(JSON.stringify({ rows: body.length, bytes: pdf.length, ms, startRss: memory.start, peakRss }));
