import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { QUEUE_NAME } from '../../src/server/jobs/bullmq-driver';
import { startTestApp, type TestApp } from '../helpers/app';
import { download, expectBulkCourseWorkbook, insertBulkCourses } from '../helpers/report-factories';
import { spawnWorker, stopWorkerProcess } from '../helpers/worker-process';

/**
 * The `build-report` job as production runs it: the server only enqueues on BullMQ, and a
 * separate worker process (worker/main.ts) builds the file into the shared database.
 */
const redisUrl = inject('redisUrl');
const prefix = `t-${randomBytes(4).toString('hex')}`;
const BULK = 2500;
const THRESHOLD = '5';

let t: TestApp;
let manager: { token: string };
let worker: ChildProcess | undefined;
let eventsConn: Redis;
let events: QueueEvents;
let inspectConn: Redis;
let inspect: Queue;
const progressEvents: number[] = [];

beforeAll(async () => {
  t = await startTestApp({ REDIS_URL: redisUrl, JOB_QUEUE_PREFIX: prefix, REPORT_JOB_THRESHOLD: Number(THRESHOLD) });
  manager = await t.userWithSession('manager');
  await insertBulkCourses(t.deps.db, BULK);
  // Progress events are Redis stream entries, so listening before the job runs sees every one.
  eventsConn = new Redis(redisUrl, { maxRetriesPerRequest: null });
  events = new QueueEvents(QUEUE_NAME, { connection: eventsConn, prefix });
  events.on('progress', ({ data }) => void progressEvents.push(Number(data)));
  await events.waitUntilReady();
  inspectConn = new Redis(redisUrl, { maxRetriesPerRequest: null });
  inspect = new Queue(QUEUE_NAME, { connection: inspectConn, prefix });
  // JOB_STALLED_INTERVAL_MS stays at its default (30 s): a short job lock expires while exceljs
  // holds a busy worker's event loop, and the build then runs a second time.
  worker = await spawnWorker({
    DATABASE_URL: t.deps.config.DATABASE_URL!,
    REDIS_URL: redisUrl,
    JOB_QUEUE_PREFIX: prefix,
    REPORT_JOB_THRESHOLD: THRESHOLD,
  });
}, 90_000);

afterAll(async () => {
  if (worker) await stopWorkerProcess(worker, 'SIGTERM');
  await events?.close();
  eventsConn?.disconnect();
  await inspect?.obliterate({ force: true }).catch(() => {});
  await inspect?.close();
  inspectConn?.disconnect();
  await t?.close();
});

describe('a large report on BullMQ', () => {
  it('is built by the worker process with progress, then downloads through REST and opens in Excel', async () => {
    expect(t.deps.jobs.driver).toBe('bullmq');
    const res = await t.api('GET', '/api/course-reports/excel?category=Bulk', { token: manager.token });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: 'queued', statusUrl: `/api/reports/files/${res.body.reportId}` });

    const seen: number[] = [];
    let last: { status: string; progress: number; downloadUrl: string } | undefined;
    for (let i = 0; i < 300; i++) {
      const status = await t.api('GET', res.body.statusUrl, { token: manager.token });
      expect(status.status).toBe(200);
      const body: { status: string; progress: number; downloadUrl: string } = status.body;
      last = body;
      seen.push(body.progress);
      if (body.status === 'ready' || body.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(last).toMatchObject({
      status: 'ready',
      progress: 100,
      downloadUrl: `/api/reports/files/${res.body.reportId}/download`,
    });
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
    // The worker reported each batch through BullMQ: 2,500 rows in batches of 1,000, then stored.
    await expect.poll(() => progressEvents, { timeout: 5_000 }).toEqual([38, 76, 95, 100]);
    // BullMQ marks the job completed after the handler returns, which is after the file is ready.
    await expect.poll(() => inspect.getCompletedCount(), { timeout: 5_000 }).toBe(1);

    const file = await download(t.baseUrl, 'GET', last!.downloadUrl, { token: manager.token });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="${res.body.fileName}"`);
    await expectBulkCourseWorkbook(file.bytes, BULK);
  }, 60_000);
});
