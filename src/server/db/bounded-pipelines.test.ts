import type { Sql } from 'postgres';
import { describe, expect, it } from 'vitest';
import { boundedPipelines, STATEMENTS_AT_ONCE } from './bounded-pipelines';

/** The bound on a stand-in pool (on PostgreSQL itself: tests/integration/bounded-pipelines.test.ts). */
describe('boundedPipelines', () => {
  /** A pool whose statements finish when the test says, recording which were sent. */
  function fakePool() {
    const sent: string[] = [];
    const finish = new Map<string, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
    const statement = (query: string, asValues: { on: boolean }) => {
      sent.push(query);
      const done = new Promise((resolve, reject) => finish.set(query, { resolve, reject }));
      return Object.assign(
        done.then((rows) => (asValues.on ? { values: rows } : rows)),
        {
          values() {
            asValues.on = true;
            return this;
          },
        },
      );
    };
    const pool = {
      unsafe: (query: string) => statement(query, { on: false }),
      begin: (fn: () => Promise<unknown>) => {
        sent.push('begin');
        return fn();
      },
      options: { max: 1 },
    };
    return { pool: pool as unknown as Sql, sent, finish };
  }
  const settle = () => new Promise((r) => setImmediate(r));

  it('sends at most 100 at once, the next in the order asked, and passes the rest through', async () => {
    const { pool, sent, finish } = fakePool();
    const db = boundedPipelines(pool);
    expect(db.options).toBe(pool.options);
    const n = STATEMENTS_AT_ONCE + 3;
    const answers = Array.from({ length: n }, (_, i) => Promise.resolve(db.unsafe(`q${i}`)));
    await settle();
    expect(sent).toHaveLength(STATEMENTS_AT_ONCE);
    finish.get('q5')!.resolve('five');
    await expect(answers[5]).resolves.toBe('five');
    await settle();
    expect(sent.at(-1)).toBe(`q${STATEMENTS_AT_ONCE}`);
    for (let i = 0; i <= STATEMENTS_AT_ONCE; i++) if (i !== 5) finish.get(`q${i}`)!.resolve(i);
    await settle();
    expect(sent).toEqual(Array.from({ length: n }, (_, i) => `q${i}`));
    finish.get(`q${n - 2}`)!.resolve('x');
    finish.get(`q${n - 1}`)!.resolve('y');
    await expect(Promise.all(answers)).resolves.toHaveLength(n);
  });

  it('asks for rows as arrays when drizzle does, and sends nothing until awaited', async () => {
    const { pool, sent, finish } = fakePool();
    const db = boundedPipelines(pool);
    const q = db.unsafe('select').values();
    await settle();
    expect(sent).toEqual([]);
    const answer = Promise.resolve(q);
    await settle();
    finish.get('select')!.resolve([[1]]);
    await expect(answer).resolves.toEqual({ values: [[1]] });
  });

  it('gives the place back when a statement fails, and holds one for a whole transaction', async () => {
    const { pool, sent, finish } = fakePool();
    const db = boundedPipelines(pool);
    const failing = Promise.resolve(db.unsafe('fails'));
    await settle();
    finish.get('fails')!.reject(new Error('failed'));
    await expect(failing).rejects.toThrow('failed');
    let inside!: () => void;
    const tx = db.begin(() => new Promise<void>((r) => (inside = r)));
    const others = Array.from({ length: STATEMENTS_AT_ONCE }, (_, i) => Promise.resolve(db.unsafe(`o${i}`)));
    await settle();
    expect(sent).toHaveLength(1 + 1 + STATEMENTS_AT_ONCE - 1);
    inside();
    await tx;
    await settle();
    expect(sent.at(-1)).toBe(`o${STATEMENTS_AT_ONCE - 1}`);
    for (let i = 0; i < STATEMENTS_AT_ONCE; i++) finish.get(`o${i}`)!.resolve(i);
    await expect(Promise.all(others)).resolves.toHaveLength(STATEMENTS_AT_ONCE);
  });
});
