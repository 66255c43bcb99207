/**
 * Report benchmark: time and memory of a 100,000-row report as Excel (streamed), as JSON
 * (streamed) and of the largest PDF allowed. `npm run bench`; BENCH_ROWS changes the size;
 * DATABASE_URL runs it on PostgreSQL instead of an embedded PGlite in a temporary directory.
 *
 * What it shows: the streamed formats' peak heap stays near the baseline whatever the row count
 * (rows are fetched 1,000 at a time and written out at once); the PDF grows with its rows,
 * which is why PDFs are capped at PDF_MAX_ROWS.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../src/server/db/client';
import { reportSource } from '../src/server/domains/reports/report-sources';
import { buildPdf, jsonChunks, PDF_MAX_ROWS, writeXlsx } from '../src/server/domains/reports/report-writers';
import type { TReportSpec } from '@shared/schemas/reports';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const TZ = 'Asia/Colombo';
const currency = { localCurrency: 'LKR', foreignCurrency: 'USD', exchangeRate: 320.75 };

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

/** Samples heap and RSS every 20 ms while `fn` runs; answers the peaks above the start. */
async function measure<T>(label: string, fn: () => Promise<T>) {
  global.gc?.();
  const start = process.memoryUsage();
  let peakHeap = start.heapUsed;
  let peakRss = start.rss;
  const timer = setInterval(() => {
    const m = process.memoryUsage();
    peakHeap = Math.max(peakHeap, m.heapUsed);
    peakRss = Math.max(peakRss, m.rss);
  }, 20);
  const t0 = performance.now();
  const result = await fn();
  const ms = performance.now() - t0;
  clearInterval(timer);
  const end = process.memoryUsage();
  peakHeap = Math.max(peakHeap, end.heapUsed);
  peakRss = Math.max(peakRss, end.rss);
  return {
    label,
    seconds: (ms / 1000).toFixed(2),
    heapGrowth: mb(peakHeap - start.heapUsed),
    peakHeap: mb(peakHeap),
    peakRss: mb(peakRss),
    result,
  };
}

function counter() {
  let bytes = 0;
  const out = new Writable({
    write(chunk: Buffer, _enc, cb) {
      bytes += chunk.length;
      cb();
    },
  });
  return { out, bytes: () => bytes };
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'report-bench-'));
  const handle = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir });
  try {
    await handle.migrate();
    const { db } = handle;
    await db.execute(sql`delete from courses where category in ('Bench', 'BenchPdf')`);
    console.log(`Inserting ${ROWS.toLocaleString()} courses (${handle.kind})...`);
    await db.execute(sql`
      insert into courses (course_name, duration, total_fee_minor, installments, category, admission_fee_minor, description, created_at)
      select 'Benchmark course number ' || g, (1 + g % 12) || ' months', 100000 + g, 1 + g % 6,
             case when g <= ${PDF_MAX_ROWS} then 'BenchPdf' else 'Bench' end, 500,
             'A course created by the report benchmark to measure memory and time.',
             now() - make_interval(secs => ${ROWS} - g)
      from generate_series(1, ${ROWS}) g`);

    const all: TReportSpec = { report: 'courses', filters: {} };
    const pdfOnly: TReportSpec = { report: 'courses', filters: { category: 'BenchPdf' } };
    const source = (spec: TReportSpec) => reportSource(db, spec, { timeZone: TZ, currency });
    const meta = () => ({ generatedAt: new Date(), timeZone: TZ });

    const results = [];
    results.push(
      await measure(`xlsx, ${ROWS.toLocaleString()} rows`, async () => {
        const c = counter();
        const rows = await writeXlsx(source(all), c.out, meta());
        return `${rows.toLocaleString()} rows, ${mb(c.bytes())}`;
      }),
    );
    results.push(
      await measure(`json, ${ROWS.toLocaleString()} rows`, async () => {
        let bytes = 0;
        for await (const chunk of jsonChunks(source(all))) bytes += Buffer.byteLength(chunk);
        return mb(bytes);
      }),
    );
    const pdfRows = Math.min(ROWS, PDF_MAX_ROWS);
    results.push(
      await measure(`pdf, ${pdfRows.toLocaleString()} rows (the cap)`, async () => {
        const pdf = await buildPdf(source(pdfOnly), meta());
        return mb(pdf.length);
      }),
    );
    console.table(
      results.map(({ label, seconds, heapGrowth, peakHeap, peakRss, result }) => ({
        report: label,
        seconds,
        heapGrowth,
        peakHeap,
        peakRss,
        output: result,
      })),
    );
    if (!global.gc) console.log('(run with NODE_OPTIONS=--expose-gc for steadier numbers)');
  } finally {
    await handle.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
