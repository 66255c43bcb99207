import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { accounts, adminScreens, factory, PUBLIC_SCREENS, settle, signIn, unique, useBrowser } from './helpers';

const browser = useBrowser();
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const DESKTOP = { width: 1360, height: 900 };

interface Finding {
  id: string;
  impact: string;
  help: string;
  nodes: string[];
}

/**
 * axe-core's serious and critical findings on what the page shows now, one line each. The script
 * is evaluated through the DevTools protocol, so the app's Content-Security-Policy (no inline
 * scripts) does not have to be loosened for the test.
 */
async function seriousViolations(page: Page, where: string): Promise<string[]> {
  // Loading skeletons are replaced by the content they stand for; check the content.
  await settle(page);
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const found = await page.evaluate(async () => {
    type Axe = {
      run: (
        ctx: Document,
        options: { rules: Record<string, { enabled: boolean }> },
      ) => Promise<{
        violations: Array<{
          id: string;
          impact?: string | null;
          help: string;
          nodes: Array<{ target: unknown[]; html: string }>;
        }>;
      }>;
    };
    const axe = (window as unknown as { axe: Axe }).axe;
    // Experimental in axe, so off by default: a control's name must contain its visible label (WCAG 2.5.3).
    const result = await axe.run(document, { rules: { 'label-content-name-mismatch': { enabled: true } } });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id,
        impact: v.impact ?? '',
        help: v.help,
        nodes: v.nodes.slice(0, 3).map((n) => `${n.target.join(' ')} ${n.html.slice(0, 120)}`),
      }));
  });
  return found.map(
    (f: Finding) => `${where}: ${f.impact} ${f.id} (${f.help}) on ${f.nodes.length} node(s): ${f.nodes.join(' | ')}`,
  );
}

describe('Accessibility (axe-core)', () => {
  test('the screens before sign-in have no serious or critical violation, with a main landmark and a heading', async () => {
    const page = await browser.newPage({ viewport: DESKTOP });
    const found: string[] = [];
    for (const screen of PUBLIC_SCREENS) {
      await page.goto(screen.path);
      await page.getByRole('main').waitFor();
      await expect(page.getByRole('heading', { level: 1 }).count()).resolves.toBe(1);
      found.push(...(await seriousViolations(page, screen.path)));
    }
    expect(found).toEqual([]);
  });

  test('every screen of the back-office, its tabs and its menus have no serious or critical violation', async () => {
    const screens = await adminScreens();
    const page = await browser.newPage({ viewport: DESKTOP });
    await signIn(page, accounts().superadmin);
    const found: string[] = [];
    for (const screen of screens) {
      await page.goto(screen.path);
      found.push(...(await seriousViolations(page, screen.path)));
    }

    // Tabs show other content: the report and settings screens are checked on each tab.
    for (const path of ['/reports', '/settings']) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      const tabs = page.getByRole('tab');
      const names = await tabs.allTextContents();
      for (let i = 0; i < names.length; i++) {
        await tabs.nth(i).click();
        found.push(...(await seriousViolations(page, `${path} tab ${names[i]}`)));
      }
    }

    // The profile menu in the header, opened.
    await page.goto('/');
    await page.getByRole('button', { name: /profile menu/i }).hover();
    await page.getByRole('menu').waitFor();
    found.push(...(await seriousViolations(page, '/ with the account menu open')));

    // A confirmation dialog, opened.
    await page.goto('/branch');
    await page
      .getByRole('button', { name: /^Delete / })
      .first()
      .click();
    await page.getByRole('alertdialog').waitFor();
    found.push(...(await seriousViolations(page, '/branch with the delete dialog open')));

    expect(found).toEqual([]);
  }, 300_000);

  test('the pickers, opened, have no serious or critical violation', async () => {
    const course = await factory.course({
      courseName: unique('Certificate in Access'),
      duration: '1 month',
      totalFee: 9000,
      installments: 1,
      category: 'A11y',
      admissionFee: 0,
    });
    const enrolment = await factory.enrollment(course._id, 'full');
    const page = await browser.newPage({ viewport: DESKTOP });
    await signIn(page, accounts().superadmin);
    const found: string[] = [];

    // The user picker of Enroll and Book, with its suggestions shown.
    for (const path of ['/courses/enrollment', '/treatment/booking']) {
      await page.goto(path);
      await page.getByRole('combobox', { name: 'User Email' }).fill('student');
      await page.getByRole('option').first().waitFor();
      found.push(...(await seriousViolations(page, `${path} with the user picker open`)));
    }

    // Record payment with its date picker open.
    await page.goto(`/courses/${course._id}/enrollment/${enrolment._id}`);
    await page.getByTestId('payments-panel').getByRole('button', { name: 'Record payment' }).click();
    await page
      .getByRole('dialog', { name: 'Record payment' })
      .getByRole('button', { name: /^Date:/ })
      .click();
    await page.getByRole('grid').waitFor();
    found.push(...(await seriousViolations(page, 'Record payment with the date picker open')));

    // The Payments and Audit log filters, with the From calendar open.
    for (const path of ['/payments', '/audit']) {
      await page.goto(path);
      await page.getByRole('button', { name: /^From:/ }).click();
      await page.getByRole('grid').waitFor();
      found.push(...(await seriousViolations(page, `${path} with the From date picker open`)));
    }
    expect(found).toEqual([]);
  }, 300_000);

  test('the portal home a student lands on has no serious or critical violation', async () => {
    const page = await browser.newPage({ viewport: DESKTOP });
    await signIn(page, accounts().student);
    await page.waitForURL((url) => url.pathname === '/portal');
    await page.getByRole('heading', { name: 'Next payment' }).waitFor();
    expect(await seriousViolations(page, 'portal home')).toEqual([]);
  });
});
