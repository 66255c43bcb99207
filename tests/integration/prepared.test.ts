import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db/client';
import { placeholders, preparedOn, rowValues } from '../../src/server/db/prepared';
import { treatmentBookings } from '../../src/server/db/schema';
import { openTestDatabase } from '../helpers/db';

/**
 * Statements built once for the whole process and run in every transaction
 * (docs/performance.md#statements-built-once): each transaction runs them on its own connection
 * with its own values, a rollback takes back only its own writes, the row mapping (absent left
 * joins) is the same as on the handle that built them, and a write that would keep a value worked
 * out when it was built is refused. On both drivers.
 */
const parents = pgTable('prepared_test_parent', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  at: timestamp('at', { withTimezone: true }),
});
const children = pgTable('prepared_test_child', {
  id: uuid('id').primaryKey().defaultRandom(),
  parentId: uuid('parent_id'),
  label: text('label').notNull(),
});

const P = sql.placeholder;
/** Names are per process: each test uses its own, so one test's statement is not another's. */
const unique = (what: string) => `${what} ${randomUUID()}`;

/** Runs `work` in a transaction and rolls it back (drizzle's rollback ends it with a throw). */
async function rolledBack(db: Db, work: (tx: Db) => Promise<unknown>): Promise<void> {
  await db
    .transaction(async (tx) => {
      await work(tx);
      tx.rollback();
    })
    .catch((err: unknown) => {
      if (!String(err).includes('Rollback')) throw err;
    });
}

describe.each(['postgres', 'pglite'] as const)('statements built once, on %s', (driver) => {
  let opened: Awaited<ReturnType<typeof openTestDatabase>>;
  let db: Db;

  beforeAll(async () => {
    opened = await openTestDatabase(driver);
    db = opened.handle.db;
    await db.execute(
      sql`create table prepared_test_parent (id uuid primary key default gen_random_uuid(), name text not null, at timestamptz)`,
    );
    await db.execute(
      sql`create table prepared_test_child (id uuid primary key default gen_random_uuid(), parent_id uuid, label text not null)`,
    );
  }, 60_000);
  afterAll(async () => {
    await opened?.close();
  });

  it('builds a read once and runs it in each transaction, on that transaction, with its values', async () => {
    const name = unique('parent by name');
    let builds = 0;
    const byName = (h: Db) =>
      preparedOn(h, name, (d) => {
        builds++;
        return d
          .select()
          .from(parents)
          .where(eq(parents.name, P('name')))
          .prepare('test_parent_by_name');
      });
    await db.insert(parents).values({ name: 'committed' });
    expect(await byName(db).execute({ name: 'committed' })).toHaveLength(1);

    for (const label of ['first', 'second', 'third']) {
      await rolledBack(db, async (tx) => {
        await tx.insert(parents).values({ name: label });
        // The transaction sees its own row, not yet committed: the statement ran on its connection.
        const [row] = await byName(tx).execute({ name: label });
        expect(row?.name).toBe(label);
        if (driver === 'postgres') {
          // Outside it, on the pool, the row does not exist yet.
          expect(await byName(db).execute({ name: label })).toEqual([]);
        }
      });
      expect(await byName(db).execute({ name: label })).toEqual([]);
    }
    expect(builds).toBe(1);
  });

  it('builds a write once; each transaction writes its own values and a rollback takes back only its own', async () => {
    const name = unique('insert parents');
    let builds = 0;
    const insertTwo = (h: Db) =>
      preparedOn(h, name, (d) => {
        builds++;
        return d
          .insert(parents)
          .values([placeholders(['name', 'at'], 0), placeholders(['name', 'at'], 1)])
          .returning({ id: parents.id, at: parents.at })
          .prepare('test_insert_parents');
      });
    const at = new Date('2026-03-04T05:06:07.000Z');
    const write = (h: Db, prefix: string) =>
      insertTwo(h).execute(
        rowValues([
          { name: `${prefix}-1`, at },
          { name: `${prefix}-2`, at },
        ]),
      );

    const kept = await db.transaction((tx) => write(tx, 'kept'));
    expect(kept.map((r) => r.at)).toEqual([at, at]);
    await rolledBack(db, (tx) => write(tx, 'undone'));
    await db.transaction((tx) => write(tx, 'also-kept'));

    const names = (await db.select({ name: parents.name, at: parents.at }).from(parents))
      .filter((r) => r.name.includes('kept') || r.name.includes('undone'))
      .sort((a, b) => a.name.localeCompare(b.name));
    expect(names).toEqual([
      { name: 'also-kept-1', at },
      { name: 'also-kept-2', at },
      { name: 'kept-1', at },
      { name: 'kept-2', at },
    ]);
    expect(builds).toBe(1);
  });

  it('maps rows in a later transaction as on the handle that built it: an absent left join is null', async () => {
    const name = unique('child with parent');
    const [parent] = await db.insert(parents).values({ name: 'with child' }).returning();
    const [withParent] = await db.insert(children).values({ parentId: parent!.id, label: 'has one' }).returning();
    const [orphan] = await db.insert(children).values({ parentId: null, label: 'has none' }).returning();
    const childWithParent = (h: Db) =>
      preparedOn(h, name, (d) =>
        d
          .select({ label: children.label, parent: parents })
          .from(children)
          .leftJoin(parents, eq(parents.id, children.parentId))
          .where(eq(children.id, P('id')))
          .prepare('test_child_with_parent'),
      );
    // Built inside a transaction, then made again on the pool and in another transaction.
    const inFirst = await db.transaction((tx) => childWithParent(tx).execute({ id: orphan!.id }));
    const onPool = await childWithParent(db).execute({ id: orphan!.id });
    const inSecond = await db.transaction(async (tx) => ({
      orphan: await childWithParent(tx).execute({ id: orphan!.id }),
      child: await childWithParent(tx).execute({ id: withParent!.id }),
    }));
    expect(inFirst).toEqual([{ label: 'has none', parent: null }]);
    expect(onPool).toEqual([{ label: 'has none', parent: null }]);
    expect(inSecond.orphan).toEqual([{ label: 'has none', parent: null }]);
    expect(inSecond.child).toEqual([{ label: 'has one', parent }]);
  });

  it('refuses to build once a write that would keep the value a column works out when built', () => {
    // treatment_bookings.updated_at is `$onUpdate(() => new Date())`: left out, drizzle would put
    // the moment of building into the statement, and every later booking toggle would write it.
    const leftOut = unique('booking status without updated_at');
    expect(() =>
      preparedOn(db, leftOut, (d) =>
        d
          .update(treatmentBookings)
          .set({ paymentStatus: sql`${P('status')}` })
          .where(eq(treatmentBookings.id, P('id')))
          .prepare('test_booking_status'),
      ),
    ).toThrow(`Statement "${leftOut}" would keep the updated_at of the moment it was built`);
    // Given from a placeholder, it builds, and the column works out its value again afterwards.
    const given = preparedOn(db, unique('booking status with updated_at'), (d) =>
      d
        .update(treatmentBookings)
        .set({ paymentStatus: sql`${P('status')}`, updatedAt: sql`${P('updatedAt')}` })
        .where(eq(treatmentBookings.id, P('id')))
        .prepare('test_booking_status'),
    );
    expect(given).toBeDefined();
    expect(treatmentBookings.updatedAt.onUpdateFn?.()).toBeInstanceOf(Date);
  });

  it('builds anything that is not a prepared query once per handle', async () => {
    const name = unique('not a prepared query');
    let builds = 0;
    const marker = (h: Db) =>
      preparedOn(h, name, () => {
        builds++;
        return { builtFor: builds };
      });
    expect(marker(db)).toBe(marker(db));
    await db.transaction(async (tx) => {
      expect(marker(tx)).toBe(marker(tx));
      expect(marker(tx)).not.toBe(marker(db));
    });
    expect(builds).toBe(2);
  });
});
