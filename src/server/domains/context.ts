import type { Actor } from '../auth/sessions';
import type { Db } from '../db/client';
import type { AppDeps, RequestMeta } from '../deps';

/**
 * What a service function receives (docs/architecture.md#the-path-of-a-request): the database (or
 * a transaction), who is acting, and the server's shared parts. tRPC procedures pass `ctx.svc`,
 * REST handlers their `ctx`.
 */
export interface ServiceContext {
  db: Db;
  actor: Actor;
  deps: AppDeps;
  /** The caller's address, user agent and request id, for the audit trail; absent for jobs and the seed. */
  request?: RequestMeta;
}

/**
 * For rules anyone may reach: the seed, jobs and public paths call these without an actor, and an
 * absent actor is never limited to a branch (docs/security.md#branch-scope).
 */
export type SystemContext = Omit<ServiceContext, 'actor'> & { actor?: Actor | null };

/** A public path's context: the caller may be signed out. */
export type PublicContext = SystemContext & { actor: Actor | null };
