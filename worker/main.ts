import { loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/client';
import { sessionPolicyFrom, type AppDeps } from '../src/server/deps';
import { loadDotEnv } from '../src/server/env';
import { createBullQueue, startBullWorker } from '../src/server/jobs/bullmq-driver';
import { createLogger } from '../src/server/logger';

/**
 * The job worker (`npm run worker`): consumes the BullMQ queue the servers fill. Any number may
 * run. It needs the same PostgreSQL and Redis as the servers.
 */
loadDotEnv();
const config = loadConfig();
const log = createLogger(config);

if (!config.REDIS_URL || !config.DATABASE_URL) {
  log.fatal('The worker needs REDIS_URL and DATABASE_URL. Without Redis the server runs jobs itself: npm start is enough.');
  process.exit(1);
}

const dbHandle = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
// A worker may start before any server: the migrations (advisory-locked) are safe to run from both.
await dbHandle.migrate();

const deps: AppDeps = {
  config,
  dbHandle,
  db: dbHandle.db,
  log,
  sessionPolicy: sessionPolicyFrom(config),
  jobs: undefined as unknown as AppDeps['jobs'],
};
// Handlers queue jobs too (the reminder run queues its emails).
deps.jobs = await createBullQueue(deps);
const worker = startBullWorker(deps);
await worker.worker.waitUntilReady();
log.info({ pid: process.pid, queue: config.JOB_QUEUE_PREFIX }, 'worker ready');

let closing = false;
async function shutdown(signal: string) {
  // A second signal while waiting for active jobs: stop now, the stalled check requeues them.
  const force = closing;
  closing = true;
  log.info({ signal, force }, 'worker shutting down');
  try {
    await worker.close(force);
    if (force) process.exit(1);
    await deps.jobs.close();
    await dbHandle.close();
  } catch (err) {
    log.error({ err }, 'worker shutdown failed');
    process.exit(1);
  }
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
