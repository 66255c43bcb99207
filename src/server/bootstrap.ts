import type { FastifyBaseLogger } from 'fastify';
import { SessionCache } from './auth/session-cache';
import { loadConfig, type Config } from './config';
import { openDatabase, type DbHandle } from './db/client';
import { sessionPolicyFrom, type AppDeps } from './deps';
import { readCache } from './domains/read-cache';
import { createJobQueue } from './jobs/create-queue';
import type { JobQueue } from './jobs/queue';
import { loadDotEnv } from './env';
import { createLogger } from './logger';

/** The server and the worker read `.env` the same way, so one `.env` configures both. */
export function loadRuntime(): { config: Config; log: FastifyBaseLogger } {
  loadDotEnv();
  const config = loadConfig();
  return { config, log: createLogger(config) };
}

/**
 * AppDeps around an open database. The queue is made last because a driver needs the rest of
 * the deps (handlers run services, and they queue jobs of their own).
 */
export async function assembleDeps(
  config: Config,
  log: FastifyBaseLogger,
  dbHandle: DbHandle,
  createQueue: (deps: AppDeps) => Promise<JobQueue> = createJobQueue,
): Promise<AppDeps> {
  // The queue needs the deps (its handlers enqueue further jobs through deps.jobs), so it is
  // attached once it exists; nothing may enqueue before that.
  let jobs: JobQueue | undefined;
  const deps: AppDeps = {
    config,
    dbHandle,
    db: dbHandle.db,
    log,
    sessionPolicy: sessionPolicyFrom(config),
    sessionCache: new SessionCache(config.SESSION_CACHE_SECONDS * 1000),
    cache: readCache(),
    get jobs(): JobQueue {
      if (!jobs) throw new Error('The job queue is not started yet.');
      return jobs;
    },
    set jobs(queue: JobQueue) {
      jobs = queue;
    },
  };
  deps.jobs = await createQueue(deps);
  return deps;
}

/** Opens and migrates the configured database, then assembles the deps. */
export async function openDeps(
  config: Config,
  log: FastifyBaseLogger,
  createQueue?: (deps: AppDeps) => Promise<JobQueue>,
): Promise<AppDeps> {
  const dbHandle = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  // Migrations are advisory-locked, so a server and a worker starting together are safe. The
  // embedded database has no roles: it always migrates.
  if (config.MIGRATE_ON_START || dbHandle.kind === 'pglite') await dbHandle.migrate();
  return assembleDeps(config, log, dbHandle, createQueue);
}
