import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';

/**
 * A record's children read in the record's own statement (docs/performance.md#children-in-the-records-statement):
 * an enrolment's instalments, a booking's instalments and notes. Each record's row carries one
 * more value, a correlated subquery that gathers its children as a JSON array of arrays (each
 * child's values by position, in the given order), and that value is turned back into the objects
 * the children's own select would have given: the same keys, the same values.
 *
 * A page then waits for one statement instead of two in turn, and the driver decodes one JSON text
 * per record instead of a row of text cells per child, which was most of the server's work on a
 * page of enrolments.
 *
 * Only column types whose JSON form is the value drizzle answers are taken: text and uuid
 * (strings), integer, bigint in number mode (numbers; money in minor units stays far below 2^53),
 * boolean, a date in string mode (`YYYY-MM-DD` both ways). A timestamp is sent as its milliseconds
 * since 1970, rounded down as JavaScript's Date parsing rounds PostgreSQL's microseconds, so the
 * JSON text does not depend on the session's time zone. Any other type is refused when the
 * statement is written, naming the column.
 */
export function childRows<C extends Record<string, PgColumn>>(
  table: PgTable,
  columns: C,
  where: SQL,
  orderBy: [PgColumn, ...PgColumn[]],
): SQL<Array<ChildRow<C>>> {
  const keys = Object.keys(columns);
  const kinds = keys.map((k) => kindOf(k, columns[k]!));
  const values = keys.map((k, i) =>
    kinds[i] === 'instant' ? sql`floor(extract(epoch from ${columns[k]}) * 1000)` : sql`${columns[k]}`,
  );
  const order = sql.join(
    orderBy.map((c) => sql`${c}`),
    sql`, `,
  );
  return sql<
    Array<ChildRow<C>>
  >`(select coalesce(json_agg(json_build_array(${sql.join(values, sql`, `)}) order by ${order}), '[]'::json) from ${table} where ${where})`.mapWith(
    { mapFromDriverValue: decoder<ChildRow<C>>(keys, kinds) },
  );
}

export type ChildRow<C extends Record<string, PgColumn>> = {
  [K in keyof C]: C[K]['_']['notNull'] extends true ? C[K]['_']['data'] : C[K]['_']['data'] | null;
};

type Kind = 'plain' | 'instant';

/** drizzle's column classes whose JSON value is already what drizzle answers for them. */
const PLAIN = new Set(['PgUUID', 'PgText', 'PgInteger', 'PgBigInt53', 'PgBoolean', 'PgDateString']);

function kindOf(key: string, column: PgColumn): Kind {
  if (PLAIN.has(column.columnType)) return 'plain';
  if (column.columnType === 'PgTimestamp') return 'instant';
  throw new Error(
    `Column "${key}" (${column.columnType}) cannot be read as a child row: its JSON value differs from drizzle's.`,
  );
}

/**
 * Turns the JSON array of arrays back into objects with the selection's keys, in its order, and a
 * timestamp's milliseconds into a Date. postgres.js hands a `json` value over parsed, PGlite too; a
 * string is parsed here.
 */
function decoder<T>(keys: string[], kinds: Kind[]): (value: unknown) => T[] {
  // Assigning "__proto__" would set the child's prototype instead of a key.
  if (keys.includes('__proto__')) throw new Error('A child row cannot have a "__proto__" key.');
  return (value) => {
    const list = (typeof value === 'string' ? JSON.parse(value) : value) as unknown[][];
    return list.map((values) => {
      const child: Record<string, unknown> = {};
      keys.forEach((key, i) => {
        const v = values[i];
        child[key] = kinds[i] === 'instant' && v !== null ? new Date(v as number) : v;
      });
      return child as T;
    });
  };
}
