import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownPostgres, ownRedis } from '../helpers/outage';
import { spawnWorker } from '../helpers/worker-process';

/**
 * `npm run worker` stopped by its supervisor after PostgreSQL and Redis went away: it must still
 * exit within its grace period (JOB_SHUTDOWN_MS), or a restart waits on a process that never ends.
 * The stores are this file's own, so stopping them disturbs no other test.
 */
let pg: Awaited<ReturnType<typeof ownPostgres>>;
let redis: Awaited<ReturnType<typeof ownRedis>>;
let worker: ChildProcess | undefined;

const GRACE_MS = 2000;

beforeAll(async () => {
  pg = await ownPostgres();
  redis = await ownRedis();
}, 60_000);
afterAll(async () => {
  if (worker && worker.exitCode === null && worker.signalCode === null) worker.kill('SIGKILL');
  await redis?.stop();
  await pg?.remove();
});

describe('worker shutdown', () => {
  it('exits within JOB_SHUTDOWN_MS of SIGTERM once PostgreSQL and Redis are gone', async () => {
    worker = await spawnWorker({
      DATABASE_URL: pg.url,
      REDIS_URL: redis.url,
      JOB_QUEUE_PREFIX: `shutdown-${process.pid}`,
      JOB_SHUTDOWN_MS: String(GRACE_MS),
    });
    const proc = worker;
    await redis.stop();
    await pg.stop('immediate');
    // A moment for the worker to notice: its clients are reconnecting when the signal comes.
    await new Promise((r) => setTimeout(r, 500));
    const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
    const started = Date.now();
    proc.kill('SIGTERM');
    const outcome = await Promise.race([
      exited,
      new Promise<'still running'>((r) => setTimeout(() => r('still running'), GRACE_MS + 5000)),
    ]);
    expect(outcome).not.toBe('still running');
    expect(Date.now() - started).toBeLessThan(GRACE_MS + 5000);
    // Forced out or closed in time, it has ended either way; forced, it says so by its exit code.
    expect([0, 1]).toContain(outcome);
  }, 90_000);
});
