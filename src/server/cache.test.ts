import { describe, expect, it, vi } from 'vitest';
import { counter, pending, useFixedClock } from '../../tests/helpers/computations';
import { Cache } from './cache';

const use = { ttlMs: 5_000, tags: ['t'] };

useFixedClock();

describe('Cache', () => {
  it('keeps an answer for its lifetime, counted from when its computation started', async () => {
    const cache = new Cache(10);
    const c = counter();
    expect(await cache.read('k', use, c.compute)).toBe(1);
    vi.advanceTimersByTime(4_999);
    expect(await cache.read('k', use, c.compute)).toBe(1);
    expect(cache.peek('k')).toBe(1);
    vi.advanceTimersByTime(1);
    expect(cache.peek('k')).toBeUndefined();
    expect(await cache.read('k', use, c.compute)).toBe(2);
  });

  it('lets a caller ask for a younger answer than the one kept', async () => {
    const cache = new Cache(10);
    const c = counter();
    await cache.read('k', { ttlMs: 30_000, tags: [] }, c.compute);
    vi.advanceTimersByTime(2_000);
    expect(await cache.read('k', { ttlMs: 30_000, maxAgeMs: 2_000, tags: [] }, c.compute)).toBe(2);
    expect(await cache.read('k', { ttlMs: 30_000, tags: [] }, c.compute)).toBe(2);
  });

  it('shares one computation among concurrent callers, and keeps none that failed', async () => {
    const cache = new Cache(10);
    const p = pending<number>();
    const both = Promise.all([cache.read('k', use, p.compute), cache.read('k', use, p.compute)]);
    expect(p.calls()).toBe(1);
    p.finish(7);
    expect(await both).toEqual([7, 7]);

    const f = pending<number>();
    const failing = cache.read('f', use, f.compute);
    f.fail(new Error('down'));
    await expect(failing).rejects.toThrow('down');
    const c = counter();
    expect(await cache.read('f', use, c.compute)).toBe(1);
    expect(c.calls()).toBe(1);
  });

  it('invalidates by tag: kept answers, and answers of computations under way', async () => {
    const cache = new Cache(10);
    const c = counter();
    await cache.read('a', { ttlMs: 5_000, tags: ['t'] }, c.compute);
    await cache.read('b', { ttlMs: 5_000, tags: ['other'] }, c.compute);
    cache.invalidate('t');
    expect(cache.peek('a')).toBeUndefined();
    expect(cache.peek('b')).toBe(2);

    const p = pending<string>();
    const early = cache.read('a', use, p.compute);
    cache.invalidate('t');
    // A caller after the invalidation does not share the computation begun before it.
    const late = cache.read('a', use, () => Promise.resolve('late'));
    p.finish('early');
    expect(await early).toBe('early');
    expect(await late).toBe('late');
    expect(cache.peek('a')).toBe('late');
  });

  it('gives an invalidated answer to a caller that takes one', async () => {
    const cache = new Cache(10);
    const c = counter();
    await cache.read('k', use, c.compute);
    cache.invalidate('t');
    expect(await cache.read('k', { ...use, evenIfInvalidated: true }, c.compute)).toBe(1);
    expect(await cache.read('k', use, c.compute)).toBe(2);
  });

  it('does not keep what was read before one of its tags was invalidated', () => {
    const cache = new Cache(10);
    const before = cache.stamp();
    cache.invalidate('user|u1');
    cache.set('s1', 'stale', { ttlMs: 5_000, tags: ['user|u1'], since: before });
    expect(cache.peek('s1')).toBeUndefined();
    cache.set('s2', 'other user', { ttlMs: 5_000, tags: ['user|u2'], since: before });
    expect(cache.peek('s2')).toBe('other user');
    cache.set('s1', 'fresh', { ttlMs: 5_000, tags: ['user|u1'] });
    expect(cache.peek('s1')).toBe('fresh');
  });

  it('keeps nothing with a lifetime of 0, and at most its size, the least recently used going first', async () => {
    const cache = new Cache(2);
    const c = counter();
    await cache.read('zero', { ttlMs: 0, tags: [] }, c.compute);
    expect(cache.peek('zero')).toBeUndefined();
    await cache.read('a', use, c.compute);
    await cache.read('b', use, c.compute);
    expect(await cache.read('a', use, c.compute)).toBe(2);
    await cache.read('c', use, c.compute);
    expect(cache.peek('b')).toBeUndefined();
    expect(cache.peek('a')).toBe(2);
    expect(cache.peek('c')).toBe(4);
    await cache.read('big', { ...use, size: 2 }, c.compute);
    expect([cache.peek('a'), cache.peek('c'), cache.peek('big')]).toEqual([undefined, undefined, 5]);
  });
});
