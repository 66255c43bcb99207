/**
 * Classes data for the classes benchmark, on top of the scale data (scale-seed.ts): instructors,
 * batches of the scale's enrolments (each enrolment in one batch of its course, at its student's
 * branch), two weekly slots a batch over a year from about ten months back, the class sessions
 * of those slots, and a mark for nearly every student on every session held so far. Generated
 * inside PostgreSQL (insert ... select from generate_series), deterministic: every choice is
 * arithmetic on row numbers.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../src/server/db/client';
import { refreshEveryAttendanceSummary } from '../src/server/domains/classes/attendance-summaries';
import { rowsOf } from './scale-context';

export interface ClassSizes {
  batches: number;
  /** Days from a batch's start to its end. */
  days: number;
}

export function classSizesFromEnv(env = process.env): ClassSizes {
  const n = (name: string, dflt: number) => {
    const v = Number(env[name] ?? dflt);
    if (!Number.isInteger(v) || v < 1) throw new Error(`${name} must be a positive whole number`);
    return v;
  };
  return { batches: n('CLASS_BATCHES', 2000), days: n('CLASS_DAYS', 365) };
}

async function step(name: string, fn: () => Promise<unknown>) {
  const t0 = performance.now();
  await fn();
  console.log(`  ${name}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

/**
 * Batch g: course and branch from its students' enrolments, instructor g mod I (I = batches / 5,
 * so each instructor has five batches, at 08:00, 10:00, ... 16:00 for 90 minutes: never two at
 * once), on Monday and Thursday, Tuesday and Friday or Wednesday and Saturday. One student in ten
 * is often absent (four sessions in ten), so the falling-behind list has people on it.
 */
export async function seedClasses(db: Db, s: ClassSizes, timeZone: string): Promise<void> {
  const hash = '$argon2id$v=19$m=19456,t=2,p=1$YmVuY2htYXJrc2FsdA$0000000000000000000000000000000000000000000';
  const instructors = Math.max(1, Math.ceil(s.batches / 5));
  const back = Math.round(s.days * 0.82);
  await db.execute(
    sql`create unlogged table bench_enrolments as
        select e.id, e.user_id, row_number() over (order by e.id) - 1 as rn from enrollments e`,
  );
  const [{ n: enrolments } = { n: 0 }] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from bench_enrolments`),
  );
  const per = Math.max(1, Math.ceil(enrolments / s.batches));
  await db.execute(
    sql`create unlogged table bench_branches as select id, row_number() over (order by name) - 1 as rn from branches`,
  );
  await db.execute(
    sql`create unlogged table bench_courses2 as select id, row_number() over (order by id) - 1 as rn from courses`,
  );
  await step(`${instructors} instructors`, () =>
    db.execute(sql`
      insert into users (username, full_name, email, password_hash, role, branch_id)
      select 'instructor' || g, 'Instructor ' || g, 'instructor' || g || '@example.com', ${hash}, 'user', b.id
      from generate_series(0, ${instructors - 1}) g
      join bench_branches b on b.rn = g % (select count(*) from bench_branches)`),
  );
  await step(`${s.batches.toLocaleString()} batches and their slots`, async () => {
    await db.execute(sql`
      create unlogged table bench_batches as
      select g, g / ${instructors} as k, g % 3 + 1 as wd,
             (select id from bench_courses2 where rn = g % (select count(*) from bench_courses2)) as course_id,
             (select id from bench_branches where rn = g % (select count(*) from bench_branches)) as branch_id,
             (select id from users where username = 'instructor' || (g % ${instructors})) as instructor_id,
             current_date - ${back}::int + g % 14 as start_date
      from generate_series(0, ${s.batches - 1}) g`);
    await db.execute(sql`
      insert into batches (name, course_id, branch_id, instructor_id, start_date, end_date, capacity)
      select 'Batch ' || g, course_id, branch_id, instructor_id, start_date, start_date + ${s.days - 1}::int, ${per + 5}
      from bench_batches order by g`);
    await db.execute(sql`
      alter table bench_batches add column id uuid;
      update bench_batches bb set id = b.id from batches b where b.name = 'Batch ' || bb.g`);
    await db.execute(sql`
      insert into batch_slots (batch_id, weekday, start_minute, end_minute)
      select id, d, (8 + 2 * k) * 60, (8 + 2 * k) * 60 + 90
      from bench_batches cross join lateral (values (wd), (wd + 3)) w(d)`);
  });
  await step('class sessions', () =>
    db.execute(sql`
      insert into class_sessions (batch_id, instructor_id, day, start_at, end_at, status, reason)
      select bb.id, bb.instructor_id, d::date,
             (d + make_interval(mins => (8 + 2 * bb.k) * 60)) at time zone ${timeZone}::text,
             (d + make_interval(mins => (8 + 2 * bb.k) * 60 + 90)) at time zone ${timeZone}::text,
             case when (bb.g * 7 + (d::date - bb.start_date)) % 50 = 0 then 'cancelled' else 'scheduled' end,
             case when (bb.g * 7 + (d::date - bb.start_date)) % 50 = 0 then 'Public holiday' end
      from bench_batches bb
      cross join lateral generate_series(bb.start_date::timestamp, (bb.start_date + ${s.days - 1}::int)::timestamp, interval '1 day') d
      where extract(isodow from d) in (bb.wd, bb.wd + 3)`),
  );
  await step(`roster: ${enrolments.toLocaleString()} enrolments in batches of ${per}`, async () => {
    await db.execute(sql`
      create unlogged table bench_places as
      select e.id as enrollment_id, e.user_id, e.rn, bb.id as batch_id, bb.course_id, bb.branch_id,
             bb.start_date + case when e.rn % ${per} = ${per - 1} then 60 else 0 end as joined_on
      from bench_enrolments e join bench_batches bb on bb.g = e.rn / ${per}`);
    await db.execute(
      sql`update enrollments e set course_id = p.course_id from bench_places p where p.enrollment_id = e.id`,
    );
    await db.execute(sql`update users u set branch_id = p.branch_id from bench_places p where p.user_id = u.id`);
    await db.execute(sql`
      insert into batch_members (batch_id, enrollment_id, status, joined_on)
      select batch_id, enrollment_id, 'member', joined_on from bench_places`);
  });
  await db.execute(sql`
    create unlogged table bench_held as
    select cs.id, cs.batch_id, cs.day, b.instructor_id, row_number() over (partition by cs.batch_id order by cs.start_at) as seq
    from class_sessions cs join batches b on b.id = cs.batch_id
    where cs.status = 'scheduled' and cs.start_at <= now()`);
  await db.execute(sql`create index on bench_held (batch_id)`);
  await db.execute(sql`create index on bench_places (batch_id)`);
  // Marks in slices of batches, so the progress shows. 2 % stay unmarked.
  const slice = 250;
  for (let from = 0; from < s.batches; from += slice) {
    // The marks' foreign keys are right by construction: their checks (a trigger per row) are
    // skipped for this insert only, as a bulk load would (replica role, this transaction only).
    await step(`marks of batches ${from}–${Math.min(from + slice, s.batches) - 1}`, () =>
      db.transaction(async (tx) => {
        await tx.execute(sql`set local session_replication_role = replica`);
        await tx.execute(sql`
        insert into attendance_marks (session_id, enrollment_id, status, marked_by, marked_at)
        select h.id, p.enrollment_id,
               case when p.rn % 10 = 0 then (case when x < 40 then 'absent' when x < 45 then 'late' when x < 48 then 'excused' else 'present' end)
                    else (case when x < 8 then 'absent' when x < 15 then 'late' when x < 18 then 'excused' else 'present' end) end,
               h.instructor_id, now()
        from bench_batches bb
        join bench_places p on p.batch_id = bb.id
        join bench_held h on h.batch_id = bb.id and h.day >= p.joined_on
        cross join lateral (select ((h.seq * 37 + p.rn * 53 + (h.seq * p.rn) % 11) % 100)::int as x) r
        where bb.g >= ${from} and bb.g < ${from + slice}
          and (h.seq * 13 + p.rn * 7) % 50 <> 0`);
      }),
    );
  }
  // The marks went in past the service, so their kept summaries are counted here in one pass.
  await step('attendance summaries', () => refreshEveryAttendanceSummary(db));
  await db.execute(
    sql`drop table bench_enrolments, bench_branches, bench_courses2, bench_batches, bench_places, bench_held`,
  );
  await step('vacuum analyze', () => db.execute(sql`vacuum analyze`));
}
