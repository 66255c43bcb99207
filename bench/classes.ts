/**
 * Classes benchmark (docs/scale.md#classes): on the scale data (60,000 students with one
 * enrolment each) plus 2,000 batches of 30 with two sessions a week over a year and a mark for
 * nearly every student on every session held (classes-seed.ts), the reads of the register and
 * the rates: one session's register, one student's rate, and the falling-behind list of a
 * branch and of one batch. Each is timed interleaved with a bare baseline in the same run:
 * hand-written SQL for the same rows through a plain postgres.js pool, so the machine's load
 * weighs on both alike (the falling-behind baseline reads the kept summaries too). First, a
 * branch's list is checked against the rates recomputed from every mark. The answer is the
 * medians and their ratio, and the plans EXPLAIN shows.
 * `npx tsx bench/classes.ts`; CLASS_BATCHES, CLASS_DAYS and the scale sizes (SCALE_USERS,
 * SCALE_ENROLLMENTS, SCALE_BRANCHES, ...) set the data; CLASS_RUNS the timed runs (default 15).
 */
import os from 'node:os';
import postgres from 'postgres';
import { sql } from 'drizzle-orm';
import {
  enrollmentAttendance,
  fallingBehind,
  getSessionAttendance,
} from '../src/server/domains/classes/attendance.service';
import type { ServiceContext } from '../src/server/domains/context';
import { attendanceStatsOf } from '../src/server/domains/classes/attendance.stats';
import { classSizesFromEnv, seedClasses } from './classes-seed';
import { withScaleDatabase, contextFor, interleaved, median, pct, rowsOf, superadmin } from './scale-context';
import { seedScale, sizesFromEnv } from './scale-seed';

const RUNS = Number(process.env.CLASS_RUNS ?? 15);
const TZ = 'Asia/Colombo';

/**
 * The falling-behind rows by hand: the roster places `where` selects (on bm, the place, and b,
 * its batch) with their kept summaries under the line, each with its student and what is owed.
 */
function baselineFalling(b: postgres.Sql, where: postgres.PendingQuery<postgres.Row[]>) {
  return b`
    select s.enrollment_id, s.present, s.late, s.absent, s.absent_in_a_row, u.full_name, b.name as batch_name,
           (select coalesce(sum(i.amount_minor), 0) from enrollment_installments i where i.enrollment_id = e.id and not i.is_paid)
             + case when e.admission_fee_paid then 0 else e.admission_fee_minor end as owed
      from batch_members bm
      join batches b on b.id = bm.batch_id
      join attendance_summaries s on s.enrollment_id = bm.enrollment_id
      join enrollments e on e.id = bm.enrollment_id
      left join users u on u.id = e.user_id
     where bm.status = 'member' and b.status = 'open' and ${where}
       and ((s.present + s.late) * 100.0 < 75 * (s.present + s.late + s.absent) or s.absent_in_a_row >= 3)
     order by (s.present + s.late) * 100.0 / nullif(s.present + s.late + s.absent, 0), u.full_name`;
}

async function main() {
  const sizes = {
    ...sizesFromEnv(),
    users: Number(process.env.SCALE_USERS ?? 100_000),
    enrollments: Number(process.env.SCALE_ENROLLMENTS ?? 60_000),
    branches: Number(process.env.SCALE_BRANCHES ?? 20),
    treatments: Number(process.env.SCALE_TREATMENTS ?? 10),
    bookings: Number(process.env.SCALE_BOOKINGS ?? 100),
  };
  const cls = classSizesFromEnv();
  await withScaleDatabase('classes', async ({ handle, bare }) => {
    console.log('Generating data:', sizes, cls);
    const t0 = performance.now();
    await seedScale(handle.db, sizes, { ledger: false });
    await seedClasses(handle.db, cls, TZ);
    console.log(`Data ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    console.table(
      rowsOf(
        await handle.db.execute(
          sql`select (select count(*) from batches) as batches, (select count(*) from batch_members) as students,
                     (select count(*) from class_sessions) as sessions, (select count(*) from attendance_marks) as marks,
                     (select count(*) from branches) as branches`,
        ),
      ),
    );

    // The first branch, its first batch, that batch's last session held, and one of its students.
    const [pick] = rowsOf<{ branch_id: string; batch_id: string; session_id: string; enrollment_id: string }>(
      await handle.db.execute(sql`
        select b.branch_id, b.id as batch_id,
               (select id from class_sessions where batch_id = b.id and status = 'scheduled' and start_at <= now()
                 order by start_at desc limit 1) as session_id,
               (select enrollment_id from batch_members where batch_id = b.id order by enrollment_id limit 1) as enrollment_id
          from batches b join branches br on br.id = b.branch_id
         order by br.name, b.name limit 1`),
    );
    if (!pick?.session_id || !pick.enrollment_id) throw new Error('no held session was generated');
    const [{ day = '' } = {}] = rowsOf<{ day: string }>(
      await handle.db.execute(sql`select day::text as day from class_sessions where id = ${pick.session_id}`),
    );

    const b = bare;
    const ctx: ServiceContext = contextFor(handle, await superadmin(handle.db));
    // The list read from the kept summaries is the one the rates give when recomputed.
    const listed = await fallingBehind(ctx, { branchId: pick.branch_id });
    const recomputed = await attendanceStatsOf(
      handle.db,
      sql`select bm.enrollment_id, bm.batch_id, bm.joined_on from batch_members bm join batches bt on bt.id = bm.batch_id
           where bm.status = 'member' and bt.status = 'open' and bt.branch_id = ${pick.branch_id}`,
    );
    const want = [...recomputed]
      .filter(([, f]) => (f.rate !== null && f.rate < listed.threshold) || f.absentInARow >= 3)
      .map(([id, f]) => `${id} ${f.rate} ${f.absentInARow}`)
      .sort();
    const got = listed.data.map((r) => `${r.enrollmentId} ${r.rate} ${r.absentInARow}`).sort();
    if (JSON.stringify(want) !== JSON.stringify(got))
      throw new Error(`the summaries' list differs from the recomputed rates (${got.length} vs ${want.length})`);
    console.log(`A branch's list from the summaries equals the recomputed rates: ${got.length} students.`);
    const cases: Array<{ name: string; product: () => Promise<unknown>; baseline: () => Promise<unknown> }> = [
      {
        name: "a session's register",
        product: () => getSessionAttendance(ctx, pick.session_id),
        // The session with its batch, instructor and room; the roster of its day (and anyone
        // marked on it) with each one's mark, in name order.
        baseline: () =>
          Promise.all([
            b`select cs.id, cs.start_at, cs.end_at, cs.day, cs.status, cs.reason, bt.id as batch_id, bt.name,
                     iu.id as instructor_id, iu.full_name, r.id as room_id, r.name as room_name
                from class_sessions cs join batches bt on bt.id = cs.batch_id
                left join users iu on iu.id = cs.instructor_id left join rooms r on r.id = cs.room_id
               where cs.id = ${pick.session_id}`,
            b`select e.id, u.id as user_id, u.full_name, a.status, a.note
                from (select enrollment_id from batch_members
                       where batch_id = ${pick.batch_id} and status = 'member' and joined_on <= ${day}
                      union select enrollment_id from attendance_marks where session_id = ${pick.session_id}) x
                join enrollments e on e.id = x.enrollment_id
                left join users u on u.id = e.user_id
                left join attendance_marks a on a.session_id = ${pick.session_id} and a.enrollment_id = e.id
               order by u.full_name, e.id`,
          ]),
      },
      {
        name: "a student's rate",
        product: () => enrollmentAttendance(ctx, pick.enrollment_id),
        // The held sessions since joining with the student's mark on each (the counts follow from them).
        baseline: () => b`
          select cs.id, cs.start_at, a.status
            from batch_members m
            join class_sessions cs on cs.batch_id = m.batch_id and cs.day >= m.joined_on
            left join attendance_marks a on a.session_id = cs.id and a.enrollment_id = m.enrollment_id
           where m.enrollment_id = ${pick.enrollment_id} and m.status = 'member'
             and cs.status = 'scheduled' and cs.start_at <= now()
           order by cs.start_at, cs.id`,
      },
      {
        name: "falling behind: a branch's",
        product: () => fallingBehind(ctx, { branchId: pick.branch_id }),
        baseline: () => baselineFalling(b, b`b.branch_id = ${pick.branch_id}`),
      },
      {
        name: "falling behind: one batch's",
        product: () => fallingBehind(ctx, { batchId: pick.batch_id }),
        baseline: () => baselineFalling(b, b`b.id = ${pick.batch_id}`),
      },
    ];

    const rows = [];
    for (const c of cases) {
      await c.product(); // warm-up
      await c.baseline();
      const { a, b: base } = await interleaved(RUNS, c.product, c.baseline);
      rows.push({
        read: c.name,
        productMedianMs: Number(median(a).toFixed(1)),
        productP95Ms: Number(pct(a, 95).toFixed(1)),
        baselineMedianMs: Number(median(base).toFixed(1)),
        ratio: Number((median(a) / median(base)).toFixed(2)),
        under100ms: median(a) < 100,
      });
      console.log(`  ${c.name}: product ${median(a).toFixed(1)} ms, baseline ${median(base).toFixed(1)} ms`);
    }
    console.log(`\nMedian of ${RUNS} warm runs each, interleaved with the bare baseline:`);
    console.table(rows);
    console.log(
      `Load average (1, 5, 15 min) after the runs: ${os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(', ')}`,
    );

    console.log('\nPlans of the main statements:');
    const plans: Array<[string, string]> = [
      [
        "register's roster",
        `select e.id from enrollments e left join attendance_marks a on a.enrollment_id = e.id and a.session_id = '${pick.session_id}'
          where e.id in (select enrollment_id from batch_members where batch_id = '${pick.batch_id}' and status = 'member' and joined_on <= '${day}')
             or a.session_id is not null`,
      ],
      [
        "a branch's falling-behind candidates (the kept summaries)",
        `select bm.enrollment_id from batch_members bm join batches b on b.id = bm.batch_id
           join attendance_summaries s on s.enrollment_id = bm.enrollment_id
          where bm.status = 'member' and b.status = 'open' and b.branch_id = '${pick.branch_id}'
            and (s.absent_in_a_row >= 3 or (s.present + s.late) * 100.0 < 75.05 * (s.present + s.late + s.absent))`,
      ],
      [
        "a branch's held sessions with marks (what the rates read)",
        `select m.enrollment_id, cs.start_at, a.status from batch_members m join batches bt on bt.id = m.batch_id
           join class_sessions cs on cs.batch_id = m.batch_id and cs.day >= m.joined_on
           left join attendance_marks a on a.session_id = cs.id and a.enrollment_id = m.enrollment_id
          where bt.branch_id = '${pick.branch_id}' and m.status = 'member' and cs.status = 'scheduled' and cs.start_at <= now()`,
      ],
    ];
    for (const [name, q] of plans) {
      const plan = rowsOf<Record<string, string>>(await bare.unsafe(`explain (analyze, costs off, timing off) ${q}`));
      console.log(`-- ${name}\n${plan.map((r) => Object.values(r)[0]).join('\n')}\n`);
    }
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
