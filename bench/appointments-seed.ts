/**
 * Calendar data for the appointments benchmark, on top of the scale data (scale-seed.ts):
 * practitioners spread over the branches, each with a Monday-to-Saturday plan of two periods,
 * rooms, and one appointment per hour of every working period over two years (a year back, a
 * year ahead). Generated inside PostgreSQL, deterministic: every choice is arithmetic on numbers.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../src/server/db/client';
import { rowsOf } from './scale-context';

export interface CalendarSizes {
  practitioners: number;
  /** Days of appointments, centred on today. */
  days: number;
  roomsPerBranch: number;
}

export function calendarSizesFromEnv(env = process.env): CalendarSizes {
  const n = (name: string, dflt: number) => {
    const v = Number(env[name] ?? dflt);
    if (!Number.isInteger(v) || v < 1) throw new Error(`${name} must be a positive whole number`);
    return v;
  };
  return {
    practitioners: n('CAL_PRACTITIONERS', 200),
    days: n('CAL_DAYS', 730),
    roomsPerBranch: n('CAL_ROOMS', 5),
  };
}

async function step(name: string, fn: () => Promise<unknown>) {
  const t0 = performance.now();
  await fn();
  console.log(`  ${name}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

export async function seedCalendar(db: Db, s: CalendarSizes, timeZone: string): Promise<void> {
  const hash = '$argon2id$v=19$m=19456,t=2,p=1$YmVuY2htYXJrc2FsdA$0000000000000000000000000000000000000000000';
  await db.execute(
    sql`create unlogged table bench_branches as select id, row_number() over (order by name) - 1 as rn from branches`,
  );
  const [{ n: branchCount } = { n: 1 }] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from bench_branches`),
  );
  await step(`${s.practitioners} practitioners`, async () => {
    await db.execute(sql`
      insert into users (username, full_name, email, password_hash, role, branch_id)
      select 'therapist' || g, 'Therapist ' || g, 'therapist' || g || '@example.com', ${hash}, 'manager', b.id
      from generate_series(0, ${s.practitioners - 1}) g join bench_branches b on b.rn = g % ${branchCount}`);
    await db.execute(sql`
      insert into practitioners (user_id, color)
      select id, (array['#2563eb','#16a34a','#dc2626','#9333ea','#ea580c'])[1 + (substring(username from 10)::int % 5)]
      from users where username like 'therapist%'`);
    await db.execute(sql`
      create unlogged table bench_practitioners as
      select p.id, u.branch_id, (substring(u.username from 10))::int as rn
      from practitioners p join users u on u.id = p.user_id`);
    await db.execute(sql`insert into practitioner_branches select id, branch_id from bench_practitioners`);
    // Ten treatments each, overlapping between neighbours so a treatment has several practitioners.
    await db.execute(sql`
      with t as (select id, row_number() over (order by id) - 1 as rn, count(*) over () as c from treatments)
      insert into practitioner_treatments (practitioner_id, treatment_id)
      select distinct p.id, t.id from bench_practitioners p cross join generate_series(0, 9) k
      join t on t.rn = (p.rn * 7 + k) % t.c`);
    await db.execute(sql`
      insert into working_periods (practitioner_id, branch_id, weekday, start_minute, end_minute)
      select p.id, p.branch_id, d, m.s, m.e from bench_practitioners p cross join generate_series(1, 6) d
      cross join (values (540, 780), (840, 1080)) m(s, e)`);
  });
  await step(`${s.roomsPerBranch} rooms a branch`, () =>
    db.execute(sql`
      insert into rooms (branch_id, name, capacity)
      select b.id, 'Room ' || (g + 1), 2 from bench_branches b cross join generate_series(0, ${s.roomsPerBranch - 1}) g`),
  );
  await db.execute(sql`create unlogged table bench_rooms as
    select id, branch_id, row_number() over (partition by branch_id order by name) - 1 as rn from rooms`);
  await db.execute(sql`create unlogged table bench_bookings as
    select id, user_id, treatment_id, row_number() over (order by id) - 1 as rn from treatment_bookings`);
  // One appointment an hour of every working period, Monday to Saturday, in slices of
  // practitioners so the progress shows. A customer already busy at that hour is skipped
  // (ON CONFLICT DO NOTHING: the customer's no-overlap constraint).
  const slice = 25;
  for (let from = 0; from < s.practitioners; from += slice) {
    await step(`appointments of practitioners ${from}–${Math.min(from + slice, s.practitioners) - 1}`, () =>
      db.execute(sql`
        with n as (select count(*) as c from bench_bookings),
        slots as (
          select p.id as practitioner_id, p.branch_id, p.rn, d, k,
                 ((current_date + (d - ${Math.floor(s.days / 2)}::int))::timestamp
                   + make_interval(hours => 9 + k + case when k >= 4 then 1 else 0 end)) at time zone ${timeZone}::text as start_at
          from bench_practitioners p
          cross join generate_series(0, ${s.days - 1}) d
          cross join generate_series(0, 7) k
          where p.rn >= ${from} and p.rn < ${from + slice}
            and extract(isodow from current_date + (d - ${Math.floor(s.days / 2)}::int)) <> 7
        )
        insert into appointments (booking_id, customer_id, treatment_id, practitioner_id, branch_id, room_id,
                                  start_at, end_at, blocked_until, status, created_at)
        select b.id, b.user_id, b.treatment_id, sl.practitioner_id, sl.branch_id,
               r.id,
               sl.start_at, sl.start_at + interval '60 minutes', sl.start_at + interval '60 minutes',
               case when sl.start_at > now() then 'scheduled'
                    when (sl.rn * 31 + sl.d * 17 + sl.k * 7) % 100 < 85 then 'completed'
                    when (sl.rn * 31 + sl.d * 17 + sl.k * 7) % 100 < 93 then 'no_show' else 'cancelled' end,
               sl.start_at - interval '7 days'
        from slots sl cross join n
        join bench_bookings b on b.rn = (sl.rn * 7919 + sl.d * 8 + sl.k) % n.c
        -- Every other practitioner of a branch works in a room of their own.
        left join bench_rooms r on (sl.rn / ${branchCount}) % 2 = 0 and r.branch_id = sl.branch_id
                               and r.rn = (sl.rn / ${branchCount * 2}) % ${s.roomsPerBranch}
        on conflict do nothing`),
    );
  }
  await db.execute(sql`drop table bench_branches, bench_practitioners, bench_rooms, bench_bookings`);
  await step('vacuum analyze', () => db.execute(sql`vacuum analyze`));
}
