import { and, count, eq, gt, lt } from 'drizzle-orm';
import type { Db } from '../db/client';
import { loginAttempts } from '../db/schema';

export const MAX_FAILED_LOGINS = 5;
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;

/** Counters live in the database so every server process sees the same ones. */
export async function isLoginThrottled(db: Db, email: string): Promise<boolean> {
  const since = new Date(Date.now() - LOGIN_WINDOW_MS);
  const [row] = await db
    .select({ n: count() })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.email, email), gt(loginAttempts.createdAt, since)));
  return (row?.n ?? 0) >= MAX_FAILED_LOGINS;
}

export async function recordFailedLogin(db: Db, email: string) {
  await db.insert(loginAttempts).values({ email });
  // Old rows are useless; trimming them here keeps the table small without a cron.
  await db.delete(loginAttempts).where(lt(loginAttempts.createdAt, new Date(Date.now() - LOGIN_WINDOW_MS)));
}

export async function clearFailedLogins(db: Db, email: string) {
  await db.delete(loginAttempts).where(eq(loginAttempts.email, email));
}
