/**
 * Calendar benchmark (docs/scale.md#calendar): on the scale data plus 200 practitioners over 20
 * branches and about a million appointments over two years (appointments-seed.ts), the four
 * reads the front desk makes all day: a branch's day view, a practitioner's week, Today, and 14
 * days of availability for one treatment. Each is timed interleaved with a bare baseline in the
 * same run: hand-written SQL for the same rows through a plain postgres.js pool, so the machine's
 * load weighs on both alike. The answer is the medians and their ratio, and the plans EXPLAIN
 * shows for the product's main statements.
 * `npx tsx bench/appointments.ts`; CAL_PRACTITIONERS, CAL_DAYS, CAL_ROOMS and the scale sizes
 * (SCALE_USERS, SCALE_BOOKINGS, ...) set the data; CAL_RUNS the timed runs (default 15).
 */
import postgres from 'postgres';
import { sql } from 'drizzle-orm';
import { addToDate, todayIn } from '../src/shared/calendar';
import {
  availability,
  listAppointments,
  todaysAppointments,
} from '../src/server/domains/appointments/appointments.read';
import type { ServiceContext } from '../src/server/domains/context';
import { calendarSizesFromEnv, seedCalendar } from './appointments-seed';
import { withScaleDatabase, contextFor, interleaved, median, pct, rowsOf, superadmin } from './scale-context';
import { seedScale, sizesFromEnv } from './scale-seed';

const RUNS = Number(process.env.CAL_RUNS ?? 15);
const TZ = 'Asia/Colombo';

/** The rows a calendar shows, with the names it prints: the baseline of the list reads. */
function baselineList(bare: postgres.Sql, where: postgres.PendingQuery<postgres.Row[]>) {
  return bare`
    select a.id, a.start_at, a.end_at, a.status, a.note, a.booking_id, u.id as customer_id, u.username, u.email,
           coalesce(t.treatment_name, b.treatment_name) as treatment_name, p.id as practitioner_id,
           pu.full_name as practitioner_name, r.id as room_id, r.name as room_name, br.id as branch_id, br.name as branch_name
    from appointments a
    join treatment_bookings b on b.id = a.booking_id
    left join users u on u.id = a.customer_id
    left join treatments t on t.id = a.treatment_id
    join practitioners p on p.id = a.practitioner_id
    join users pu on pu.id = p.user_id
    left join rooms r on r.id = a.room_id
    join branches br on br.id = a.branch_id
    where ${where}
    order by a.start_at, a.id`;
}

async function main() {
  const sizes = { ...sizesFromEnv(), branches: Number(process.env.SCALE_BRANCHES ?? 20) };
  const cal = calendarSizesFromEnv();
  await withScaleDatabase('calendar', async ({ handle, bare }) => {
    console.log('Generating data:', sizes, cal);
    const t0 = performance.now();
    await seedScale(handle.db, sizes, { ledger: false });
    await seedCalendar(handle.db, cal, TZ);
    console.log(`Data ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    console.table(
      rowsOf(
        await handle.db.execute(
          sql`select (select count(*) from appointments) as appointments, (select count(*) from practitioners) as practitioners,
                     (select count(*) from branches) as branches, (select count(*) from treatment_bookings) as bookings`,
        ),
      ),
    );

    // The busiest branch, one of its practitioners, and a treatment they deliver there.
    const [pick] = rowsOf<{ branch_id: string; practitioner_id: string; treatment_id: string }>(
      await handle.db.execute(sql`
        select pb.branch_id, pb.practitioner_id, pt.treatment_id
        from practitioner_branches pb join practitioner_treatments pt on pt.practitioner_id = pb.practitioner_id
        order by pb.branch_id, pb.practitioner_id, pt.treatment_id limit 1`),
    );
    if (!pick) throw new Error('no practitioner was generated');
    const today = todayIn(TZ);
    // A working day next week (the seed's plans run Monday to Saturday).
    let day = addToDate(today, { days: 7 });
    while (new Date(`${day}T12:00:00Z`).getUTCDay() === 0) day = addToDate(day, { days: 1 });
    const weekEnd = addToDate(day, { days: 6 });
    const dayFrom = `${day}T00:00:00+05:30`;
    const dayTo = `${addToDate(day, { days: 1 })}T00:00:00+05:30`;
    const todayFrom = `${today}T00:00:00+05:30`;
    const todayTo = `${addToDate(today, { days: 1 })}T00:00:00+05:30`;
    const weekTo = `${addToDate(weekEnd, { days: 1 })}T00:00:00+05:30`;

    const b = bare;
    const ctx: ServiceContext = contextFor(handle, await superadmin(handle.db));
    const cases: Array<{ name: string; product: () => Promise<unknown>; baseline: () => Promise<unknown> }> = [
      {
        name: "branch's day view",
        product: () => listAppointments(ctx, { from: day, to: day, branchId: pick.branch_id }),
        baseline: () =>
          baselineList(b, b`a.branch_id = ${pick.branch_id} and a.start_at >= ${dayFrom} and a.start_at < ${dayTo}`),
      },
      {
        name: "practitioner's week",
        product: () => listAppointments(ctx, { from: day, to: weekEnd, practitionerId: pick.practitioner_id }),
        baseline: () =>
          baselineList(
            b,
            b`a.practitioner_id = ${pick.practitioner_id} and a.start_at >= ${dayFrom} and a.start_at < ${weekTo}`,
          ),
      },
      {
        name: 'Today (with what each owes)',
        product: () => todaysAppointments(ctx, { branchId: pick.branch_id }),
        // The day's rows and, in the same statement, each booking's unpaid installments.
        baseline: () => b`
          select a.id, a.start_at, a.status, a.booking_id,
                 (select coalesce(sum(i.amount_minor - i.amount_paid_minor), 0) from booking_installments i where i.booking_id = a.booking_id) as owed
          from appointments a
          where a.branch_id = ${pick.branch_id} and a.start_at >= ${todayFrom} and a.start_at < ${todayTo}
          order by a.start_at, a.id`,
      },
      {
        name: '14 days of availability',
        product: () =>
          availability(ctx, {
            treatmentId: pick.treatment_id,
            branchId: pick.branch_id,
            from: day,
            to: addToDate(day, { days: 13 }),
          }),
        // What availability must read: the plans of the treatment's practitioners at the branch
        // and their appointments in the window (the slot arithmetic itself is left to the product).
        baseline: () =>
          Promise.all([
            b`select w.* from working_periods w
              join practitioner_treatments pt on pt.practitioner_id = w.practitioner_id and pt.treatment_id = ${pick.treatment_id}
              where w.branch_id = ${pick.branch_id}`,
            b`select a.practitioner_id, a.start_at, a.blocked_until from appointments a
              join practitioner_treatments pt on pt.practitioner_id = a.practitioner_id and pt.treatment_id = ${pick.treatment_id}
              where a.start_at < ${`${addToDate(day, { days: 15 })}T00:00:00+05:30`}
                and a.start_at > ${`${addToDate(day, { days: -2 })}T00:00:00+05:30`}
                and a.blocked_until > ${`${addToDate(day, { days: -1 })}T00:00:00+05:30`}
                and a.status in ('scheduled', 'confirmed', 'arrived', 'completed')`,
          ]),
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
    }
    console.log(`\nMedian of ${RUNS} warm runs each, interleaved with the bare baseline:`);
    console.table(rows);

    console.log('\nPlans of the main statements:');
    const plans: Array<[string, string]> = [
      [
        "day view's rows",
        `select id from appointments where branch_id = '${pick.branch_id}' and start_at >= '${dayFrom}' and start_at < '${dayTo}' order by start_at, id`,
      ],
      [
        "week's rows",
        `select id from appointments where practitioner_id = '${pick.practitioner_id}' and start_at >= '${dayFrom}' and start_at < '${weekTo}' order by start_at, id`,
      ],
      [
        "availability's appointments",
        `select practitioner_id, start_at, blocked_until from appointments where practitioner_id = '${pick.practitioner_id}' and start_at < '${weekTo}' and start_at > timestamptz '${dayFrom}' - interval '1 day' and blocked_until > '${dayFrom}' and status in ('scheduled','confirmed','arrived','completed')`,
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
