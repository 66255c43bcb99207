import { afterEach, describe, expect, it, vi } from 'vitest';
import { SessionCache } from './session-cache';
import type { Actor } from './sessions';

const actor = (sessionId: string, id = 'u1'): Actor => ({
  id,
  role: 'manager',
  email: `${id}@example.com`,
  username: id,
  fullName: `User ${id}`,
  branchId: null,
  sessionId,
});
const later = Date.now() + 3_600_000;

/** A read the test finishes by hand, as a database answer that has not arrived yet. */
function pendingRead(answer: Actor | null) {
  let finish!: () => void;
  let calls = 0;
  const read = () => {
    calls++;
    return new Promise<Actor | null>((resolve) => {
      finish = () => resolve(answer);
    });
  };
  return { read, finish: () => finish(), calls: () => calls };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('session cache', () => {
  it('remembers a session for its lifetime, never past the session’s own end', () => {
    vi.useFakeTimers();
    const start = Date.now();
    const cache = new SessionCache(5_000);
    cache.set(actor('s1'), start + 3_600_000);
    cache.set(actor('s2'), start + 2_000);
    vi.advanceTimersByTime(1_999);
    expect(cache.get('s1')?.id).toBe('u1');
    expect(cache.get('s2')?.id).toBe('u1');
    vi.advanceTimersByTime(1);
    expect(cache.get('s2')).toBeNull();
    vi.advanceTimersByTime(2_999);
    expect(cache.get('s1')?.id).toBe('u1');
    vi.advanceTimersByTime(1);
    expect(cache.get('s1')).toBeNull();
  });

  it('shares one look-up among the requests that need the same session meanwhile', async () => {
    const cache = new SessionCache(5_000);
    const db = pendingRead(actor('s1'));
    const first = cache.lookUp('s1', db.read);
    const second = cache.lookUp('s1', db.read);
    const other = pendingRead(actor('s2', 'u2'));
    const third = cache.lookUp('s2', other.read);
    expect(db.calls()).toBe(1);
    expect(other.calls()).toBe(1);
    db.finish();
    other.finish();
    expect((await first)?.sessionId).toBe('s1');
    expect((await second)?.sessionId).toBe('s1');
    expect((await third)?.sessionId).toBe('s2');

    // Once answered, the next miss reads again.
    const again = pendingRead(null);
    const fourth = cache.lookUp('s1', again.read);
    expect(again.calls()).toBe(1);
    again.finish();
    expect(await fourth).toBeNull();
  });

  it('does not remember a session read before this server ended it', () => {
    const cache = new SessionCache(5_000);
    const ticket = cache.ticket();
    cache.forgetSession('s1');
    cache.set(actor('s1'), later, Date.now(), ticket);
    expect(cache.get('s1')).toBeNull();

    const userTicket = cache.ticket();
    cache.forgetUser('u9');
    cache.set(actor('s3', 'u9'), later, Date.now(), userTicket);
    expect(cache.get('s3')).toBeNull();
    // Another user's session, read meanwhile, is remembered.
    cache.set(actor('s5', 'u5'), later, Date.now(), userTicket);
    expect(cache.get('s5')?.sessionId).toBe('s5');

    // A read begun after the end is remembered as usual.
    cache.set(actor('s4'), later, Date.now(), cache.ticket());
    expect(cache.get('s4')?.sessionId).toBe('s4');
  });

  // The same race whichever way the session ends: by itself, or with all of its user's sessions.
  it.each([
    { ending: 'a sign-out', end: (cache: SessionCache) => cache.forgetSession('s1') },
    { ending: 'a user’s sessions ended', end: (cache: SessionCache) => cache.forgetUser('u1') },
  ])('does not hand a request that came after $ending the answer of a read begun before', async ({ end }) => {
    const cache = new SessionCache(5_000);
    const before = pendingRead(actor('s1', 'u1'));
    const early = cache.lookUp('s1', before.read);
    end(cache);
    const after = pendingRead(null);
    const late = cache.lookUp('s1', after.read);
    expect(after.calls()).toBe(1);
    before.finish();
    after.finish();
    expect((await early)?.sessionId).toBe('s1');
    expect(await late).toBeNull();
  });

  it('forgets a remembered session when it ends, or when its user’s sessions end', () => {
    const cache = new SessionCache(5_000);
    cache.set(actor('s1', 'u1'), later);
    cache.set(actor('s2', 'u1'), later);
    cache.set(actor('s3', 'u2'), later);
    cache.forgetSession('s1');
    expect(cache.get('s1')).toBeNull();
    expect(cache.get('s2')?.sessionId).toBe('s2');
    cache.forgetUser('u1');
    expect(cache.get('s2')).toBeNull();
    expect(cache.get('s3')?.sessionId).toBe('s3');
  });

  it('remembers nothing when its lifetime is zero', () => {
    const cache = new SessionCache(0);
    cache.set(actor('s1'), later);
    expect(cache.get('s1')).toBeNull();
  });
});
