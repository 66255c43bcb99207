import type { Sql } from 'postgres';

/**
 * At most `STATEMENTS_AT_ONCE` statements and transactions are sent to the pool at once; the rest
 * wait in line (docs/performance.md#the-pools-queue).
 *
 * postgres.js sends a statement that finds every connection busy down one of them anyway (it
 * pipelines up to 100 per connection). postgres.js 3.4.9 has a fault there: a transaction's
 * `begin` that arrives as the statement filling a busy connection's pipeline is sent, but the
 * connection is not kept for the transaction (its `onexecute` hook is skipped). The transaction
 * then fails with a TypeError, and the connection goes back to the pool inside the transaction
 * PostgreSQL opened, so later statements of other requests, a payment's say, run inside it.
 * It takes a burst of over 1,000 statements at once on ten connections, and no office makes one;
 * a client that misbehaves could.
 *
 * With at most 100 sent at once, no connection is ever given a 101st, so a `begin` always gets
 * its connection. Below that, nothing changes: postgres.js pipelines as before. Pipelining stays
 * on purpose: waiting for a free connection instead cost more CPU per answer and did not lower the
 * p99 (the section linked above has the measurements).
 *
 * Each statement asked of the pool outside a transaction holds one of the places while it runs,
 * and a transaction one for its whole length; its own statements run on the connection it holds,
 * as before. The client given to drizzle is the pool with `unsafe` and `begin` taking places;
 * everything else (its options, `end`) is the pool's own. drizzle awaits what `unsafe` gives at
 * once and asks it for `.values()` at most, which is all the waiting statement supports.
 */
export const STATEMENTS_AT_ONCE = 100;

export function boundedPipelines(pool: Sql, atOnce = STATEMENTS_AT_ONCE): Sql {
  const places = new Places(atOnce);
  const unsafe = (query: string, params?: unknown[], options?: Record<string, unknown>) =>
    new WaitingStatement((values) => {
      const q = pool.unsafe(query, params as never, options);
      return values ? q.values() : q;
    }, places);
  const begin = (...args: unknown[]) =>
    places.take(() => (pool.begin as (...a: unknown[]) => Promise<unknown>)(...args));
  return new Proxy(pool, {
    get(target, key, receiver) {
      if (key === 'unsafe') return unsafe;
      if (key === 'begin') return begin;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
}

/** `count` places, given in the order asked for. */
export class Places {
  private free: number;
  private readonly waiting: Array<() => void> = [];

  constructor(count: number) {
    if (!(count >= 1)) throw new Error(`At least one statement must be allowed at once (got ${count}).`);
    this.free = count;
  }

  /** Runs `work` once a place is free and gives the place back when it has settled. */
  take<T>(work: () => PromiseLike<T>): Promise<T> {
    if (this.free > 0) {
      this.free--;
      return this.run(work);
    }
    return new Promise<void>((resolve) => this.waiting.push(resolve)).then(() => this.run(work));
  }

  /** Places free now, and statements waiting: for the tests. */
  get state() {
    return { free: this.free, waiting: this.waiting.length };
  }

  private run<T>(work: () => PromiseLike<T>): Promise<T> {
    let settled: Promise<T>;
    try {
      settled = Promise.resolve(work());
    } catch (err) {
      settled = Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    settled.then(this.release, this.release);
    return settled;
  }

  /** The place passes straight to the next in line; it is counted free only when nobody waits. */
  private readonly release = () => {
    const next = this.waiting.shift();
    if (next) next();
    else this.free++;
  };
}

/**
 * What `unsafe` gives: a statement that is sent when it is awaited and a place is free, as
 * postgres.js sends its own when they are awaited. `values()` asks for rows as arrays, as drizzle
 * does for its selects.
 */
class WaitingStatement implements PromiseLike<unknown> {
  private asValues = false;
  private sent: Promise<unknown> | undefined;

  constructor(
    private readonly send: (values: boolean) => PromiseLike<unknown>,
    private readonly places: Places,
  ) {}

  values(): this {
    this.asValues = true;
    return this;
  }

  then<A = unknown, B = never>(
    onFulfilled?: ((value: unknown) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    this.sent ??= this.places.take(() => this.send(this.asValues));
    return this.sent.then(onFulfilled, onRejected);
  }
}
