import { once } from 'node:events';
import { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../../../shared/format';
import type { ReportColumn, ReportSource } from './report-source';
import { dateTimeCells, SHEET_BACKLOG_LIMIT, sheetBacklog, sheetCaughtUp, writeXlsx } from './report-writers';

describe('dateTimeCells', () => {
  it('shows what formatDateTime shows for rows in time order, across daylight-saving changes', () => {
    const zones = ['Asia/Colombo', 'America/New_York', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'Europe/London'];
    // Around the 2026 changes (March, April, October, November) and an old instant with a
    // seconds offset (Colombo before 1906), every 37 s for three hours, as ISO strings.
    const starts = ['2026-03-08T05:00:00Z', '2026-04-04T14:00:00Z', '2026-10-25T00:00:00Z', '2026-11-01T05:00:00Z'];
    for (const timeZone of zones) {
      const cell = dateTimeCells(timeZone);
      for (const start of [...starts, '1900-01-01T00:00:00Z']) {
        const t0 = Date.parse(start);
        for (let t = t0; t < t0 + 3 * 3600_000; t += 37_000) {
          const iso = new Date(t).toISOString();
          expect(cell(iso)).toBe(formatDateTime(iso, timeZone));
        }
      }
      expect(cell('not a date')).toBe(formatDateTime('not a date', timeZone));
    }
  });
});

describe('sheetCaughtUp', () => {
  /** A workbook streaming into memory, with one text-heavy sheet. */
  function workbook() {
    const chunks: Buffer[] = [];
    const out = new Writable({
      write: (chunk: Buffer, _enc, done) => {
        chunks.push(chunk);
        done();
      },
    });
    const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
    const sheet = book.addWorksheet('Rows');
    const addRows = (from: number, n: number) => {
      for (let i = from; i < from + n; i++) sheet.addRow([`Course ${i}`, `Branch ${i % 5}`, i * 3.5]).commit();
    };
    const finish = async () => {
      sheet.commit();
      await book.commit();
      if (!out.writableFinished) await once(out, 'finish');
      return Buffer.concat(chunks);
    };
    return { sheet, addRows, finish, sink: out };
  }

  it("sees exceljs's queue to the zip grow when rows come faster than it compresses them", async () => {
    const { sheet, addRows, finish } = workbook();
    addRows(0, 20_000); // about 1.5 MB of XML in one go, faster than zlib takes it
    // Were exceljs to move this queue, the reading would be 0 and the writer's wait would do nothing.
    expect(sheetBacklog(sheet)).toBeGreaterThan(SHEET_BACKLOG_LIMIT);
    await finish();
  });

  it('waits until the zip has compressed the sheet down to the limit, and the file keeps every row', async () => {
    const { sheet, addRows, finish, sink } = workbook();
    const limit = 64 * 1024;
    const closeListeners = sink.listenerCount('close');
    let worst = 0;
    for (let batch = 0; batch < 10; batch++) {
      addRows(batch * 2000, 2000); // about 150 kB a batch: over the limit every time
      await sheetCaughtUp(sheet, sink, limit);
      worst = Math.max(worst, sheetBacklog(sheet));
    }
    expect(worst).toBeLessThanOrEqual(limit);
    // Ten waits leave no listener of their own behind.
    expect(sink.listenerCount('close')).toBe(closeListeners);
    const read = new ExcelJS.Workbook();
    await read.xlsx.load((await finish()) as unknown as ArrayBuffer);
    const rows = read.getWorksheet('Rows');
    expect(rows?.rowCount).toBe(20_000);
    expect(rows?.getRow(20_000).getCell(1).value).toBe('Course 19999');
  });
});

describe('writeXlsx', () => {
  const columns: ReportColumn[] = [
    { key: 'name', header: 'Name', type: 'text', width: 20 },
    { key: 'fee', header: 'Fee', type: 'money', width: 12 },
  ];
  /** A source of `batches` batches of 1,000 rows that counts how many were read. */
  function source(batches: number) {
    const read = { batches: 0 };
    const src: ReportSource = {
      title: 'Courses',
      fileBase: 'courses',
      columns,
      filterLines: [],
      count: () => Promise.resolve(batches * 1000),
      async *batches(size) {
        for (let b = 0; b < batches; b++) {
          read.batches++;
          yield Array.from({ length: size }, (_, i) => ({ name: `Course ${b * size + i}`, fee: i }));
        }
      },
      totals: () => Promise.resolve([]),
    };
    return { src, read };
  }

  it('stops reading rows once the download is closed, instead of waiting for a reader that left', async () => {
    const { src, read } = source(200);
    let received = 0;
    const out = new Writable({
      write: (chunk: Buffer, _enc, done) => {
        received += chunk.length;
        done();
        // The browser closes the download after its first 100 kB, as Fastify then destroys the body.
        if (received > 100_000 && !out.destroyed) out.destroy();
      },
    });
    const written = await writeXlsx(src, out, { generatedAt: new Date(), timeZone: 'UTC' });
    expect(written).toBeLessThan(200_000);
    expect(read.batches).toBeLessThan(200);
  });

  it('fails with the error that stopped the file being stored', async () => {
    const { src } = source(50);
    let received = 0;
    const out = new Writable({
      write: (chunk: Buffer, _enc, done) => {
        received += chunk.length;
        done(received > 100_000 ? new Error('the database refused the piece') : undefined);
      },
    });
    out.on('error', () => {}); // exceljs's zip writes to it too; the writer reports the error
    await expect(writeXlsx(src, out, { generatedAt: new Date(), timeZone: 'UTC' })).rejects.toThrow(
      'the database refused the piece',
    );
  });
});
