import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoCourses } from '../../src/server/seed/demo-courses';
import { seedDemoBranchesAndUsers } from '../../src/server/seed/demo-users';
import { DISPLAY_STATUSES } from '../../src/shared/enrollment-status';
import { startTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('demo courses and enrolments', () => {
  it('seed courses in several categories and enrolments in every display status, one overdue, once', async () => {
    await seedDemoBranchesAndUsers(t.deps);
    await seedDemoCourses(t.deps);
    await seedDemoCourses(t.deps);
    const admin = await t.userWithSession('admin');
    const c = t.trpc(admin.token);
    const categories = await c.courses.categories.query();
    expect(categories.length).toBeGreaterThanOrEqual(3);
    expect((await c.courses.list.query({})).total).toBe(5);
    for (const displayStatus of DISPLAY_STATUSES) {
      expect((await c.enrollments.list.query({ displayStatus })).total, displayStatus).toBeGreaterThan(0);
    }
    const stats = await c.enrollments.statistics.query();
    expect(stats.totalEnrollments).toBe(5);
    expect(stats.completedEnrollments).toBe(1);
    expect(stats.overdueInstallments).toBeGreaterThan(0);
  });
});
