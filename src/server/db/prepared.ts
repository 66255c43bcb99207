import type { Db } from './client';

/**
 * A read drizzle builds once per database handle, through its public `.prepare()`
 * (docs/performance.md#statements-built-once): drizzle otherwise builds a statement's SQL and its
 * result mapping again on every call, and postgres.js runs a prepared one as a named statement,
 * which PostgreSQL parses once per connection. `build` must take every value that changes between
 * calls as a `sql.placeholder`, and `name` must be different for each shape of statement.
 *
 * A transaction is a handle of its own, so a read inside one is built for that transaction (as an
 * unprepared one would be) and never runs outside it.
 */
const built = new WeakMap<Db, Map<string, unknown>>();

export function preparedOn<Q>(db: Db, name: string, build: (db: Db) => Q): Q {
  let queries = built.get(db);
  if (!queries) built.set(db, (queries = new Map<string, unknown>()));
  let q = queries.get(name) as Q | undefined;
  if (q === undefined) {
    q = build(db);
    queries.set(name, q);
  }
  return q;
}
