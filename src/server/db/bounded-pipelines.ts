import type { Sql } from 'postgres';

/**
 * At most 100 statements and transactions are sent to the pool at once; the rest wait in line
 * (docs/performance.md#the-pools-queue).
 *
 * postgres.js pipelines up to 100 statements on a busy connection, and in 3.4.9 a transaction's
 * `begin` that fills a connection's pipeline is sent without the connection being kept for the
 * transaction (porsager/postgres#1189): the transaction fails with a TypeError, and the connection
 * goes back to the pool inside the transaction PostgreSQL opened, so other requests' statements run
 * in it. With at most 100 in flight over the whole pool, no connection ever gets a 101st. Below
 * that nothing changes: pipelining stays. This can go once a postgres.js release fixes #1189.
 *
 * A statement outside a transaction holds a place while it runs, a transaction for its whole
 * length (its own statements run on its connection). drizzle asks the client for `unsafe` (awaited
 * at once, with `.values()` at most) and `begin`; everything else is the pool's own.
 */
export const STATEMENTS_AT_ONCE = 100;

export function boundedPipelines(pool: Sql): Sql {
  let free = STATEMENTS_AT_ONCE;
  const waiting: Array<() => void> = [];
  // The place passes straight to the next in line; it is counted free only when nobody waits.
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else free++;
  };
  const take = async <T>(work: () => PromiseLike<T>): Promise<T> => {
    if (free > 0) free--;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await work();
    } finally {
      release();
    }
  };

  const unsafe = (query: string, params?: unknown[], options?: Record<string, unknown>) => {
    let asValues = false;
    let sent: Promise<unknown> | undefined;
    const send = () =>
      take(() => {
        const q = pool.unsafe(query, params as never, options);
        return asValues ? q.values() : q;
      });
    // Sent when awaited, as postgres.js sends its own statements.
    const statement = {
      values() {
        asValues = true;
        return statement;
      },
      then(onFulfilled?: (value: unknown) => unknown, onRejected?: (reason: unknown) => unknown) {
        sent ??= send();
        return sent.then(onFulfilled, onRejected);
      },
    };
    return statement;
  };
  const begin = (...args: unknown[]) => take(() => (pool.begin as (...a: unknown[]) => Promise<unknown>)(...args));

  return new Proxy(pool, {
    get(target, key, receiver) {
      if (key === 'unsafe') return unsafe;
      if (key === 'begin') return begin;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
}
