import type { PGlite, Results, Transaction } from '@electric-sql/pglite';

/**
 * Counts the changes made to an embedded (PGlite) database (docs/performance.md#embedded-reuse).
 * The embedded server is the only process that can open its data folder, and every statement it
 * runs passes through the client wrapped here, so the count is exact: it moves whenever data may
 * have changed, whoever asked for it (a request, an in-process job, the session check), and it
 * does not move while nothing changed. Reads reused "until the data changes" compare it.
 *
 * A statement counts as a change unless it is known not to be one:
 * - a `select` (its first word) never is;
 * - an `insert`, `update` or `delete` is one when it touched a row (PGlite's `affectedRows`). One
 *   that touched none changed nothing, and its statement-level triggers found no rows to act on;
 *   the in-process job queue's claim, an update every second, is such a statement while no job is due;
 * - anything else is (a `with` that may hide a write, DDL, `truncate`, several statements at once);
 * - a transaction is one, counted when it ends (committed or rolled back), whatever it ran: a
 *   `select` inside one may call a function that writes (the audit log's purge does), and the
 *   reads on the paths that are reused run outside transactions. A read outside a transaction
 *   waits for it to end (PGlite runs one at a time), so no read sees its middle.
 * A `select` outside a transaction that calls a writing function would be missed: the product has
 * none (its one writing function, the audit purge, runs in a transaction).
 */
export function countChanges(client: PGlite): () => number {
  let changes = 0;
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the client as `this`
  const { query, exec, transaction } = client;

  client.query = async function <T>(this: PGlite, sql: string, params?: unknown[], options?: object) {
    const result = await query.call<PGlite, [string, unknown[]?, object?], Promise<Results<T>>>(
      this,
      sql,
      params,
      options,
    );
    if (isChange(sql, result)) changes++;
    return result;
  } as typeof client.query;

  client.exec = async function (this: PGlite, ...args: Parameters<PGlite['exec']>) {
    try {
      return await exec.apply(this, args);
    } finally {
      changes++;
    }
  };

  client.transaction = async function <T>(this: PGlite, callback: (tx: Transaction) => Promise<T>) {
    try {
      return await transaction.call<PGlite, [(tx: Transaction) => Promise<T>], Promise<T>>(this, callback);
    } finally {
      changes++;
    }
  };

  return () => changes;
}

const FIRST_WORD = /^[\s(]*([a-z]+)/i;

/** Whether a statement that ran may have changed data (see countChanges). */
export function isChange(sql: string, result: Pick<Results, 'affectedRows'>): boolean {
  const word = FIRST_WORD.exec(sql)?.[1]?.toLowerCase();
  if (word === 'select') return false;
  if (word === 'insert' || word === 'update' || word === 'delete') return (result.affectedRows ?? 1) > 0;
  return true;
}
