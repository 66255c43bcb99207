import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type DbHandle } from '../../src/server/db/client';
import { createTestDatabase } from '../helpers/db';

/** One statement's rows (the driver's rows are arrays of objects; the shared `Db` type leaves them unknown). */
type Rows = Array<Record<string, unknown>>;
const rows = (result: PromiseLike<unknown>) => Promise.resolve(result) as Promise<Rows>;

/**
 * On PostgreSQL at most 100 statements are sent to the pool at once, so that postgres.js never
 * gives a connection a 101st, where it would send a transaction's `begin` without keeping the
 * connection for the transaction (porsager/postgres#1189; src/server/db/bounded-pipelines.ts,
 * docs/performance.md#the-pools-queue). Checked on the database handle the server opens; given
 * the bare pool instead, the first test fails on postgres.js 3.4.9 with the driver's TypeError.
 */
describe('statements sent to the pool at once, on PostgreSQL', () => {
  const opened: Array<{ handle: DbHandle; drop(): Promise<void> }> = [];
  afterEach(async () => {
    for (const o of opened.splice(0)) {
      await o.handle.close();
      await o.drop();
    }
  });
  async function open(max: number) {
    const d = await createTestDatabase();
    const handle = await openDatabase({ databaseUrl: d.url, dataDir: '', max });
    opened.push({ handle, drop: () => d.drop() });
    return handle.db;
  }

  it('a transaction asked for behind 100 statements on a busy connection holds its connection to the end', async () => {
    const db = await open(1);
    await db.execute(sql`select 1`);
    // postgres.js 3.4.9 sends a `begin` that fills a busy connection's queue (the 101st statement
    // on it) without keeping the connection for the transaction; other statements then run inside.
    // 100 statements are sent first (`then` sends them), and the transaction is asked for after.
    const outside = Array.from({ length: 100 }, () => rows(db.execute(sql`select pg_sleep(0.005)`)));
    await new Promise((r) => setImmediate(r));
    const inside = db.transaction(async (tx) => {
      const first = await rows(tx.execute(sql`select txid_current() as id`));
      await tx.execute(sql`select pg_sleep(0.1)`);
      const second = await rows(tx.execute(sql`select txid_current() as id`));
      return [first[0]!.id, second[0]!.id];
    });
    const after = Array.from({ length: 20 }, () => rows(db.execute(sql`select txid_current_if_assigned() as id`)));
    const [ids] = await Promise.all([inside, Promise.all(outside)]);
    expect(ids[0]).toBe(ids[1]);
    // No statement asked for outside the transaction ran inside it.
    const seen = (await Promise.all(after)).map((r) => r[0]!.id);
    expect(seen.every((id) => id === null)).toBe(true);
  });

  it('transactions and statements past the bound, asked for all at once, all finish, each transaction on one backend', async () => {
    const db = await open(3);
    const transactions = Array.from({ length: 30 }, (_, i) =>
      db.transaction(async (tx) => {
        const a = await rows(tx.execute(sql`select pg_backend_pid() as pid`));
        await tx.execute(sql`select pg_sleep(${(i % 3) * 0.01})`);
        const b = await rows(tx.execute(sql`select pg_backend_pid() as pid`));
        return a[0]!.pid === b[0]!.pid;
      }),
    );
    const statements = Array.from({ length: 300 }, (_, i) => rows(db.execute(sql`select ${i}::int as n`)));
    const [same, results] = await Promise.all([Promise.all(transactions), Promise.all(statements)]);
    expect(same).toEqual(Array.from({ length: 30 }, () => true));
    expect(results.map((r) => r[0]!.n)).toEqual(Array.from({ length: 300 }, (_, i) => i));
  });
});
