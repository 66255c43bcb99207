/**
 * The bare Excel script of `npm run bench:http`: the course list's rows from PostgreSQL straight
 * through exceljs's streaming WorkbookWriter into a file, with the product's columns, formats and
 * totals row. Prints `{ rows, bytes, ms, startRss, peakRss }` as JSON.
 *
 * Environment: DATABASE_URL, OUT (the file to write), TIME_ZONE.
 */
import { once } from 'node:events';
import fs from 'node:fs';
import ExcelJS from 'exceljs';
import { courseRows, courseSheet, memoryWatch, openSql } from './report-common';

const sql = openSql();
await sql`select 1`;
const memory = memoryWatch();
const t0 = performance.now();

const out = fs.createWriteStream(process.env.OUT!);
const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
const sheet = courseSheet(workbook);

let rows = 0;
let total = 0;
let admission = 0;
for await (const batch of courseRows(sql)) {
  for (const r of batch) {
    sheet.addRow(r).commit();
    total += r[3];
    admission += r[4];
  }
  rows += batch.length;
  if (out.writableNeedDrain) await once(out, 'drain');
}
sheet.addRow(['Total', null, null, total, admission, null, null]).commit();
sheet.commit();
await workbook.commit();
if (!out.closed) await once(out, 'close');

const ms = performance.now() - t0;
const peakRss = memory.peak();
await sql.end();
console.log(JSON.stringify({ rows, bytes: fs.statSync(process.env.OUT!).size, ms, startRss: memory.start, peakRss }));
