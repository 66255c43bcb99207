import { describe, expect, it } from 'vitest';
import { Places } from './bounded-pipelines';

/** The places behind boundedPipelines (on the pool itself: tests/integration/bounded-pipelines.test.ts). */
describe('Places', () => {
  const later = () => {
    let resolve!: () => void;
    let reject!: (e: Error) => void;
    const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
    return { promise, resolve, reject };
  };

  it('runs at most `count` at once and gives the next place to the one that asked first', async () => {
    const places = new Places(2);
    const started: number[] = [];
    const gates = Array.from({ length: 5 }, later);
    const done = gates.map((g, i) =>
      places.take(() => {
        started.push(i);
        return g.promise;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect(places.state).toEqual({ free: 0, waiting: 3 });
    gates[1]!.resolve();
    await done[1];
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([0, 1, 2]);
    gates[0]!.resolve();
    gates[2]!.resolve();
    await Promise.all([done[0], done[2]]);
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([0, 1, 2, 3, 4]);
    gates[3]!.resolve();
    gates[4]!.resolve();
    await Promise.all(done);
    expect(places.state).toEqual({ free: 2, waiting: 0 });
  });

  it('gives the place back when the work fails, or throws before it starts', async () => {
    const places = new Places(1);
    await expect(places.take(() => Promise.reject(new Error('failed')))).rejects.toThrow('failed');
    await expect(
      places.take(() => {
        throw new Error('thrown');
      }),
    ).rejects.toThrow('thrown');
    expect(places.state).toEqual({ free: 1, waiting: 0 });
    await expect(places.take(() => Promise.resolve('next'))).resolves.toBe('next');
  });

  it('refuses to allow no statement at all', () => {
    expect(() => new Places(0)).toThrow(/At least one statement/);
  });
});
