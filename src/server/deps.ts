import type { FastifyBaseLogger } from 'fastify';
import type { Cache } from './cache';
import type { Config } from './config';
import type { Db, DbHandle } from './db/client';
import type { JobQueue } from './jobs/queue';
import type { SessionCache } from './auth/session-cache';
import type { SessionPolicy } from './auth/sessions';

/** Everything the server's parts share, built once in main.ts (or by a test). */
export interface AppDeps {
  config: Config;
  dbHandle: DbHandle;
  db: Db;
  jobs: JobQueue;
  log: FastifyBaseLogger;
  sessionPolicy: SessionPolicy;
  /** This process's memory of recently validated sessions. */
  sessionCache: SessionCache;
  /** The reads this server reuses until it writes (domains/read-cache.ts). */
  cache: Cache;
}

/** Where a call came from, for the audit trail (docs/audit.md): set by the tRPC and REST adapters. */
export interface RequestMeta {
  ip: string;
  userAgent: string | null;
  /** The id the server log carries for this request (`reqId`). */
  requestId: string;
}

export function sessionPolicyFrom(config: Config): SessionPolicy {
  return { idleMs: config.SESSION_IDLE_HOURS * 3600_000, maxMs: config.SESSION_MAX_DAYS * 86400_000 };
}
