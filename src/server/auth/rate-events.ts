import { and, count, eq, gt, lt, min, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rateEvents } from '../db/schema';
import { throttled } from './throttle';

export interface EventLimit {
  /** Names the limit: counts of different buckets never mix. */
  bucket: string;
  max: number;
  windowMs: number;
  message: string;
}

/**
 * Counts one event against each limit, or refuses with the 429 of the first one used up (with the
 * seconds until its oldest event leaves the window) and counts nothing. Under an advisory lock per
 * limit and key, so requests sent together are counted one after another and cannot overshoot.
 */
export async function countEvents(db: Db, limits: Array<{ limit: EventLimit; key: string }>): Promise<void> {
  await db.transaction(async (tx) => {
    // Always the same order, so two requests taking the same locks never deadlock.
    const sorted = [...limits].sort((a, b) => `${a.limit.bucket}|${a.key}`.localeCompare(`${b.limit.bucket}|${b.key}`));
    const now = Date.now();
    for (const { limit, key } of sorted) {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`rate:${limit.bucket}|${key}`}))`);
      // This limit's and key's events, and when the window opened.
      const mine = and(eq(rateEvents.bucket, limit.bucket), eq(rateEvents.key, key));
      const windowStart = new Date(now - limit.windowMs);
      const [seen] = await tx
        .select({ n: count(), oldest: min(rateEvents.createdAt) })
        .from(rateEvents)
        .where(and(mine, gt(rateEvents.createdAt, windowStart)));
      if ((seen?.n ?? 0) >= limit.max) {
        const oldest = seen?.oldest ?? null;
        throw throttled(
          limit.message,
          oldest ? (oldest.getTime() + limit.windowMs - now) / 1000 : limit.windowMs / 1000,
        );
      }
      // Events past their window count for nothing; trimming them here needs no cron.
      await tx.delete(rateEvents).where(and(mine, lt(rateEvents.createdAt, windowStart)));
    }
    await tx.insert(rateEvents).values(sorted.map(({ limit, key }) => ({ bucket: limit.bucket, key })));
  });
}
