import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../../src/server/db/schema';
import type { AppDeps } from '../../src/server/deps';
import type { HandlerMap } from '../../src/server/jobs/handlers';
import { createInProcessQueue } from '../../src/server/jobs/inprocess-driver';
import type { JobQueue } from '../../src/server/jobs/queue';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeUser } from '../helpers/factories';
import { daysFromToday, makeEnrollment, outboxByKey, waitFor } from './reminders.fixtures';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ JOB_BACKOFF_MS: 20, JOB_STALLED_INTERVAL_MS: 1000 });
});
afterAll(() => t.close());

/**
 * Replaces the server's driver (one poller at a time, so no other driver takes these jobs) with
 * one whose handlers are partly swapped in: dependency injection, not a test branch.
 */
async function driver(handlers: Partial<HandlerMap>, config: Partial<AppDeps['config']> = {}): Promise<JobQueue> {
  await t.deps.jobs.close();
  const deps: AppDeps = { ...t.deps, config: { ...t.deps.config, ...config } };
  const q = createInProcessQueue(deps, { handlers, pollMs: 100 });
  deps.jobs = q;
  t.deps.jobs = q;
  return q;
}

const jobRow = (id: string) =>
  t.deps.db
    .select()
    .from(jobs)
    .where(eq(jobs.id, id))
    .then((r) => r[0]);

describe('in-process driver', () => {
  it('runs the real send-email handler; the same key twice sends one email', async () => {
    const student = await makeUser(t.deps.db, { role: 'student' });
    const { installments } = await makeEnrollment(t.deps.db, student.id, [{ dueDate: daysFromToday(-3) }]);
    const key = `reminder:enrollment:${installments[0]!.id}:x`;
    const payload = {
      key,
      template: 'reminder' as const,
      userId: student.id,
      ref: `enrollment:${installments[0]!.id}`,
    };
    const a = await t.deps.jobs.enqueue('send-email', payload);
    const b = await t.deps.jobs.enqueue('send-email', payload);
    await waitFor(
      async () => (await jobRow(a.id))?.status === 'completed' && (await jobRow(b.id))?.status === 'completed',
      'both jobs',
    );
    const rows = await outboxByKey(t.deps.db, key);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.to).toBe(student.email);
    expect(rows[0]!.text).toContain(t.deps.config.APP_NAME);
    const results = [(await jobRow(a.id))!.result, (await jobRow(b.id))!.result];
    expect(results).toContainEqual({ status: 'sent', transport: 'outbox' });
    expect(results).toContainEqual({ status: 'duplicate' });
  });

  it('dedupes jobs enqueued with the same job id', async () => {
    const reportFileId = randomUUID();
    let runs = 0;
    const q = await driver({ 'build-report': async () => void (runs += 1) });
    const first = await q.enqueue('build-report', { reportFileId }, { jobId: `build-report:${reportFileId}` });
    const second = await q.enqueue('build-report', { reportFileId }, { jobId: `build-report:${reportFileId}` });
    expect(second.id).toBe(first.id);
    await waitFor(async () => (await jobRow(first.id))?.status === 'completed', 'the job');
    expect(runs).toBe(1);
  });

  it('retries a handler that fails twice with backoff, then succeeds; progress is recorded', async () => {
    const attempts: number[] = [];
    const q = await driver({
      'build-report': async (_deps, _payload, job) => {
        attempts.push(job.attempt);
        if (job.attempt < 3) throw new Error(`transient failure ${job.attempt}`);
        await job.updateProgress(100);
      },
    });
    const { id } = await q.enqueue('build-report', { reportFileId: randomUUID() });
    const row = await waitFor(async () => {
      const r = await jobRow(id);
      return r?.status === 'completed' ? r : null;
    }, 'the flaky job to succeed');
    expect(attempts).toEqual([1, 2, 3]);
    expect(row.attempts).toBe(3);
    expect(row.progress).toBe(100);
    expect(row.failedReason).toBeNull();
  });

  it('ends a job that always fails in the failed state with its reason; an admin sees it and retries it', async () => {
    let fail = true;
    const q = await driver({
      'build-report': async () => {
        if (fail) throw new Error('The report template is missing');
      },
    });
    const { id } = await q.enqueue('build-report', { reportFileId: randomUUID() });
    const row = await waitFor(async () => {
      const r = await jobRow(id);
      return r?.status === 'failed' ? r : null;
    }, 'the job to fail');
    expect(row.attempts).toBe(3);
    expect(row.failedReason).toBe('The report template is missing');

    // The admin's view goes through the server's queue (same table).
    const admin = await t.userWithSession('admin');
    const api = t.trpc(admin.token);
    const status = await api.jobs.list.query({ state: 'failed' });
    expect(status.driver).toBe('inprocess');
    expect(status.counts.failed).toBeGreaterThanOrEqual(1);
    expect(status.jobs.find((j) => j.id === id)).toMatchObject({
      name: 'build-report',
      state: 'failed',
      failedReason: 'The report template is missing',
      attempts: 3,
      maxAttempts: 3,
    });

    const manager = await t.userWithSession('manager');
    await expect(t.trpc(manager.token).jobs.list.query({})).rejects.toMatchObject({ data: { code: 'FORBIDDEN' } });
    await expect(t.trpc(manager.token).jobs.retry.mutate({ id })).rejects.toMatchObject({
      data: { code: 'FORBIDDEN' },
    });

    fail = false;
    expect(await api.jobs.retry.mutate({ id })).toEqual({ message: 'Job queued again.' });
    await waitFor(async () => (await jobRow(id))?.status === 'completed', 'the retried job');
    await expect(api.jobs.retry.mutate({ id })).rejects.toMatchObject({
      data: { code: 'CONFLICT' },
      message: 'Only failed jobs can be retried.',
    });
    await expect(api.jobs.retry.mutate({ id: randomUUID() })).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });
    await expect(api.jobs.retry.mutate({ id: 'not-a-job' })).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });
  });

  it('resumes after a restart: queued jobs, and a job whose process died mid-run', async () => {
    let runs = 0;
    const handlers = { 'build-report': async () => void (runs += 1) };
    const before = await driver(handlers);
    await before.close();
    // Queued while no process was running (the server stopped before it ran).
    const queued = await before.enqueue('build-report', { reportFileId: randomUUID() });
    // Claimed by a process that then died: its lease ran out.
    const dead = randomUUID();
    await t.deps.db.insert(jobs).values({
      id: dead,
      name: 'build-report',
      payload: { reportFileId: randomUUID() },
      status: 'active',
      attempts: 1,
      lockedUntil: new Date(Date.now() - 1000),
    });

    await driver(handlers);
    await waitFor(
      async () => (await jobRow(queued.id))?.status === 'completed' && (await jobRow(dead))?.status === 'completed',
      'both jobs after the restart',
    );
    expect(runs).toBe(2);
    expect((await jobRow(dead))!.attempts).toBe(2);
  });

  it('runs the daily reminder once per date, however many times the process starts', async () => {
    const scheduled = { REMINDER_SCHEDULE: true, REMINDER_TIME: '00:00' };
    const runs: string[] = [];
    const handlers = {
      'send-overdue-reminders': async (_d: AppDeps, _p: unknown, job: { id: string }) => void runs.push(job.id),
    };
    for (let i = 0; i < 3; i++) {
      const q = await driver(handlers, scheduled);
      await waitFor(async () => runs.length >= 1, 'the scheduled run');
      await new Promise((r) => setTimeout(r, 150));
      await q.close();
    }
    const rows = await t.deps.db.select().from(jobs).where(eq(jobs.name, 'send-overdue-reminders'));
    expect(rows).toHaveLength(1);
    expect(runs).toEqual([rows[0]!.id]);
  });
});
