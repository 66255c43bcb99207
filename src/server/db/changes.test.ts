import { PGlite } from '@electric-sql/pglite';
import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countChanges, isChange } from './changes';

/**
 * The embedded database's change count (docs/performance.md#embedded-reuse), on a real in-memory
 * PGlite: it must move at every change, through drizzle as the services write, and stay put
 * while only reads, and writes that touch no row, run.
 */
const notes = pgTable('notes', { id: integer('id').primaryKey(), body: text('body').notNull() });

let client: PGlite;
let changes: () => number;
let db: ReturnType<typeof drizzle>;

beforeAll(async () => {
  client = await PGlite.create();
  changes = countChanges(client);
  db = drizzle({ client });
  await client.query('create table notes (id integer primary key, body text not null)');
});
afterAll(async () => {
  await client?.close();
});

/** How much the count moved while `run` ran. */
async function moved(run: () => Promise<unknown>): Promise<number> {
  const before = changes();
  await run();
  return changes() - before;
}

describe('countChanges', () => {
  it('counts each insert, update and delete that touches a row', async () => {
    expect(await moved(() => db.insert(notes).values({ id: 1, body: 'a' }))).toBe(1);
    expect(await moved(() => db.update(notes).set({ body: 'b' }).where(eq(notes.id, 1)))).toBe(1);
    expect(await moved(() => db.insert(notes).values({ id: 2, body: 'c' }).returning())).toBe(1);
    expect(await moved(() => db.delete(notes).where(eq(notes.id, 2)))).toBe(1);
    expect(await db.select().from(notes)).toEqual([{ id: 1, body: 'b' }]);
  });

  it('does not count reads, nor writes that touch no row', async () => {
    expect(await moved(() => db.select().from(notes))).toBe(0);
    expect(await moved(() => db.execute(sql`select count(*) from notes`))).toBe(0);
    expect(await moved(() => db.update(notes).set({ body: 'x' }).where(eq(notes.id, 999)))).toBe(0);
    expect(await moved(() => db.delete(notes).where(eq(notes.id, 999)))).toBe(0);
    expect(await moved(() => db.insert(notes).values({ id: 1, body: 'dup' }).onConflictDoNothing().returning())).toBe(
      0,
    );
    expect(await db.select().from(notes)).toEqual([{ id: 1, body: 'b' }]);
  });

  it('counts a statement that may hide a write, and several statements at once', async () => {
    expect(
      await moved(() =>
        client.query(`with u as (update notes set body = 'w' where id = 1 returning id) select * from u`),
      ),
    ).toBe(1);
    expect(await moved(() => client.exec(`select 1; select 2`))).toBe(1);
    expect(await moved(() => client.query(`create index notes_body on notes (body)`))).toBe(1);
  });

  it('counts a transaction once when it ends, committed, rolled back or read-only', async () => {
    expect(
      await moved(() =>
        db.transaction(async (tx) => {
          await tx.insert(notes).values({ id: 3, body: 't' });
          await tx.update(notes).set({ body: 'u' }).where(eq(notes.id, 3));
        }),
      ),
    ).toBe(1);
    const rolledBack = moved(() =>
      db.transaction(async (tx) => {
        await tx.delete(notes).where(eq(notes.id, 3));
        throw new Error('changed my mind');
      }),
    );
    await expect(rolledBack).rejects.toThrow('changed my mind');
    expect(await db.select().from(notes).where(eq(notes.id, 3))).toEqual([{ id: 3, body: 'u' }]);
    // A select inside a transaction may call a function that writes (the audit purge does).
    expect(await moved(() => db.transaction((tx) => tx.execute(sql`select 1`)))).toBe(1);
  });

  it('does not count a statement that failed', async () => {
    const failed = () => expect(client.query(`insert into notes (id, body) values (1, 'again')`)).rejects.toThrow();
    expect(await moved(failed)).toBe(0);
  });
});

describe('isChange', () => {
  it('reads the statement by its first word, after spaces and parentheses', () => {
    expect(isChange('  SELECT 1', { affectedRows: 0 })).toBe(false);
    expect(isChange('(select 1) union (select 2)', { affectedRows: 0 })).toBe(false);
    expect(isChange('Update t set a = 1', { affectedRows: 2 })).toBe(true);
    expect(isChange('delete from t', { affectedRows: 0 })).toBe(false);
    expect(isChange('truncate t', { affectedRows: 0 })).toBe(true);
    expect(isChange('WITH x AS (delete from t returning 1) select 1', { affectedRows: 0 })).toBe(true);
  });
});
