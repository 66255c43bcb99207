import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { accounts, adminScreens, PUBLIC_SCREENS, signIn, useBrowser } from './helpers';

const browser = useBrowser();

/**
 * Every screen runs under the server's Content-Security-Policy without a single violation. The
 * listener is installed before any page script, so a violation during start-up is caught too.
 */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'} at ${location.pathname}`),
    );
  });
  const fromConsole: string[] = [];
  page.on('console', (msg) => {
    if (/Content Security Policy/i.test(msg.text())) fromConsole.push(msg.text());
  });
  return async () => [
    ...(await page.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? [])),
    ...fromConsole.splice(0),
  ];
}

async function visit(page: Page, path: string, violations: () => Promise<string[]>, found: string[]) {
  await page.goto(path);
  await page.waitForLoadState('networkidle');
  found.push(...(await violations()));
}

describe('Content-Security-Policy', () => {
  test('the pages answer with the policy and the framing, sniffing and referrer headers', async () => {
    const page = await browser.newPage();
    const res = await page.goto('/login');
    const headers = res!.headers();
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });

  test('every screen of the app runs without a violation', async () => {
    const screens = await adminScreens();
    const page = await browser.newPage();
    const violations = await watchViolations(page);
    const found: string[] = [];
    for (const screen of PUBLIC_SCREENS) await visit(page, screen.path, violations, found);

    await signIn(page, accounts().superadmin);
    found.push(...(await violations()));
    for (const screen of screens) await visit(page, screen.path, violations, found);

    // The report screens draw charts and tables in their tabs.
    for (const path of ['/reports', '/analytics']) {
      await visit(page, path, violations, found);
      for (const name of ['Statistics', 'Reports']) {
        const tab = page.getByRole('tab', { name });
        if ((await tab.count()) === 0) continue;
        await tab.first().click();
        await page.waitForLoadState('networkidle');
        found.push(...(await violations()));
      }
    }

    // A signed-in student lands on the portal, its own page and bundle: the same policy holds.
    const student = await browser.newPage();
    const studentViolations = await watchViolations(student);
    await signIn(student, accounts().student);
    await student.waitForURL((url) => url.pathname === '/portal');
    await student.waitForLoadState('networkidle');
    for (const p of [
      '/portal/courses',
      '/portal/treatments',
      '/portal/payments',
      '/portal/profile',
      '/portal/how-to-pay',
    ]) {
      await student.goto(p);
      await student.waitForLoadState('networkidle');
    }
    found.push(...(await studentViolations()));

    expect(found).toEqual([]);
    // It walks every screen, as the desktop and phone tests do: the same allowance on a busy machine.
  }, 300_000);
});
