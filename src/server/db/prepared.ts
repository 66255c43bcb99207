import type { PgSession } from 'drizzle-orm/pg-core';
import { getTableColumns, is, sql, Table, type Column, type DriverValueEncoder, type Placeholder } from 'drizzle-orm';
import type { Db } from './client';
import * as schema from './schema';

/**
 * Built-once queries for the hot reads
 * (docs/performance.md#statements-built-once): drizzle builds a query's SQL on every call
 * (its builder objects, an `is()` prototype walk per part); a `.prepare()`d one keeps its SQL and
 * its result mapping, and postgres.js then runs it as a named statement, which PostgreSQL parses
 * and plans once per connection.
 *
 * A prepared query belongs to the database handle it was made on, and a transaction is a handle of
 * its own, so each handle keeps its own. The SQL is still built only once per process: the first
 * handle builds it, and every later one (each transaction) gets a prepared query made from what
 * drizzle's builder gave the session the first time (the SQL with its placeholders, the selected
 * fields), which costs one small object. So `build` must not capture a value of one call: every
 * value that changes between calls is a `sql.placeholder`, and `name` tells apart the shapes
 * (`enrollments.list ${shape}`). A `build` that answers something other than a prepared query (no
 * recipe is known for it) is built once per handle.
 */
const built = new WeakMap<Db, Map<string, unknown>>();
/** The first prepared query made under each name, on whichever handle asked first. */
const firstOf = new Map<string, object>();

export function preparedOn<Q>(db: Db, name: string, build: (db: Db) => Q): Q {
  let queries = built.get(db);
  if (!queries) {
    queries = new Map();
    built.set(db, queries);
  }
  let q = queries.get(name) as Q | undefined;
  if (q === undefined) {
    const first = firstOf.get(name);
    q = (first && prepareAgain(first, db._.session)) ?? withoutBuildTimeValues(name, () => build(db));
    if (!first && typeof q === 'object' && q !== null && recipes.has(q)) firstOf.set(name, q);
    queries.set(name, q);
  }
  return q;
}

/**
 * The columns whose value drizzle works out itself when it builds a statement that leaves them
 * out: `$onUpdate` (`updatedAt`) in an update or insert, `$defaultFn` in an insert. A statement
 * built once would keep that first value for good (every booking's `updatedAt` the moment the
 * first was toggled), so while a statement is built here those columns answer an SQL part that
 * refuses to be built, and a statement that leaves one out fails at once, naming it. drizzle also
 * asks an update's columns for their value when the statement sets them itself, so the refusal is
 * in building the part, not in asking for it. Building is synchronous: nothing else runs meanwhile.
 */
type SelfSetting = Column & { onUpdateFn?: () => unknown; defaultFn?: () => unknown };
const selfSetting = Object.values(schema as Record<string, unknown>)
  .flatMap((t): SelfSetting[] => (is(t, Table) ? Object.values(getTableColumns(t)) : []))
  .filter((c) => c.onUpdateFn !== undefined || c.defaultFn !== undefined);

function withoutBuildTimeValues<Q>(name: string, build: () => Q): Q {
  const saved = selfSetting.map((c) => ({ c, onUpdateFn: c.onUpdateFn, defaultFn: c.defaultFn }));
  for (const c of selfSetting) {
    const refuse = () =>
      sql`${{
        getSQL(): never {
          throw new Error(
            `Statement "${name}" would keep the ${c.name} of the moment it was built: set it from a placeholder`,
          );
        },
      }}`;
    if (c.onUpdateFn) c.onUpdateFn = refuse;
    if (c.defaultFn) c.defaultFn = refuse;
  }
  try {
    return build();
  } finally {
    for (const { c, onUpdateFn, defaultFn } of saved) Object.assign(c, { onUpdateFn, defaultFn });
  }
}

type PrepareArgs = Parameters<PgSession['prepareQuery']>;
/** What drizzle passed to `prepareQuery` for each named (`.prepare(name)`) query. */
const recipes = new WeakMap<object, PrepareArgs>();
const recording = new WeakSet<object>();
/** Set while prepareAgain makes a query from a recipe: that one needs no recipe of its own. */
let replaying = false;

/**
 * Keeps, for every named query prepared on a session of this class, the arguments drizzle's
 * builder passed: all a session needs to make the same prepared query. Installed after the other
 * session patches (db/client.ts), so a query made again goes through them too.
 */
export function rememberHowPrepared(session: { prototype: Pick<PgSession, 'prepareQuery'> }) {
  const proto = session.prototype;
  if (recording.has(proto)) return;
  recording.add(proto);
  const prepareQuery = proto.prepareQuery;
  proto.prepareQuery = function (this: PgSession, ...args: PrepareArgs) {
    const prepared = prepareQuery.apply(this, args);
    if (args[2] !== undefined && !replaying) recipes.set(prepared, args);
    return prepared;
  } as typeof prepareQuery;
}

/**
 * The same query prepared on another session, with what drizzle sets on a prepared query after
 * making it (which joined tables may be absent, for the row mapping); undefined when `first` was
 * not made through `prepareQuery` by a named builder.
 */
function prepareAgain<Q>(first: object, session: Db['_']['session']): Q | undefined {
  const args = recipes.get(first);
  if (!args) return undefined;
  replaying = true;
  let again: Record<string, unknown>;
  try {
    again = session.prepareQuery(...args) as unknown as Record<string, unknown>;
  } finally {
    replaying = false;
  }
  again.joinsNotNullableMap = (first as Record<string, unknown>).joinsNotNullableMap;
  return again as Q;
}

/**
 * A placeholder for each key, named after it (`{ amount: sql.placeholder('amount') }`): the values
 * of an insert built once. `row` numbers the names for the rows of a many-row insert
 * (`amount_1`); `rowValues` names one call's values the same way.
 */
export function placeholders<const K extends string>(keys: readonly K[], row?: number): Record<K, Placeholder<K>> {
  return Object.fromEntries(keys.map((k) => [k, sql.placeholder(row === undefined ? k : `${k}_${row}`)])) as Record<
    K,
    Placeholder<K>
  >;
}

export function rowValues(rows: Array<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  rows.forEach((r, i) => {
    for (const k in r) out[`${k}_${i}`] = r[k];
  });
  return out;
}

/**
 * A placeholder in an update's `set`, encoded by its column as drizzle encodes a plain value there
 * (a date sent as the same text); drizzle's types take placeholders in inserts and conditions only.
 */
export const slot = (column: DriverValueEncoder<unknown, unknown>, name: string) =>
  sql`${sql.param(sql.placeholder(name), column)}`;
