import { count, sql } from 'drizzle-orm';
import * as drizzleUtils from 'drizzle-orm/utils';
import {
  bigint,
  boolean,
  date,
  integer,
  jsonb,
  numeric,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { bytea } from './schema/common';
import { rowMapper } from './row-mapping';

type Fields = Parameters<typeof rowMapper>[0];
// drizzle's own mapping, the reference (kept out of its published types).
const { mapResultRow, orderSelectedFields } = drizzleUtils as unknown as {
  mapResultRow: (fields: Fields, row: unknown[], joins: Record<string, boolean> | undefined) => Record<string, unknown>;
  orderSelectedFields: (selection: object) => Fields;
};

const kind = pgEnum('kind_for_test', ['a', 'b']);
const t = pgTable('row_mapping_test', {
  id: uuid('id'),
  name: text('name'),
  at: timestamp('at', { withTimezone: true }),
  plainAt: timestamp('plain_at'),
  atText: timestamp('at_text', { withTimezone: true, mode: 'string' }),
  day: date('day', { mode: 'string' }),
  amount: bigint('amount', { mode: 'number' }),
  rate: numeric('rate'),
  n: integer('n'),
  on: boolean('on'),
  kind: kind('kind'),
  doc: jsonb('doc'),
  data: bytea('data'),
});

const selection = {
  id: t.id,
  name: t.name,
  at: t.at,
  plainAt: t.plainAt,
  atText: t.atText,
  day: t.day,
  amount: t.amount,
  rate: t.rate,
  n: t.n,
  on: t.on,
  kind: t.kind,
  doc: t.doc,
  data: t.data,
  total: count(),
  cents: sql<number>`sum(${t.amount})`.mapWith(Number),
  label: sql<string>`upper(${t.name})`.as('label'),
};
const fields = orderSelectedFields(selection);

// What the drivers hand drizzle: timestamps and dates as text, numbers of big types as text.
const rows: unknown[][] = [
  [
    '6f1c2a9e-3b7d-4c1a-9e2f-0a1b2c3d4e5f',
    'Asha',
    '2026-11-27 03:28:00+00',
    '2026-11-27 03:28:00',
    '2026-11-27 03:28:00+00',
    '2026-11-27',
    '150000',
    '12.50',
    7,
    true,
    'b',
    { a: 1 },
    new Uint8Array([1, 2, 3]),
    '3',
    '4200',
    'ASHA',
  ],
  [null, null, null, null, null, null, null, null, null, null, null, null, null, '0', null, null],
];

const ours = (f: Fields, r: unknown[][], joins?: Record<string, boolean>) => rowMapper(f)!(r, joins);
const drizzles = (f: Fields, r: unknown[][], joins?: Record<string, boolean>) =>
  r.map((row) => mapResultRow(f, row, joins));
const keysOf = (rs: Array<Record<string, unknown>>) =>
  rs.map((r) =>
    Object.entries(r).map(([k, v]) => (v && typeof v === 'object' && !(v instanceof Date) ? [k, Object.keys(v)] : k)),
  );

describe('rowMapper', () => {
  it('makes the rows drizzle makes from a flat selection: same keys, order, types and nulls', () => {
    const mine = ours(fields, rows);
    expect(mine).toEqual(drizzles(fields, rows));
    expect(keysOf(mine)).toEqual(keysOf(drizzles(fields, rows)));
    // Spot checks that the decoders ran, so the comparison above compared decoded values.
    expect(mine[0]!.at).toBeInstanceOf(Date);
    expect((mine[0]!.plainAt as Date).toISOString()).toBe('2026-11-27T03:28:00.000Z');
    expect(mine[0]!.amount).toBe(150000);
    expect(Buffer.isBuffer(mine[0]!.data)).toBe(true);
    expect(mine[0]!.total).toBe(3);
    expect(mine[0]!.cents).toBe(4200);
    expect(mine[1]!.total).toBe(0);
    expect(mine[1]!.name).toBeNull();
  });

  const other = pgTable('row_mapping_other', { id: uuid('id'), title: text('title'), at: timestamp('at') });
  const nested = orderSelectedFields({
    t,
    other: { id: other.id, title: other.title, at: other.at },
    // An object of two tables: drizzle never nulls it.
    mixed: { otherTitle: other.title, name: t.name },
    n: count(),
  });
  const width = nested.length;
  const base = (overrides: Record<number, unknown>) =>
    Array.from({ length: width }, (_, i) => (i in overrides ? overrides[i] : null));
  const otherAt = nested.findIndex((f) => f.path.join('.') === 'other.at');
  const otherId = nested.findIndex((f) => f.path.join('.') === 'other.id');
  const otherTitle = nested.findIndex((f) => f.path.join('.') === 'other.title');
  const nestedRows = [
    // The joined row is there.
    base({ 0: 'a', [otherId]: 'o1', [otherTitle]: 'x', [otherAt]: '2026-01-01 00:00:00', [width - 1]: '2' }),
    // The joined row is absent: its columns are all null.
    base({ 0: 'b', [width - 1]: '1' }),
    // Its first column is null but not the others: drizzle still decides by the first.
    base({ 0: 'c', [otherTitle]: 'y', [width - 1]: '1' }),
  ];

  it('makes the rows drizzle makes from a nested selection, with and without joins that may be absent', () => {
    for (const joins of [
      undefined,
      { row_mapping_test: true, row_mapping_other: false },
      { row_mapping_test: true, row_mapping_other: true },
    ]) {
      const mine = ours(nested, nestedRows, joins);
      expect(mine).toEqual(drizzles(nested, nestedRows, joins));
      expect(keysOf(mine)).toEqual(keysOf(drizzles(nested, nestedRows, joins)));
    }
    const absentAllowed = ours(nested, nestedRows, { row_mapping_test: true, row_mapping_other: false });
    expect(absentAllowed.map((r) => r.other)).toEqual([
      { id: 'o1', title: 'x', at: new Date('2026-01-01T00:00:00Z') },
      null,
      null,
    ]);
    expect(absentAllowed[1]!.mixed).toEqual({ otherTitle: null, name: null });
  });

  it('leaves a selection nested deeper than two keys to drizzle', () => {
    expect(rowMapper(orderSelectedFields({ id: t.id, a: { b: { name: t.name } } }))).toBeNull();
  });

  it('leaves a selection with a "__proto__" key to drizzle, as the generated row literal would set the prototype', () => {
    const fields = orderSelectedFields({ id: t.id, ['__proto__']: t.name });
    expect(fields.some((f) => f.path[0] === '__proto__')).toBe(true);
    expect(rowMapper(fields)).toBeNull();
  });
});
