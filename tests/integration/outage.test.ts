import { Queue } from 'bullmq';
import { desc, eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { emailOutbox, reportFiles } from '../../src/server/db/schema';
import { QUEUE_NAME, startBullWorker } from '../../src/server/jobs/bullmq-driver';
import { REMINDER_SCHEDULER_ID } from '../../src/server/jobs/schedule';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeUser } from '../helpers/factories';
import { ownPostgres, ownRedis } from '../helpers/outage';
import { insertBulkCourses } from '../helpers/report-factories';

const cleanup: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const c of cleanup.reverse()) await c().catch(() => {});
});

async function eventually<T>(what: string, probe: () => Promise<T | null | undefined>, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    const v = await probe();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('Redis stopped, then started again', () => {
  it('loses nothing accepted meanwhile: the code email is sent, the report is built, the schedule is back', async () => {
    const redis = await ownRedis();
    cleanup.push(redis.stop);
    const t: TestApp = await startTestApp({ REDIS_URL: redis.url, REMINDER_SCHEDULE: true, REPORT_JOB_THRESHOLD: 5 });
    cleanup.push(() => t.close());
    const worker = startBullWorker(t.deps);
    cleanup.push(() => worker.close(true));
    const manager = await t.userWithSession('manager');
    const user = await makeUser(t.deps.db);
    await insertBulkCourses(t.deps.db, 20);

    const schedulerOf = async () => {
      const connection = new Redis(redis.url, { maxRetriesPerRequest: 1 });
      const queue = new Queue(QUEUE_NAME, { connection, prefix: t.deps.config.JOB_QUEUE_PREFIX });
      try {
        return await queue.getJobScheduler(REMINDER_SCHEDULER_ID);
      } finally {
        await queue.close();
        await connection.quit();
      }
    };
    await eventually('the reminder schedule', schedulerOf);

    await redis.stop();

    const forgot = await t.api('POST', '/api/users/forgot-password', { body: { email: user.email } });
    expect(forgot.status).toBe(200);
    expect(forgot.body).toEqual({ message: 'If that email belongs to an account, an OTP has been sent.' });
    const report = await t.api('GET', '/api/course-reports/excel?category=Bulk', { token: manager.token });
    expect(report.status).toBe(202);
    const reminders = await t.api('POST', '/api/enrollments/send-reminders', {
      token: (await t.userWithSession('admin')).token,
    });
    expect(reminders.status).toBe(200);
    // Nothing can run yet, and nothing is stuck or failed either.
    await new Promise((r) => setTimeout(r, 1500));
    expect(await t.deps.db.select().from(emailOutbox).where(eq(emailOutbox.to, user.email))).toEqual([]);
    const [waiting] = await t.deps.db.select().from(reportFiles).where(eq(reportFiles.id, report.body.reportId));
    expect(waiting?.status).toBe('queued');

    // Redis comes back empty (no persistence).
    await redis.start();

    const mail = await eventually('the code email', async () => {
      const [row] = await t.deps.db
        .select()
        .from(emailOutbox)
        .where(eq(emailOutbox.to, user.email))
        .orderBy(desc(emailOutbox.createdAt))
        .limit(1);
      return row;
    });
    expect(mail.text).toMatch(/\b\d{6}\b/);
    const built = await eventually('the report', async () => {
      const res = await t.api('GET', `/api/reports/files/${report.body.reportId}`, { token: manager.token });
      return res.body.status === 'ready' ? res.body : null;
    });
    expect(built.progress).toBe(100);
    expect(await eventually('the reminder schedule after the restart', schedulerOf)).toMatchObject({
      key: REMINDER_SCHEDULER_ID,
    });
  });

  it('answers the job screen with 503 and Retry-After while Redis is down', async () => {
    const redis = await ownRedis();
    cleanup.push(redis.stop);
    const t = await startTestApp({ REDIS_URL: redis.url });
    cleanup.push(() => t.close());
    const admin = await t.userWithSession('admin');
    expect((await t.trpc(admin.token).jobs.list.query({})).counts).toBeDefined();
    await redis.stop();
    const res = await fetch(`${t.baseUrl}/trpc/jobs.list?input=${encodeURIComponent(JSON.stringify({}))}`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    const body = (await res.json()) as { error: { message: string } };
    expect(body.error.message).toBe('The service is briefly unavailable. Please try again in a moment.');
  });
});

describe('PostgreSQL restarted', () => {
  it('answers 503 with Retry-After while it is down, never 500, and recovers after', async () => {
    const pg = await ownPostgres();
    cleanup.push(() => pg.remove());
    const t = await startTestApp({}, { databaseUrl: pg.url });
    cleanup.push(() => t.close());
    const admin = await t.userWithSession('admin');
    expect((await t.api('GET', '/api/branch', { token: admin.token })).status).toBe(200);

    await pg.stop();
    for (const res of [
      await t.api('GET', '/api/branch', { token: admin.token }),
      await t.api('POST', '/api/users/auth', { body: { email: admin.email, password: 'whatever-it-is' } }),
      await t.api('GET', `/trpc/branches.list?input=${encodeURIComponent(JSON.stringify({}))}`, { token: admin.token }),
    ]) {
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
    }

    await pg.start();
    const back = await eventually('the server to recover', async () => {
      const res = await t.api('GET', '/api/branch', { token: admin.token });
      return res.status === 200 ? res : null;
    });
    expect(back.body).toHaveProperty('branches');
  });
});
