import { hash } from 'node:crypto';
import { encodeBase32LowerCaseNoPadding } from '@oslojs/encoding';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { sessions, users } from '../db/schema';
import type { Role } from '../../shared/roles';
import type { SessionCache } from './session-cache';

/** Sessions as in Lucia's session guide: a random token for the client, its SHA-256 as the id. */
export interface SessionPolicy {
  idleMs: number;
  maxMs: number;
}

export interface Actor {
  id: string;
  role: Role;
  email: string;
  username: string;
  /** As it stands now; a receipt keeps the cashier's (payments.received_by_full_name). */
  fullName: string;
  branchId: string | null;
  sessionId: string;
}

export function generateSessionToken(): string {
  const bytes = new Uint8Array(20);
  crypto.getRandomValues(bytes);
  return encodeBase32LowerCaseNoPadding(bytes);
}

/**
 * The guide's SHA-256 in hex. Node's own hash rather than @oslojs/crypto's JavaScript one: the
 * same digest at a third of the cost, and every signed-in request hashes its token
 * (docs/performance.md#where-the-products-time-goes). The one-shot `hash` skips the Hash object
 * that `createHash` builds for a streamed input: 0.4 against 1.0 µs a token.
 */
export function sessionIdFromToken(token: string): string {
  return hash('sha256', token, 'hex');
}

export async function createSession(db: Db, userId: string, policy: SessionPolicy) {
  const token = generateSessionToken();
  const now = Date.now();
  const expiresAt = new Date(now + Math.min(policy.idleMs, policy.maxMs));
  await db.insert(sessions).values({ id: sessionIdFromToken(token), userId, lastUsedAt: new Date(now), expiresAt });
  return { token, expiresAt };
}

/** The session id a token stands for, or null when the text cannot be one of our tokens. */
export function sessionIdOf(token: string): string | null {
  return /^[a-z2-7]{32}$/.test(token) ? sessionIdFromToken(token) : null;
}

/**
 * The signed-in user of a session the cache did not hold (the sign-in hook looks there first,
 * src/server/http/auth-hook.ts), and slides the idle window. The row's expiresAt is the earlier of
 * lastUsed + idle and created + max; it is refreshed at most once a minute to spare writes.
 */
export async function readSession(
  db: Db,
  id: string,
  policy: SessionPolicy,
  cache?: SessionCache,
): Promise<Actor | null> {
  const ticket = cache?.ticket();
  const rows = await db
    .select({
      session: sessions,
      user: {
        id: users.id,
        role: users.role,
        email: users.email,
        username: users.username,
        fullName: users.fullName,
        branchId: users.branchId,
      },
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.id, id))
    .limit(1);
  const row = rows[0];
  if (!row) return null;
  const now = Date.now();
  if (row.session.expiresAt.getTime() <= now) {
    await db.delete(sessions).where(eq(sessions.id, id));
    return null;
  }
  if (now - row.session.lastUsedAt.getTime() > 60_000) {
    const hardEnd = row.session.createdAt.getTime() + policy.maxMs;
    await db
      .update(sessions)
      .set({ lastUsedAt: new Date(now), expiresAt: new Date(Math.min(now + policy.idleMs, hardEnd)) })
      .where(eq(sessions.id, id));
  }
  const actor = { ...row.user, sessionId: id };
  cache?.set(actor, row.session.expiresAt.getTime(), now, ticket);
  return actor;
}

/** Ends one session; `cache` is this server's session cache, evicted at once. */
export async function invalidateSession(db: Db, sessionId: string, cache: SessionCache | null) {
  cache?.forgetSession(sessionId);
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}

/** A role change, a password change or reset, and deleting the user end every session. */
export async function invalidateUserSessions(db: Db, userId: string, cache: SessionCache | null) {
  cache?.forgetUser(userId);
  await db.delete(sessions).where(eq(sessions.userId, userId));
}
