/**
 * Header search benchmark: `search.global`'s service on the scale data (bench/scale-seed.ts, 100,000
 * users by default), against a bare baseline in the same run: one hand-written SQL statement that
 * finds five people by name, username or e-mail, sent through a plain postgres.js pool. The two are
 * timed interleaved (scale-context.ts `interleaved`), so the machine's load weighs on both alike.
 * `npx tsx bench/search.ts`; sizes as bench/scale.ts (SCALE_USERS, SCALE_ENROLLMENTS, ...),
 * SEARCH_RUNS timed runs per text (default 15, after one warm-up). Results: docs/scale.md#header-search.
 */
import postgres from 'postgres';
import { sql } from 'drizzle-orm';
import { globalSearch } from '../src/server/domains/search/search.service';
import type { ServiceContext } from '../src/server/domains/context';
import { containsPattern } from '../src/server/domains/sql-conditions';
import { withScaleDatabase, contextFor, interleaved, median, pct, rowsOf, superadmin } from './scale-context';
import { seedScale, sizesFromEnv } from './scale-seed';

const RUNS = Number(process.env.SEARCH_RUNS ?? 15);

/** What a front desk types: names common and rare, a username, an e-mail, a phone, receipts, a course. */
function texts(receipt: string): Array<{ name: string; q: string }> {
  return [
    { name: 'common surname', q: 'perera' },
    { name: 'first and last name', q: 'nadeesha wick' },
    { name: 'username (rare)', q: 'user4242' },
    { name: 'whole e-mail', q: 'user77001@example.com' },
    { name: 'phone digits', q: '0700031337' },
    { name: 'receipt number', q: receipt },
    { name: 'receipt series start', q: receipt.slice(0, 8) },
    { name: 'course name', q: 'yoga' },
    { name: 'two characters', q: 'an' },
  ];
}

/** The baseline: five people whose name, username or e-mail contains the text, by name. */
function baseline(bare: postgres.Sql, q: string) {
  const p = containsPattern(q);
  return bare`select id, full_name, username, email from users
              where full_name ilike ${p} or username ilike ${p} or email ilike ${p}
              order by full_name, id limit 5`;
}

async function main() {
  const sizes = sizesFromEnv();
  await withScaleDatabase('search', async ({ handle, bare }) => {
    console.log('Generating data:', sizes);
    const t0 = performance.now();
    await seedScale(handle.db, sizes);
    await handle.db.execute(sql`analyze`);
    console.log(`Data ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const counts = await handle.db.execute(
      sql`select (select count(*) from users) as users, (select count(*) from payments) as payments,
                 (select count(*) from enrollments) as enrollments, (select count(*) from treatment_bookings) as bookings`,
    );
    console.table(rowsOf(counts));
    const [receipt] = rowsOf<{ n: string }>(
      await handle.db.execute(sql`select receipt_number as n from payments order by received_at desc limit 1`),
    );

    const ctx: ServiceContext = contextFor(handle, await superadmin(handle.db));
    const rows = [];
    const all = { search: [] as number[], base: [] as number[] };
    for (const { name, q } of texts(receipt?.n ?? 'GAL-2026-000001')) {
      const pool = bare;
      const hits = (await globalSearch(ctx, { q })).data.length; // warm-up
      await baseline(pool, q);
      const { a, b } = await interleaved(
        RUNS,
        () => globalSearch(ctx, { q }),
        () => baseline(pool, q),
      );
      all.search.push(...a);
      all.base.push(...b);
      rows.push({
        text: `${name} "${q}"`,
        hits,
        searchMedianMs: Number(median(a).toFixed(1)),
        searchP95Ms: Number(pct(a, 95).toFixed(1)),
        baselineMedianMs: Number(median(b).toFixed(1)),
        ratio: Number((median(a) / median(b)).toFixed(2)),
      });
    }
    console.log(`\nMedian of ${RUNS} warm runs per text, interleaved with the bare baseline:`);
    console.table(rows);
    console.log(
      `All texts: search median ${median(all.search).toFixed(1)} ms (p95 ${pct(all.search, 95).toFixed(1)}), ` +
        `baseline median ${median(all.base).toFixed(1)} ms, ratio ${(median(all.search) / median(all.base)).toFixed(2)}`,
    );
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
