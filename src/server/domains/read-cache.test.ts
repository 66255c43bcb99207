import { describe, expect, it, vi } from 'vitest';
import { counter, useFixedClock } from '../../../tests/helpers/computations';
import type { AppDeps } from '../deps';
import { listTotal } from './keyset';
import { afterWrite, invalidateReads, readCache, reusedPage, reusedRead } from './read-cache';

/** A server as the reused reads see it: its config's lifetime, its database's kind and its own cache. */
const server = (seconds = 30, kind: 'pglite' | 'postgres' = 'postgres') =>
  ({ config: { DASHBOARD_CACHE_SECONDS: seconds }, dbHandle: { kind }, cache: readCache() }) as unknown as AppDeps;

useFixedClock();

describe('reusedRead', () => {
  it('shares one computation between concurrent callers', async () => {
    const deps = server();
    const c = counter();
    const [a, b] = await Promise.all([reusedRead(deps, 'k', c.compute), reusedRead(deps, 'k', c.compute)]);
    expect([a, b]).toEqual([1, 1]);
    expect(c.calls()).toBe(1);
  });

  it('computes again after a write, and after the lifetime', async () => {
    const deps = server(5);
    const c = counter();
    expect(await reusedRead(deps, 'k', c.compute)).toBe(1);
    invalidateReads(deps);
    expect(await reusedRead(deps, 'k', c.compute)).toBe(2);
    vi.advanceTimersByTime(4_999);
    expect(await reusedRead(deps, 'k', c.compute)).toBe(2);
    vi.advanceTimersByTime(1);
    expect(await reusedRead(deps, 'k', c.compute)).toBe(3);
  });

  it('forgets a failed computation at once', async () => {
    const deps = server();
    await expect(reusedRead(deps, 'k', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    const c = counter();
    expect(await reusedRead(deps, 'k', c.compute)).toBe(1);
    expect(c.calls()).toBe(1);
  });

  it('keeps each server and each key apart, and reuses nothing with a lifetime of 0', async () => {
    const one = server();
    const two = server();
    const c = counter();
    expect(await reusedRead(one, 'k', c.compute)).toBe(1);
    expect(await reusedRead(two, 'k', c.compute)).toBe(2);
    expect(await reusedRead(one, 'other', c.compute)).toBe(3);
    expect(await reusedRead(one, 'k', c.compute)).toBe(1);
    const off = server(0);
    const d = counter();
    await Promise.all([reusedRead(off, 'k', d.compute), reusedRead(off, 'k', d.compute)]);
    expect(d.calls()).toBe(2);
  });
});

describe('listTotal', () => {
  it('reuses a count for pages with a cursor for 30 s whatever is written', async () => {
    const deps = server();
    const c = counter();
    expect(await listTotal(deps, 'users', false, c.compute)).toBe(1);
    invalidateReads(deps);
    vi.advanceTimersByTime(29_999);
    expect(await listTotal(deps, 'users', true, c.compute)).toBe(1);
    vi.advanceTimersByTime(1);
    expect(await listTotal(deps, 'users', true, c.compute)).toBe(2);
  });

  it('recounts page 1 after a write or after DASHBOARD_CACHE_SECONDS', async () => {
    const deps = server(2);
    const c = counter();
    expect(await listTotal(deps, 'users', false, c.compute)).toBe(1);
    expect(await listTotal(deps, 'users', false, c.compute)).toBe(1);
    invalidateReads(deps);
    expect(await listTotal(deps, 'users', false, c.compute)).toBe(2);
    vi.advanceTimersByTime(2_000);
    expect(await listTotal(deps, 'users', false, c.compute)).toBe(3);
    // The next page, with a cursor, still reuses page 1's count (its own rule: 30 s).
    vi.advanceTimersByTime(10_000);
    expect(await listTotal(deps, 'users', true, c.compute)).toBe(3);
  });

  it('with DASHBOARD_CACHE_SECONDS=0 counts every page 1, and the pages after it reuse that count', async () => {
    const deps = server(0);
    const c = counter();
    expect(await listTotal(deps, 'users', false, c.compute)).toBe(1);
    expect(await listTotal(deps, 'users', false, c.compute)).toBe(2);
    expect(await listTotal(deps, 'users', true, c.compute)).toBe(2);
  });

  it('shares one count between concurrent pages and forgets a failed one', async () => {
    const deps = server();
    const c = counter();
    await Promise.all([listTotal(deps, 'k', false, c.compute), listTotal(deps, 'k', true, c.compute)]);
    expect(c.calls()).toBe(1);
    await expect(listTotal(deps, 'f', false, () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await listTotal(deps, 'f', true, c.compute)).toBe(2);
  });
});

describe('afterWrite', () => {
  it('forgets the reads once the write is done, whether it succeeded or failed', async () => {
    const deps = server();
    const c = counter();
    expect(await reusedRead(deps, 'k', c.compute)).toBe(1);
    expect(await afterWrite(deps, Promise.resolve('written'))).toBe('written');
    expect(await reusedRead(deps, 'k', c.compute)).toBe(2);
    await expect(afterWrite(deps, Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    expect(await reusedRead(deps, 'k', c.compute)).toBe(3);
  });

  it('a read that ran while a write committed is not given again', async () => {
    const deps = server();
    let finish!: (n: number) => void;
    const during = reusedRead(deps, 'k', () => new Promise<number>((resolve) => (finish = resolve)));
    invalidateReads(deps);
    finish(1);
    expect(await during).toBe(1);
    const c = counter();
    expect(await reusedRead(deps, 'k', c.compute)).toBe(1);
    expect(c.calls()).toBe(1);
  });
});

describe('reusedPage', () => {
  const page = { list: 'users', callerId: 'u1', input: { page: 1 } };

  it('reuses a page in the embedded mode until the next write, per caller and input', async () => {
    const deps = server(30, 'pglite');
    const c = counter();
    expect(await reusedPage(deps, page, c.compute)).toBe(1);
    expect(await reusedPage(deps, page, c.compute)).toBe(1);
    expect(await reusedPage(deps, { ...page, callerId: 'u2' }, c.compute)).toBe(2);
    expect(await reusedPage(deps, { ...page, input: { page: 2 } }, c.compute)).toBe(3);
    invalidateReads(deps);
    expect(await reusedPage(deps, page, c.compute)).toBe(4);
  });

  it('reads every page afresh on PostgreSQL', async () => {
    const deps = server(30, 'postgres');
    const c = counter();
    await reusedPage(deps, page, c.compute);
    expect(await reusedPage(deps, page, c.compute)).toBe(2);
  });
});
