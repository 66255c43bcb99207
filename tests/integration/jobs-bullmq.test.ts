import type { ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { createBullQueue, QUEUE_NAME, startBullWorker } from '../../src/server/jobs/bullmq-driver';
import { REMINDER_SCHEDULER_ID } from '../../src/server/jobs/schedule';
import { defaultMessageSettings, storeMessageSettings } from '../../src/server/domains/messages/settings';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeUser } from '../helpers/factories';
import { spawnWorker, stopWorkerProcess } from '../helpers/worker-process';
import { daysFromToday, makeEnrollment, outboxByKey, outboxFor, waitFor } from './reminders.fixtures';

const redisUrl = inject('redisUrl');
// Each file (and the scheduler test) gets its own BullMQ keys in the shared Redis.
const prefix = `t-${randomBytes(4).toString('hex')}`;

/** Resend's API, as far as this app uses it: POST /emails, deduplicated by Idempotency-Key. */
function fakeResend() {
  const requests: Array<{ key: string | undefined; body: Record<string, unknown> }> = [];
  const delivered = new Map<string, string>();
  const behaviour = { hold: false, delayMs: 0 };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const key = req.headers['idempotency-key'] as string | undefined;
      requests.push({ key, body: JSON.parse(raw) });
      const answer = (id: string) =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id }));
      const known = key ? delivered.get(key) : undefined;
      if (known) return answer(known);
      const id = `email_${delivered.size + 1}`;
      if (key) delivered.set(key, id);
      // The email is out; the answer is what may never arrive.
      if (behaviour.hold) return;
      setTimeout(() => answer(id), behaviour.delayMs);
    });
  });
  return {
    requests,
    delivered,
    behaviour,
    async start() {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

let t: TestApp;
let inspect: Queue;
let inspectConn: Redis;
const resend = fakeResend();
let resendUrl: string;
const workers = new Set<ChildProcess>();

beforeAll(async () => {
  resendUrl = await resend.start();
  t = await startTestApp({
    REDIS_URL: redisUrl,
    JOB_QUEUE_PREFIX: prefix,
    JOB_STALLED_INTERVAL_MS: 1000,
    JOB_BACKOFF_MS: 50,
  });
  inspectConn = new Redis(redisUrl, { maxRetriesPerRequest: null });
  inspect = new Queue(QUEUE_NAME, { connection: inspectConn, prefix });
  // The overdue reminder is a message: quiet hours off, as the run may fall at night in TIME_ZONE.
  await storeMessageSettings(t.deps.db, { ...defaultMessageSettings(), quietHours: null });
});
afterEach(async () => {
  for (const w of workers) await stopWorker(w, 'SIGKILL');
});
afterAll(async () => {
  await inspect.obliterate({ force: true }).catch(() => {});
  await inspect.close();
  inspectConn.disconnect();
  await t.close();
  await resend.close();
});

/** `npm run worker` as a separate process on the test's database and Redis keys. */
async function startWorker(env: Record<string, string> = {}): Promise<ChildProcess> {
  const proc = await spawnWorker({
    DATABASE_URL: t.deps.config.DATABASE_URL!,
    REDIS_URL: redisUrl,
    JOB_QUEUE_PREFIX: prefix,
    JOB_STALLED_INTERVAL_MS: '1000',
    JOB_BACKOFF_MS: '50',
    ...env,
  });
  workers.add(proc);
  return proc;
}

async function stopWorker(proc: ChildProcess, signal: NodeJS.Signals): Promise<number | null> {
  workers.delete(proc);
  return stopWorkerProcess(proc, signal);
}

async function overdueInstallment() {
  const student = await makeUser(t.deps.db, { role: 'student' });
  const { installments } = await makeEnrollment(t.deps.db, student.id, [{ dueDate: daysFromToday(-4) }]);
  const id = installments[0]!.id;
  return {
    student,
    id,
    payload: {
      key: `reminder:enrollment:${id}:${randomUUID()}`,
      template: 'reminder' as const,
      userId: student.id,
      ref: `enrollment:${id}`,
    },
  };
}

const stateOf = async (id: string) => (await inspect.getJob(id))?.getState();

describe('BullMQ driver with a separate worker process', { timeout: 120_000 }, () => {
  it('the server only enqueues; a worker process runs the job', async () => {
    expect(t.deps.jobs.driver).toBe('bullmq');
    const { student } = await overdueInstallment();
    const admin = await t.userWithSession('admin');
    const res = await t.api('POST', '/api/enrollments/send-reminders', { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.queued).toBe(1);
    await new Promise((r) => setTimeout(r, 300));
    expect(await outboxFor(t.deps.db, student.email)).toHaveLength(0);

    const worker = await startWorker();
    const [row] = await waitFor(async () => {
      const rows = await outboxFor(t.deps.db, student.email);
      return rows.length ? rows : null;
    }, 'the worker to send the reminder');
    expect(row!.transport).toBe('outbox');
    expect(row!.subject).toContain('Overdue payment');

    const status = await t.trpc(admin.token).jobs.list.query({ state: 'completed' });
    expect(status.driver).toBe('bullmq');
    expect(status.jobs.some((j) => j.name === 'send-message' && j.state === 'completed')).toBe(true);
    expect(await stopWorker(worker, 'SIGTERM')).toBe(0);
  });

  it('a worker killed mid-job: the next worker finishes it and the email goes out once', async () => {
    const withResend = { RESEND_API_KEY: 're_test_key', RESEND_BASE_URL: resendUrl };
    const { payload, student } = await overdueInstallment();
    resend.behaviour.hold = true;
    const first = await startWorker(withResend);
    const { id } = await t.deps.jobs.enqueue('send-email', payload);
    await waitFor(async () => resend.requests.some((r) => r.key === payload.key), 'the first worker to reach Resend');
    expect(await stateOf(id)).toBe('active');
    await stopWorker(first, 'SIGKILL');

    resend.behaviour.hold = false;
    const second = await startWorker(withResend);
    await waitFor(
      async () => (await stateOf(id)) === 'completed',
      'the stalled job to complete on the new worker',
      30_000,
    );

    const attempts = resend.requests.filter((r) => r.key === payload.key);
    expect(attempts).toHaveLength(2);
    expect(attempts[1]!.body).toEqual(attempts[0]!.body);
    expect(attempts[0]!.body.to).toBe(student.email);
    expect([...resend.delivered.keys()].filter((k) => k === payload.key)).toHaveLength(1);
    const rows = await outboxByKey(t.deps.db, payload.key);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ transport: 'resend', providerId: resend.delivered.get(payload.key) });
    await stopWorker(second, 'SIGTERM');
  });

  it('SIGTERM lets the active job finish before the worker exits', async () => {
    const { payload } = await overdueInstallment();
    resend.behaviour.delayMs = 1500;
    const worker = await startWorker({ RESEND_API_KEY: 're_test_key', RESEND_BASE_URL: resendUrl });
    const { id } = await t.deps.jobs.enqueue('send-email', payload);
    await waitFor(async () => resend.requests.some((r) => r.key === payload.key), 'the worker to be mid-send');
    const code = await stopWorker(worker, 'SIGTERM');
    resend.behaviour.delayMs = 0;
    expect(code).toBe(0);
    expect(await stateOf(id)).toBe('completed');
    expect((await outboxByKey(t.deps.db, payload.key))[0]!.providerId).toBeTruthy();
  });

  it('retries a handler that fails twice, then succeeds; one that always fails ends failed with its reason', async () => {
    const seen: number[] = [];
    let alwaysFail = true;
    const flaky = new Set<string>();
    const worker = startBullWorker(t.deps, {
      handlers: {
        'build-report': async (_deps, p, job) => {
          if (flaky.has(p.reportFileId)) {
            seen.push(job.attempt);
            if (job.attempt < 3) throw new Error(`transient ${job.attempt}`);
            return;
          }
          if (alwaysFail) throw new Error('Report data is corrupt');
        },
      },
    });
    try {
      const flakyId = randomUUID();
      flaky.add(flakyId);
      const ok = await t.deps.jobs.enqueue('build-report', { reportFileId: flakyId });
      const bad = await t.deps.jobs.enqueue('build-report', { reportFileId: randomUUID() });
      await waitFor(
        async () => (await stateOf(ok.id)) === 'completed' && (await stateOf(bad.id)) === 'failed',
        'both jobs to settle',
      );
      expect(seen).toEqual([1, 2, 3]);
      const failed = await inspect.getJob(bad.id);
      expect(failed!.failedReason).toBe('Report data is corrupt');
      expect(failed!.attemptsMade).toBe(3);

      const admin = await t.userWithSession('admin');
      const api = t.trpc(admin.token);
      const status = await api.jobs.list.query({ state: 'failed' });
      expect(status.counts.failed).toBeGreaterThanOrEqual(1);
      expect(status.jobs.find((j) => j.id === bad.id)).toMatchObject({
        state: 'failed',
        failedReason: 'Report data is corrupt',
        attempts: 3,
        maxAttempts: 3,
      });

      alwaysFail = false;
      expect(await api.jobs.retry.mutate({ id: bad.id })).toEqual({ message: 'Job queued again.' });
      await waitFor(async () => (await stateOf(bad.id)) === 'completed', 'the retried job');
      await expect(api.jobs.retry.mutate({ id: bad.id })).rejects.toMatchObject({ data: { code: 'CONFLICT' } });
      await expect(api.jobs.retry.mutate({ id: 'no-such-job' })).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });
    } finally {
      await worker.close();
    }
  });
});

describe('the daily reminder scheduler', { timeout: 120_000 }, () => {
  it('is registered once however many servers and workers start', async () => {
    const schedPrefix = `${prefix}-sched`;
    const config = { ...t.deps.config, JOB_QUEUE_PREFIX: schedPrefix, REMINDER_SCHEDULE: true, REMINDER_TIME: '07:30' };
    const servers = await Promise.all([1, 2, 3].map(() => createBullQueue({ ...t.deps, config })));
    const worker = await startWorker({
      JOB_QUEUE_PREFIX: schedPrefix,
      REMINDER_SCHEDULE: 'true',
      REMINDER_TIME: '07:30',
    });
    const again = await createBullQueue({ ...t.deps, config });
    const conn = new Redis(redisUrl, { maxRetriesPerRequest: null });
    const q = new Queue(QUEUE_NAME, { connection: conn, prefix: schedPrefix });
    try {
      const schedulers = await q.getJobSchedulers();
      expect(schedulers).toHaveLength(1);
      expect(schedulers[0]).toMatchObject({
        key: REMINDER_SCHEDULER_ID,
        name: 'send-overdue-reminders',
        pattern: '30 7 * * *',
        tz: t.deps.config.TIME_ZONE,
      });
      // One next run waiting, not one per process.
      expect(await q.getDelayedCount()).toBe(1);
    } finally {
      await stopWorker(worker, 'SIGTERM');
      await Promise.all([...servers, again].map((s) => s.close()));
      await q.obliterate({ force: true });
      await q.close();
      conn.disconnect();
    }
  });
});
