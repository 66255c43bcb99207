import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
let proxied: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  proxied = await startTestApp({ TRUST_PROXY: '127.0.0.1' });
});
afterAll(async () => {
  await proxied?.close();
  await t?.close();
});

/** Pages and assets: the page policy. */
function expectPageHeaders(headers: Headers) {
  const csp = headers.get('content-security-policy') ?? '';
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(headers.get('x-frame-options')).toBe('DENY');
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
}

/** /api and /trpc answers: nothing runs in them, nothing frames them, no cache keeps them. */
function expectApiHeaders(headers: Headers) {
  expect(headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
  expect(headers.get('x-frame-options')).toBe('DENY');
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('cross-origin-resource-policy')).toBe('same-origin');
  expect(headers.get('cache-control')).toBe('no-store');
}

describe('security headers', () => {
  it('are on API answers, errors, tRPC answers and unknown paths', async () => {
    const admin = await t.userWithSession('admin');
    for (const res of [
      await t.api('GET', '/api/health'),
      await t.api('GET', '/api/branch', { token: admin.token }),
      await t.api('GET', '/api/users'),
      await t.api('POST', '/api/users/auth', { body: { email: 'x@example.com' } }),
      await t.api('GET', '/trpc/auth.me'),
      await t.api('GET', '/trpc/auth.me', { token: admin.token }),
      await t.api('GET', '/api/no-such-path'),
    ]) {
      expect(res.status).toBeLessThan(500);
      expectApiHeaders(res.headers);
    }
  });

  it('give pages the page policy', async () => {
    // This server does not serve the built client, so a page path gets the not-built answer,
    // through the same hook as the pages.
    const page = await t.api('GET', '/courses');
    expect(page.status).toBe(404);
    expectPageHeaders(page.headers);
  });

  it('send HSTS only when the request came over https through a trusted proxy', async () => {
    const plain = await t.api('GET', '/api/health', { headers: { 'x-forwarded-proto': 'https' } });
    expect(plain.headers.get('strict-transport-security')).toBeNull();
    const viaProxy = await proxied.api('GET', '/api/health', { headers: { 'x-forwarded-proto': 'https' } });
    expect(viaProxy.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    const httpViaProxy = await proxied.api('GET', '/api/health', { headers: { 'x-forwarded-proto': 'http' } });
    expect(httpViaProxy.headers.get('strict-transport-security')).toBeNull();
  });
});
