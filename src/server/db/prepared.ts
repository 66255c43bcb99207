import type { Db } from './client';

/**
 * Built-once queries for the hot reads (docs/performance.md#where-the-products-time-goes): drizzle
 * builds a query's SQL on every call; a `.prepare()`d one keeps its SQL and its result mapping, and
 * postgres.js then runs it as a named statement, which PostgreSQL parses and plans once per
 * connection. A prepared query belongs to the database handle it was built on, so it is kept per
 * handle: a transaction gets its own (built on first use inside it and dropped with it), and never
 * runs outside its transaction.
 */
const built = new WeakMap<Db, Map<string, unknown>>();

export function preparedOn<Q>(db: Db, name: string, build: (db: Db) => Q): Q {
  let queries = built.get(db);
  if (!queries) {
    queries = new Map();
    built.set(db, queries);
  }
  let q = queries.get(name) as Q | undefined;
  if (q === undefined) {
    q = build(db);
    queries.set(name, q);
  }
  return q;
}
