/**
 * The courses the report benchmarks read (`bench/http/reports.ts`, `bench/reports-cpu.ts`): rows
 * `from`..`to`, one second apart; the first PDF_MAX_ROWS form the category of the largest PDF.
 */
import { sql } from 'drizzle-orm';
import { openDatabase } from '../src/server/db/client';
import { PDF_MAX_ROWS } from '../src/server/domains/reports/report-writers';

export async function insertCourses(databaseUrl: string, from: number, to: number) {
  const handle = await openDatabase({ databaseUrl, dataDir: '', max: 1 });
  try {
    // The first PDF_MAX_ROWS rows form the category of the largest PDF allowed.
    await handle.db.execute(sql`
      insert into courses (course_name, duration, total_fee_minor, installments, category, admission_fee_minor, description, created_at)
      select 'Benchmark course number ' || g, (1 + g % 12) || ' months', 100000 + g, 1 + g % 6,
             case when g <= ${PDF_MAX_ROWS}::int then 'BenchPdf' else 'Bench' end, 500,
             'A course created by the report benchmark to measure memory and time.',
             now() - make_interval(secs => 1000000 - g)
      from generate_series(${from}::int, ${to}::int) g`);
    await handle.db.execute(sql`analyze courses`);
  } finally {
    await handle.close();
  }
}
