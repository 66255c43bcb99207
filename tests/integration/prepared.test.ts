import { eq, sql, TransactionRollbackError } from 'drizzle-orm';
import { pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db/client';
import { preparedOn } from '../../src/server/db/prepared';
import { openTestDatabase } from '../helpers/db';

/**
 * A read built once (docs/performance.md#statements-built-once) must answer each call with that
 * call's values, and a read inside a transaction must see the transaction's own writes and never
 * run outside it: it is built for the transaction's handle, not taken from the server's.
 */
const notes = pgTable('prepared_note', {
  id: uuid('id').primaryKey().defaultRandom(),
  owner: text('owner').notNull(),
  body: text('body').notNull(),
});

const byOwner = (db: Db) =>
  preparedOn(db, 'prepared_note_by_owner', (d) =>
    d
      .select({ body: notes.body })
      .from(notes)
      .where(eq(notes.owner, sql.placeholder('owner')))
      .orderBy(notes.body)
      .prepare('prepared_note_by_owner'),
  );

describe.each(['postgres', 'pglite'] as const)('statements built once, on %s', (driver) => {
  let opened: Awaited<ReturnType<typeof openTestDatabase>>;
  let db: Db;

  beforeAll(async () => {
    opened = await openTestDatabase(driver);
    db = opened.handle.db;
    await db.execute(
      sql`create table prepared_note (id uuid primary key default gen_random_uuid(), owner text not null, body text not null)`,
    );
    await db.insert(notes).values([
      { owner: 'ama', body: 'first' },
      { owner: 'ama', body: 'second' },
      { owner: 'kasun', body: 'third' },
    ]);
  });
  afterAll(() => opened.close());

  it('answers each call with its own values, from one statement per handle', async () => {
    expect(byOwner(db)).toBe(byOwner(db));
    expect(await byOwner(db).execute({ owner: 'ama' })).toEqual([{ body: 'first' }, { body: 'second' }]);
    expect(await byOwner(db).execute({ owner: 'kasun' })).toEqual([{ body: 'third' }]);
    expect(await byOwner(db).execute({ owner: 'nobody' })).toEqual([]);
  });

  it('reads inside a transaction what the transaction wrote, and the server does not see it', async () => {
    await db
      .transaction(async (tx) => {
        await tx.insert(notes).values({ owner: 'nimal', body: 'uncommitted' });
        expect(byOwner(tx)).not.toBe(byOwner(db));
        expect(await byOwner(tx).execute({ owner: 'nimal' })).toEqual([{ body: 'uncommitted' }]);
        // PGlite has one connection, which the transaction holds: the server's read would wait for it.
        if (driver === 'postgres') expect(await byOwner(db).execute({ owner: 'nimal' })).toEqual([]);
        tx.rollback();
      })
      .catch((err: unknown) => {
        // drizzle's rollback() ends the transaction by throwing; anything else is a failure.
        if (!(err instanceof TransactionRollbackError)) throw err;
      });
    expect(await byOwner(db).execute({ owner: 'nimal' })).toEqual([]);
  });
});
