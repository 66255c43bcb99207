import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { addToDate, todayIn } from '../../src/shared/calendar';
import { formatDay } from '../../src/shared/format';
import { accounts, api, expectToast, factory, signIn, tokenFor, unique, useBrowser } from './helpers';

const browser = useBrowser();

/** The LKR figure of a dashboard card (docs/payments.md#dashboard), 0 when the card shows none. */
async function dashboardLkr(page: Page, testId: string): Promise<number> {
  const card = page.getByTestId(testId);
  await card.waitFor();
  const lkr = card.locator('[data-currency="LKR"]');
  if ((await lkr.count()) === 0) return 0;
  // 'Rs. 4,000.00': the symbol has a dot of its own.
  const figure = /[\d,]+\.\d{2}/.exec(await lkr.innerText())?.[0] ?? 'NaN';
  return Number(figure.replace(/,/g, ''));
}

describe('payments', () => {
  test('records a partial payment on the enrolment, prints its receipt, voids it, and the dashboard follows', async () => {
    const courseName = unique('Certificate in Ledgers');
    const course = await factory.course({
      courseName,
      duration: '2 months',
      totalFee: 20000,
      installments: 2,
      category: 'Finance',
      admissionFee: 1000,
    });
    const enrolment = await factory.enrollment(course._id, 'installment');

    const page = await browser.newPage();
    await signIn(page, accounts().admin);
    await page.goto('/');
    const todayBefore = await dashboardLkr(page, 'collected-today');

    await page.goto(`/courses/${course._id}/enrollment/${enrolment._id}`);
    const panel = page.getByTestId('payments-panel');
    await panel.getByText('No payments.').waitFor();
    await panel.getByRole('button', { name: 'Record payment' }).click();
    const dialog = page.getByRole('dialog');
    // The oldest unpaid item is the admission fee.
    expect(await dialog.getByLabel('Amount (LKR)').inputValue()).toBe('1000');

    // More than is outstanding: the server's message is shown and nothing is recorded.
    await dialog.getByLabel('Amount (LKR)').fill('50000');
    await dialog.getByRole('button', { name: 'Record payment' }).click();
    await dialog
      .getByRole('alert')
      .filter({ hasText: /outstanding on this enrollment/ })
      .waitFor();

    // 4,000 settles the 1,000 admission fee and 3,000 of the first 10,000 installment.
    await dialog.getByLabel('Amount (LKR)').fill('4000');
    await dialog.getByLabel('Method').selectOption('card');
    await dialog.getByLabel('Reference').fill('AUTH-123');
    await dialog.getByRole('button', { name: 'Record payment' }).click();
    await expectToast(page, /Payment recorded: receipt /);

    const row = panel.getByTestId('payment-row');
    await expect.poll(() => row.count()).toBe(1);
    await row.getByText('Rs. 4,000.00').waitFor();
    await row.getByText('Card').waitFor();
    await row.getByTestId('payment-status').getByText('Valid').waitFor();
    const receipt = (await row.getByTestId('receipt-number').innerText()).trim();
    expect(receipt).toMatch(/^[A-Z]{3}-\d{4}-\d{6}$/);
    const first = page.getByTestId('installment-row').first();
    await first.getByTestId('installment-paid').getByText('Rs. 3,000.00').waitFor();
    await first.getByTestId('installment-state').getByText('Part paid').waitFor();
    await page.getByTestId('admission-fee-state').getByText('Paid').waitFor();

    const [pdf, download] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/receipt')),
      page.waitForEvent('download'),
      row.getByRole('button', { name: `Download receipt ${receipt}` }).click(),
    ]);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toContain('application/pdf');
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    const saved = await download.path();
    expect(readFileSync(saved).subarray(0, 5).toString()).toBe('%PDF-');

    await page.goto('/');
    await expect.poll(() => dashboardLkr(page, 'collected-today')).toBeCloseTo(todayBefore + 4000, 2);

    await page.goto(`/courses/${course._id}/enrollment/${enrolment._id}`);
    await row.getByRole('button', { name: `Void ${receipt}` }).click();
    const voidDialog = page.getByRole('dialog');
    await voidDialog.getByRole('button', { name: 'Void payment' }).click();
    await voidDialog.getByRole('alert').filter({ hasText: 'A reason is required to void a payment.' }).waitFor();
    await voidDialog.getByLabel('Reason').fill('Card charge reversed');
    await voidDialog.getByRole('button', { name: 'Void payment' }).click();
    await expectToast(page, `Receipt ${receipt} voided.`);
    await row.getByTestId('payment-status').getByText('Void').waitFor();
    await row.getByText('Card charge reversed').waitFor();
    await first.getByTestId('installment-paid').getByText('Rs. 0.00').waitFor();
    await page.getByTestId('admission-fee-state').getByText('Unpaid').waitFor();

    await page.goto('/');
    await expect.poll(() => dashboardLkr(page, 'collected-today')).toBeCloseTo(todayBefore, 2);

    // The ledger screen lists the voided receipt.
    await page.goto('/payments');
    await page.getByRole('searchbox', { name: 'Search payments' }).fill(receipt);
    const listed = page.getByTestId('payment-row').filter({ hasText: receipt });
    await listed.getByTestId('payment-status').getByText('Void').waitFor();
  });
});

describe('cash-up', () => {
  test("shows a past day's takings of one branch, and the address keeps the tab, day and branch", async () => {
    const token = await tokenFor(accounts().admin);
    const branch = await factory.branch({ name: unique('Cash-up Branch') });
    const student = await factory.student({ branch: branch._id });
    const course = await factory.course({ totalFee: 12000, installments: 1, admissionFee: 0 });
    // A payment cannot be dated before its enrolment existed, so the student enrolled five days ago.
    const enrolled = await api<{ _id: string }>('POST', '/api/enrollments', {
      token,
      body: {
        userId: student._id,
        courseId: course._id,
        paymentType: 'full',
        enrolledOn: addToDate(todayIn('Asia/Colombo'), { days: -5 }),
      },
    });
    expect(enrolled.status).toBe(201);
    const enrolment = enrolled.body;
    const now = new Date();
    const twoDaysAgo = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 2, 11, 0);
    const paid = await api('POST', '/api/payments', {
      token,
      body: { enrollmentId: enrolment._id, amount: 4321, method: 'cash', receivedAt: twoDaysAgo.toISOString() },
    });
    expect(paid.status).toBe(201);

    const page = await browser.newPage();
    await signIn(page, accounts().admin);
    await page.goto('/payments');
    await page.getByRole('tab', { name: 'Cash-up' }).click();
    await page.waitForURL((url) => url.searchParams.get('tab') === 'cash-up');
    const cashUp = page.getByRole('tabpanel', { name: 'Cash-up' });
    await cashUp.getByLabel('Branch').selectOption({ label: branch.name });
    await page.waitForURL((url) => url.searchParams.get('cashBranch') === branch._id);
    // Today this branch took nothing; the payment was two days ago.
    await cashUp.getByText('No payments received.').waitFor();

    const day = `${twoDaysAgo.getFullYear()}-${String(twoDaysAgo.getMonth() + 1).padStart(2, '0')}-${String(twoDaysAgo.getDate()).padStart(2, '0')}`;
    const url = new URL(page.url());
    url.searchParams.set('day', day);
    await page.goto(url.pathname + url.search);
    // Reloaded from the address alone: the Cash-up tab, that day and that branch.
    const row = page.getByRole('tabpanel', { name: 'Cash-up' }).getByTestId('cash-up-row');
    await expect.poll(() => row.count()).toBe(1);
    await row.getByText(formatDay(day)).waitFor();
    await row.getByText(branch.name).waitFor();
    await row.getByText('Rs. 4,321.00').waitFor();
    expect(await page.getByRole('tab', { name: 'Cash-up' }).getAttribute('aria-selected')).toBe('true');
  });
});
