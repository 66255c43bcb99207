import { describe, expect, it } from 'vitest';
import { SessionCache } from './session-cache';
import type { Actor } from './sessions';

const actor = (sessionId: string, id = 'u1'): Actor => ({
  id,
  role: 'manager',
  email: `${id}@example.com`,
  username: id,
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

describe('session cache', () => {
  it('remembers a session for its lifetime, never past the session’s own end', () => {
    const cache = new SessionCache(5_000);
    cache.set(actor('s1'), later, 1_000);
    expect(cache.get('s1', 5_999)?.id).toBe('u1');
    expect(cache.get('s1', 6_000)).toBeNull();

    cache.set(actor('s2'), 3_000, 1_000);
    expect(cache.get('s2', 2_999)?.id).toBe('u1');
    expect(cache.get('s2', 3_000)).toBeNull();
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
    cache.set(actor('s3'), later, Date.now(), userTicket);
    expect(cache.get('s3')).toBeNull();

    // A read begun after the end is remembered as usual.
    cache.set(actor('s4'), later, Date.now(), cache.ticket());
    expect(cache.get('s4')?.sessionId).toBe('s4');
  });

  it('does not hand a request that came after a sign-out the answer of a read begun before', async () => {
    const cache = new SessionCache(5_000);
    const before = pendingRead(actor('s1'));
    const early = cache.lookUp('s1', before.read);
    cache.forgetSession('s1');
    const after = pendingRead(null);
    const late = cache.lookUp('s1', after.read);
    expect(after.calls()).toBe(1);
    before.finish();
    after.finish();
    expect((await early)?.sessionId).toBe('s1');
    expect(await late).toBeNull();
  });

  it('remembers nothing when its lifetime is zero', () => {
    const cache = new SessionCache(0);
    cache.set(actor('s1'), later);
    expect(cache.get('s1')).toBeNull();
  });
});
