import { loadRuntime, openDeps } from '../src/server/bootstrap';
import { createBullQueue, startBullWorker } from '../src/server/jobs/bullmq-driver';

/**
 * The job worker (`npm run worker`): consumes the BullMQ queue the servers fill. Any number may
 * run. It needs the same PostgreSQL and Redis as the servers.
 */
const { config, log } = loadRuntime();

if (!config.REDIS_URL || !config.DATABASE_URL) {
  log.fatal(
    'The worker needs REDIS_URL and DATABASE_URL. Without Redis the server runs jobs itself: npm start is enough.',
  );
  process.exit(1);
}

// A worker may start before any server, so it migrates too. Its own queue is BullMQ even
// though it only consumes: handlers queue jobs too (the reminder run queues its emails).
const deps = await openDeps(config, log, createBullQueue);
const worker = startBullWorker(deps);
await worker.worker.waitUntilReady();
log.info({ pid: process.pid, queue: config.JOB_QUEUE_PREFIX }, 'worker ready');

let closing = false;
async function shutdown(signal: string) {
  // A second signal while waiting for active jobs: stop now, the stalled check requeues them.
  const force = closing;
  closing = true;
  log.info({ signal, force }, 'worker shutting down');
  if (!force) {
    // Closing waits on Redis and PostgreSQL, which may never answer (both gone): past the grace
    // period the worker leaves anyway, and the stalled check requeues what it was running.
    // Unref'd, so a clean close that finishes first is not kept waiting for it.
    setTimeout(() => {
      log.error({ graceMs: config.JOB_SHUTDOWN_MS }, 'worker shutdown timed out; exiting');
      process.exit(1);
    }, config.JOB_SHUTDOWN_MS).unref();
  }
  try {
    await worker.close(force);
    if (force) process.exit(1);
    await deps.jobs.close();
    await deps.dbHandle.close();
  } catch (err) {
    log.error({ err }, 'worker shutdown failed');
    process.exit(1);
  }
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
