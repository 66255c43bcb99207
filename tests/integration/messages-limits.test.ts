import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/server/db/schema';
import { optOutToken } from '../../src/server/domains/messages/opt-out';
import { REQUEST_LIMITS } from '../../src/server/http/rate-limits';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeUser } from '../helpers/factories';

/**
 * The public opt-out and opt-in links (docs/messages.md#opting-out) are limited per client
 * address: past the limit a 429 with Retry-After, and the person's preference is left alone. The
 * server trusts the loopback proxy, so the test speaks from addresses of its own; the counts live in
 * this app's memory (no REDIS_URL), so every run starts from zero.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ TRUST_PROXY: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
});

describe('the opt-out link request limit', () => {
  it('answers 429 with Retry-After past the limit from one address, and changes nothing; another address still gets through', async () => {
    const person = await makeUser(t.deps.db, { role: 'customer' });
    const token = encodeURIComponent(await optOutToken(t.deps, person.id, 'email'));
    const ip = '203.0.113.20';
    const call = (path: string, from: string) =>
      fetch(`${t.baseUrl}${path}?token=${token}`, { method: 'POST', headers: { 'x-forwarded-for': from } });
    const max = REQUEST_LIMITS.optOut.max;
    // Opt out and back in, alternately, up to the limit: every one answered.
    for (let i = 0; i < max; i++) {
      const res = await call(i % 2 === 0 ? '/api/messages/opt-out' : '/api/messages/opt-in', ip);
      expect(res.status).toBe(200);
    }
    const optedOut = async () =>
      (await t.deps.db.select({ o: users.optOutEmail }).from(users).where(eq(users.id, person.id)))[0]!.o;
    expect(await optedOut()).toBe(max % 2 === 1);
    const over = await call(max % 2 === 0 ? '/api/messages/opt-out' : '/api/messages/opt-in', ip);
    expect(over.status).toBe(429);
    expect(await over.text()).toContain(REQUEST_LIMITS.optOut.message);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(60);
    expect(await optedOut()).toBe(max % 2 === 1);
    const getOver = await fetch(`${t.baseUrl}/api/messages/opt-out?token=${token}`, {
      headers: { 'x-forwarded-for': ip },
    });
    expect(getOver.status).toBe(429);
    expect((await call('/api/messages/opt-out', '198.51.100.7')).status).toBe(200);
  });
});
