/**
 * CPU of the Excel and PDF report writers against the bare scripts' loops, in one process, on a
 * throwaway PostgreSQL: CPU time (`process.cpuUsage()`, user + system) per 10,000 rows, which a
 * busy shared machine disturbs far less than wall-clock time. Runs interleaved (product, bare,
 * product, bare, ...) and prints the medians; PostgreSQL's own CPU is not counted (another process).
 *
 *   npx tsx bench/reports-cpu.ts [rows=50000] [runs=3] [parts=xlsx,source,writer,pdf]
 *
 * Parts: `xlsx` the course list through `writeXlsx` (as streamed in the request) against
 * bench/baseline/excel.ts's loop; `source` only reading the rows (the product's keyset batches
 * against the bare postgres.js cursor); `writer` only writing (the same rows from memory); `pdf`
 * the course list at PDF_MAX_ROWS through `buildPdf` against bench/baseline/pdf.ts's loop.
 * SIDE=product (or bare) runs one side only, for a profile:
 * `SIDE=product node --cpu-prof --import tsx bench/reports-cpu.ts 50000 3 xlsx`, then
 * `npx tsx bench/http/profile-summary.ts <file>.cpuprofile`.
 */
import { once } from 'node:events';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { jsPDF } from 'jspdf';
import type { RowInput } from 'jspdf-autotable';
import postgres from 'postgres';
import { sql } from 'drizzle-orm';
import { startPostgresCluster } from '../tests/setup/services';
import { postgresCpuMs, postmasterOf } from './proc-cpu';
import { openDatabase } from '../src/server/db/client';
import { courseListSource } from '../src/server/domains/reports/course-report-sources';
import { buildPdf, PDF_MAX_ROWS, writeXlsx } from '../src/server/domains/reports/report-writers';
import type { ReportRow, ReportSource } from '../src/server/domains/reports/report-source';
import { courseRows, coursePdfTable, courseSheet, dateTimeText, type Cells } from './baseline/report-common';
import { insertCourses } from './reports-data';

const rows = Number(process.argv[2] ?? 50_000);
const runs = Number(process.argv[3] ?? 3);
const parts = (process.argv[4] ?? 'xlsx,source,writer,pdf').split(',');
const TZ = process.env.TIME_ZONE ?? 'Asia/Colombo';

/** A sink that takes every chunk at once, like a fast client. */
function sink(): Writable {
  return new Writable({
    write(_chunk: Buffer, _enc, cb) {
      cb();
    },
  });
}

interface Cpu {
  node: number;
  pg: number;
  /** The longest time the event loop was blocked (ms): what a BullMQ job lock or a web request waits. */
  block: number;
  /** Wall-clock ms, for comparison only: the machine's load moves it. */
  wall: number;
}

async function cpuMs(fn: () => Promise<unknown>, postmaster: number): Promise<Cpu> {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const c0 = process.cpuUsage();
  const p0 = postgresCpuMs(postmaster);
  const t0 = performance.now();
  await fn();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  loop.disable();
  return { node: (c.user + c.system) / 1000, pg: postgresCpuMs(postmaster) - p0, block: loop.max / 1e6, wall };
}

const pg = await startPostgresCluster('reports-cpu-');
if (!pg) throw new Error('PostgreSQL binaries (initdb, pg_ctl) not found');
const handle = await openDatabase({ databaseUrl: pg.url, dataDir: '', max: 2 });
const bareSql = postgres(pg.url, { max: 1, onnotice: () => {}, connection: { jit: 'off' } });
try {
  await handle.migrate();
  await handle.db.execute(sql`insert into settings (id) values (1) on conflict do nothing`);
  const n = Math.max(rows, parts.includes('pdf') ? PDF_MAX_ROWS : 0);
  await insertCourses(pg.url, 1, n);
  const postmaster = await postmasterOf(bareSql);
  const limit = (s: ReportSource, max: number): ReportSource => ({
    ...s,
    async *batches(size) {
      let seen = 0;
      for await (const b of s.batches(size)) {
        if (seen >= max) return;
        yield b.slice(0, max - seen);
        seen += b.length;
      }
    },
  });
  const product = (category?: string) => courseListSource(handle.db, TZ, category ? { category } : {}, undefined);
  const meta = () => ({ generatedAt: new Date(), timeZone: TZ });

  async function bareXlsx(source: AsyncIterable<Cells[]>, max: number) {
    const out = sink();
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
    const sheet = courseSheet(workbook);
    let seen = 0;
    for await (const batch of source) {
      for (const r of batch) if (seen++ < max) sheet.addRow(r).commit();
      if (out.writableNeedDrain) await once(out, 'drain');
    }
    sheet.commit();
    await workbook.commit();
  }

  // The rows once, in memory, for the writer-only part (both sides get the same cells).
  const cached: { product: ReportRow[][]; bare: Cells[][] } = { product: [], bare: [] };
  if (parts.includes('writer')) {
    for await (const b of limit(product(), rows).batches(1000)) cached.product.push(b);
    let seen = 0;
    for await (const b of courseRows(bareSql)) if ((seen += b.length) <= rows) cached.bare.push(b);
  }
  const fromMemory = (batches: ReportRow[][], s: ReportSource): ReportSource => ({
    ...s,
    async *batches() {
      yield* batches;
    },
  });
  async function* bareFromMemory() {
    yield* cached.bare;
  }

  const sides: Record<string, { product: () => Promise<unknown>; bare: () => Promise<unknown>; rows: number }> = {
    xlsx: {
      rows,
      product: () => writeXlsx(limit(product(), rows), sink(), meta()),
      bare: () => bareXlsx(courseRows(bareSql), rows),
    },
    source: {
      rows,
      product: async () => {
        for await (const _ of limit(product(), rows).batches(1000));
      },
      bare: async () => {
        let seen = 0;
        for await (const b of courseRows(bareSql)) if ((seen += b.length) >= rows) break;
      },
    },
    writer: {
      rows,
      product: () => writeXlsx(fromMemory(cached.product, product()), sink(), meta()),
      bare: () => bareXlsx(bareFromMemory(), rows),
    },
    pdf: {
      rows: PDF_MAX_ROWS,
      product: () => buildPdf(product('BenchPdf'), meta()),
      bare: async () => {
        // bench/baseline/pdf.ts's document: page, table styles, totals, page numbers.
        const doc = new jsPDF({ orientation: 'landscape', unit: 'mm', format: 'a4' });
        const amount = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
        doc.setFontSize(16);
        doc.text('Course List', 14, 16);
        doc.setFontSize(9);
        doc.text([`Generated: ${dateTimeText(new Date())} (${TZ})`, 'Filters: Category: BenchPdf'], 14, 23);
        const body: RowInput[] = [];
        let total = 0;
        let admission = 0;
        for await (const batch of courseRows(bareSql, 'BenchPdf'))
          for (const r of batch) {
            body.push([r[0], r[1], r[2], amount.format(r[3]), amount.format(r[4]), String(r[5]), r[6]]);
            total += r[3];
            admission += r[4];
          }
        coursePdfTable(doc, body, [['Total', '', '', amount.format(total), amount.format(admission), '', '']]);
        return doc.output('arraybuffer');
      },
    },
  };

  for (const part of parts) {
    const side = sides[part];
    if (!side) throw new Error(`unknown part ${part}`);
    const times = { product: [] as Cpu[], bare: [] as Cpu[] };
    const only = process.env.SIDE;
    const product = only === 'bare' ? () => Promise.resolve() : side.product;
    const bare = only === 'product' ? () => Promise.resolve() : side.bare;
    await product(); // warm-up: JIT, first queries
    await bare();
    for (let i = 0; i < runs; i++) {
      times.product.push(await cpuMs(product, postmaster));
      times.bare.push(await cpuMs(bare, postmaster));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const per10k = (ms: number) => Math.round((ms * 10_000) / side.rows);
    const line = (what: 'node' | 'pg' | 'block' | 'wall') => {
      const p = median(times.product.map((t) => t[what]));
      const b = median(times.bare.map((t) => t[what]));
      const all = (xs: Cpu[]) => xs.map((t) => Math.round(t[what])).join(', ');
      const runsText = `[product ${all(times.product)}; bare ${all(times.bare)} ms]`;
      if (what === 'wall') return `  wall-clock: product ${per10k(p)}, bare ${per10k(b)} ms / 10k rows  ${runsText}`;
      if (what === 'block')
        return `  longest event-loop block: product ${Math.round(p)} ms, bare ${Math.round(b)} ms  ${runsText}`;
      return `  ${what === 'node' ? 'this process' : 'PostgreSQL  '}: product ${per10k(p)}, bare ${per10k(b)} ms CPU / 10k rows, ratio ${(p / b).toFixed(2)}  ${runsText}`;
    };
    console.log(
      `${part} (${side.rows.toLocaleString('en-US')} rows), medians of ${runs}:\n${line('node')}\n${line('pg')}\n${line('block')}\n${line('wall')}`,
    );
  }
} finally {
  await bareSql.end();
  await handle.close();
  await pg.remove();
}
