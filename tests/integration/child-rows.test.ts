import { asc, eq, sql } from 'drizzle-orm';
import { bigint, boolean, date, integer, jsonb, numeric, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childRows } from '../../src/server/db/child-rows';
import type { Db } from '../../src/server/db/client';
import { openTestDatabase } from '../helpers/db';

/**
 * A record's children read in the record's own statement (docs/performance.md#children-in-the-records-statement)
 * must be the very objects the children's own select gives: the same keys, the same values, in the
 * asked order, on both drivers, whatever the session's time zone.
 */
const owners = pgTable('child_rows_owner', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
});
const items = pgTable('child_rows_item', {
  id: uuid('id').primaryKey().defaultRandom(),
  ownerId: uuid('owner_id').notNull(),
  seq: integer('seq').notNull(),
  label: text('label').notNull(),
  amount: bigint('amount', { mode: 'number' }).notNull(),
  due: date('due', { mode: 'string' }).notNull(),
  done: boolean('done').notNull(),
  at: timestamp('at', { withTimezone: true, mode: 'date' }),
});

const columns = {
  id: items.id,
  seq: items.seq,
  label: items.label,
  amount: items.amount,
  due: items.due,
  done: items.done,
  at: items.at,
};
const itemsOf = childRows(items, columns, sql`${items.ownerId} = ${owners.id}`, [items.seq]);

describe.each(['postgres', 'pglite'] as const)('children in the record’s statement, on %s', (driver) => {
  let opened: Awaited<ReturnType<typeof openTestDatabase>>;
  let db: Db;
  let full: string | undefined;
  let empty: string | undefined;

  beforeAll(async () => {
    opened = await openTestDatabase(driver);
    db = opened.handle.db;
    await db.execute(
      sql`create table child_rows_owner (id uuid primary key default gen_random_uuid(), name text not null)`,
    );
    await db.execute(sql`create table child_rows_item (id uuid primary key default gen_random_uuid(),
      owner_id uuid not null, seq integer not null, label text not null, amount bigint not null,
      due date not null, done boolean not null, at timestamptz)`);
    const made = await db
      .insert(owners)
      .values([{ name: 'with children' }, { name: 'without' }])
      .returning({ id: owners.id });
    [full, empty] = made.map((o) => o.id);
    // Inserted out of order; timestamps with microseconds, one before 1970, one absent.
    await db.execute(sql`insert into child_rows_item (owner_id, seq, label, amount, due, done, at) values
      (${full}, 2, ${'Ünïcödé "quoted" \\ back\nslash\ttab 🎓'}, 9007199254740991, '2026-02-28', true, '2026-11-29 10:41:07.123987+00'),
      (${full}, 0, '', 0, '1999-12-31', false, null),
      (${full}, 1, 'third', -125, '2100-01-01', true, '1969-12-31 23:59:59.999501+00'),
      (${full}, 3, 'fourth', 42, '2026-11-29', false, '2026-11-29 23:59:59.999999+05:30')`);
  }, 60_000);
  afterAll(async () => {
    await opened?.close();
  });

  /** What the children's own select answers, in sequence order. */
  const ownSelect = (ownerId: string | undefined) =>
    db
      .select(columns)
      .from(items)
      .where(eq(items.ownerId, ownerId ?? ''))
      .orderBy(asc(items.seq));

  it('gives each record the objects its children’s own select gives, in order', async () => {
    const rows = await db.select({ id: owners.id, items: itemsOf }).from(owners).orderBy(asc(owners.name));
    expect(rows.map((r) => r.id)).toEqual([full, empty]);
    const expected = await ownSelect(full);
    expect(expected.map((i) => i.seq)).toEqual([0, 1, 2, 3]);
    expect(rows[0]!.items).toEqual(expected);
    expect(rows[0]!.items.map((i) => Object.keys(i))).toEqual(expected.map((i) => Object.keys(i)));
    expect(rows[0]!.items[3]!.at).toBeInstanceOf(Date);
    expect(rows[0]!.items[0]!.at).toBeNull();
    expect(rows[1]!.items).toEqual([]);
  });

  it('gives the same instants whatever the session’s time zone', async () => {
    const expected = await ownSelect(full);
    const byOwner = (d: Db) =>
      d
        .select({ items: itemsOf })
        .from(owners)
        .where(eq(owners.id, full ?? ''));
    const [first] = await byOwner(db);
    expect(first!.items).toEqual(expected);
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local timezone = 'Pacific/Chatham'`);
      const [row] = await byOwner(tx);
      expect(row!.items).toEqual(expected);
    });
  });

  it('refuses a column whose JSON value would differ from drizzle’s, naming it', () => {
    const other = pgTable('child_rows_other', {
      ownerId: uuid('owner_id').notNull(),
      price: numeric('price'),
      meta: jsonb('meta'),
      stamp: timestamp('stamp', { mode: 'string' }),
    });
    const where = sql`${other.ownerId} = ${owners.id}`;
    expect(() => childRows(other, { price: other.price }, where, [other.ownerId])).toThrow(
      'Column "price" (PgNumeric)',
    );
    expect(() => childRows(other, { meta: other.meta }, where, [other.ownerId])).toThrow('Column "meta" (PgJsonb)');
    expect(() => childRows(other, { stamp: other.stamp }, where, [other.ownerId])).toThrow(
      'Column "stamp" (PgTimestampString)',
    );
  });
});
