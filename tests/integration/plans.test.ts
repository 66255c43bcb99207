import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';
import type { MadeUser } from '../helpers/factories';

/**
 * A screen's list page keeps one plan in PostgreSQL instead of being planned on every request
 * (docs/performance.md#a-pages-size-in-its-statement): the page size is written into the
 * statement, and a statement built once runs as a named statement even when it has no parameter
 * left. Read from PostgreSQL's own record of the server's statements (`pg_prepared_statements`,
 * which covers the connection that reads it: the server here has one). A few hundred rows are
 * enough for the planner to see that a page of 25 is a small part of the table.
 */
let t: TestApp;
let admin: MadeUser & { token: string };

beforeAll(async () => {
  t = await startTestApp({}, { connections: 1 });
  admin = await t.userWithSession('superadmin');
  const { db } = t.deps;
  await db.execute(sql`
    insert into users (username, full_name, email, password_hash, role)
    select 'plan' || g, 'Plan ' || g, 'plan' || g || '@example.com', 'x', 'student'
    from generate_series(1, 600) g`);
  // Kept names stand for students and courses deleted since (docs/courses.md): no other rows needed.
  // Half of them still owe their admission fee (Pending Payment), none is completed: one status
  // matches more rows than a page, another none. Each keeps its plan, because a display status is
  // written into the statement (docs/performance.md#children-in-the-records-statement).
  await db.execute(sql`
    insert into enrollments (payment_type, total_fee_minor, admission_fee_minor, enrolled_on,
      deleted_username, deleted_email, deleted_course_name, created_at)
    select 'full', 100000, case when g % 2 = 0 then 5000 else 0 end, current_date, 'gone' || g, 'gone' || g || '@example.com', 'Old course',
      now() - g * interval '1 minute'
    from generate_series(1, 600) g`);
  await db.execute(sql`analyze users`);
  await db.execute(sql`analyze enrollments`);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

interface Plans {
  statement: string;
  generic_plans: string;
  custom_plans: string;
}

/** How PostgreSQL planned the named statements of the server's connection that start with `start`. */
async function plansOf(start: string): Promise<Plans[]> {
  // postgres.js answers the rows as an array.
  return (await t.deps.db.execute(sql`
    select statement, generic_plans, custom_plans from pg_prepared_statements
    where starts_with(statement, ${start})`)) as Plans[];
}

const calls = 8;

describe('list pages keep their plan', () => {
  it('users.list page 1', async () => {
    const api = t.trpc(admin.token);
    for (let i = 0; i < calls; i++) await api.users.list.query({ page: 1, pageSize: 25 });
    const [page, ...others] = await plansOf('select "users"."id", "users"."username"');
    expect(others).toEqual([]);
    // PostgreSQL plans a named statement for its values five times before it may keep one plan.
    expect(Number(page?.custom_plans)).toBeLessThanOrEqual(5);
    expect(Number(page?.generic_plans)).toBeGreaterThanOrEqual(calls - 5);
  });

  it('enrollments.list page 1, and filtered by a display status many or no enrolments have', async () => {
    const api = t.trpc(admin.token);
    for (let i = 0; i < calls; i++) {
      const all = await api.enrollments.list.query({ page: 1, pageSize: 25 });
      expect(all.items).toHaveLength(25);
      const pending = await api.enrollments.list.query({ page: 1, pageSize: 25, displayStatus: 'Pending Payment' });
      expect(pending.items).toHaveLength(25);
      const completed = await api.enrollments.list.query({ page: 1, pageSize: 25, displayStatus: 'Completed' });
      expect(completed.items).toEqual([]);
    }
    const plans = await plansOf('select "enrollments"."id", "enrollments"."user_id"');
    expect(plans).toHaveLength(3);
    for (const p of plans) {
      expect(Number(p.custom_plans)).toBeLessThanOrEqual(5);
      expect(Number(p.generic_plans)).toBeGreaterThanOrEqual(calls - 5);
    }
  });
});
