import fs from 'node:fs';
import path from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { accounts, api, dismissToasts, expectToast, factory, signIn, tokenFor, unique, useBrowser } from './helpers';

const browser = useBrowser();

async function pdfText(file: string): Promise<string> {
  const doc = await getDocument({ data: new Uint8Array(fs.readFileSync(file)) }).promise;
  const parts: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    parts.push(content.items.map((it) => ('str' in it ? it.str : '')).join(' '));
  }
  return parts.join('\n');
}

/** A picture of the screen as it is, for looking at (REFUND_SHOTS=1); it asserts nothing. */
async function shot(page: Page, name: string, part?: string) {
  if (!process.env.REFUND_SHOTS) return;
  const dir = path.resolve('test-results/e2e/refunds');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.png`);
  if (part) await page.getByTestId(part).screenshot({ path: file });
  else await page.screenshot({ path: file, fullPage: true });
}

describe('discounts, scholarships and refunds', () => {
  test('gives a scholarship, refunds half a payment with the fee waived, prints the credit note and sees the cash out', async () => {
    const token = await tokenFor(accounts().admin);
    const branch = await factory.branch({ name: unique('Refund Branch') });
    const student = await factory.student({ branch: branch._id });
    const course = await factory.course({ totalFee: 20000, installments: 2, admissionFee: 1000 });
    const enrolment = await factory.enrollment(course._id, 'installment', student.email);
    const schemeName = unique('Staff child');
    const scheme = await api('POST', '/api/scholarship-schemes', {
      token,
      body: { name: schemeName, defaultPercent: 25 },
    });
    expect(scheme.status).toBe(201);

    const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
    await signIn(page, accounts().admin);
    await page.goto(`/courses/${course._id}/enrollment/${enrolment._id}`);

    // The scholarship: the scheme's 25% of the 20,000 still owed on the installments, taken from
    // the last installment, shown before it is given.
    const adjustments = page.getByTestId('adjustments-panel');
    await adjustments.getByText('No discounts, scholarships or write-offs.').waitFor();
    await adjustments.getByRole('button', { name: 'Discount / scholarship' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Kind').selectOption('scholarship');
    await dialog.getByLabel('Scheme').selectOption({ label: `${schemeName} (25%)` });
    const preview = dialog.getByTestId('adjustment-preview-row');
    await expect.poll(() => preview.count()).toBe(1);
    expect(await preview.first().innerText()).toMatch(/Installment 2.*Rs\. 10,000\.00.*Rs\. 5,000\.00/s);
    await dialog.getByTestId('adjustment-preview-total').getByText('Rs. 5,000.00').waitFor();
    await shot(page, 'scholarship-dialog-1360');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'A reason is required.' }).waitFor();
    await dialog.getByLabel('Reason').fill('Child of a staff member');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await expectToast(page, 'Took off Rs. 5,000.00.');
    const entry = adjustments.getByTestId('adjustment-row');
    await entry.getByText(`Scholarship · ${schemeName}`).waitFor();
    await entry.getByText('Applied').waitFor();
    await page.getByTestId('installment-row').nth(1).getByText('Rs. 5,000.00').first().waitFor();

    // 8,000 in cash: the 1,000 admission fee and 7,000 of installment 1.
    const paid = await api<{ _id: string; receiptNumber: string }>('POST', '/api/payments', {
      token,
      body: { enrollmentId: enrolment._id, amount: 8000, method: 'cash' },
    });
    expect(paid.status).toBe(201);
    const receipt = paid.body.receiptNumber;
    await page.reload();

    // Half of it goes back and the fee comes down by as much: nothing is owed again.
    const row = page.getByTestId('payment-row').filter({ hasText: receipt });
    await row.getByRole('button', { name: `Refund ${receipt}` }).click();
    const refund = page.getByRole('dialog');
    expect(await refund.getByLabel('Amount (LKR)').inputValue()).toBe('8000');
    await refund.getByLabel('Amount (LKR)').fill('4000');
    await refund.getByLabel('Reason').fill('Fee exemption after payment');
    await refund.getByLabel('Also waive the fee').check();
    await shot(page, 'refund-dialog-1360');
    await refund.getByRole('button', { name: 'Refund' }).click();
    const toast = await expectToast(page, /Refunded Rs\. 4,000\.00 and waived the fee: credit note CN-/);
    const creditNote = /CN-[A-Z]+-\d{4}-\d{6}/.exec(await toast.innerText())?.[0] ?? '';
    expect(creditNote).not.toBe('');
    await dismissToasts(page);
    await row.getByTestId('payment-refunded').getByText('refunded Rs. 4,000.00').waitFor();
    // A refunded payment is no longer voided, and the fee waiver is an entry of its own.
    expect(await row.getByRole('button', { name: `Void ${receipt}` }).count()).toBe(0);
    await adjustments.getByText('Fee waived: Fee exemption after payment').waitFor();
    const first = page.getByTestId('installment-row').first();
    await first.getByText('Rs. 6,000.00').first().waitFor();
    await first.getByTestId('installment-paid').getByText('Rs. 3,000.00').waitFor();
    const refunds = page.getByTestId('record-refunds').getByTestId('refund-row');
    await refunds.getByText(creditNote).waitFor();
    await shot(page, 'enrolment-1360');

    // The credit note, read back.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      refunds.getByRole('button', { name: `Download credit note ${creditNote}` }).click(),
    ]);
    const file = await download.path();
    if (process.env.REFUND_SHOTS) fs.copyFileSync(file, path.resolve('test-results/e2e/refunds/credit-note.pdf'));
    const text = await pdfText(file);
    expect(text).toContain('CREDIT NOTE');
    expect(text).toContain(creditNote);
    expect(text).toContain(receipt);
    expect(text).toContain('4,000.00');
    expect(text).toContain('Fee exemption after payment');

    // The Refunds tab lists it with the totals; the cash-up counts it as cash out of the branch.
    await page.goto(`/payments?tab=refunds&branchId=${branch._id}`);
    await page.getByTestId('refund-totals').getByText('Rs. 4,000.00').waitFor();
    await page.getByTestId('refund-row').getByText(creditNote).waitFor();
    await shot(page, 'refunds-tab-1360');
    await page.goto(`/payments?tab=cash-up&cashBranch=${branch._id}`);
    await page.getByTestId('cash-up-refunds').getByText('Cash: Rs. 4,000.00 (1)').waitFor();
    await page.getByTestId('cash-up-net').getByText('Cash: Rs. 4,000.00').waitFor();
    await page.getByTestId('cash-up-totals').getByText('Rs. 8,000.00').waitFor();
    await shot(page, 'cash-up-1360');
    // Reports: the scholarship by its scheme and reason, the refund by method and branch.
    await page.goto('/reports');
    const report = page.locator('#money-changes');
    await report.getByTestId('adjustment-report-row').filter({ hasText: schemeName }).waitFor();
    await report.getByTestId('refund-report-row').filter({ hasText: branch.name }).getByText('Rs. 4,000.00').waitFor();
    if (process.env.REFUND_SHOTS) {
      // The phone width, in a page that starts at it.
      const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
      await signIn(phone, accounts().admin);
      await phone.goto(`/courses/${course._id}/enrollment/${enrolment._id}`);
      await phone.getByTestId('adjustment-row').first().waitFor();
      await shot(phone, 'enrolment-390');
      await phone.getByRole('button', { name: 'Discount / scholarship' }).click();
      await phone.getByRole('dialog').getByLabel('Percent').fill('10');
      await phone.getByTestId('adjustment-preview-row').first().waitFor();
      await shot(phone, 'discount-dialog-390');
      await phone.keyboard.press('Escape');
      await phone.getByRole('button', { name: `Refund ${receipt}` }).click();
      await shot(phone, 'refund-dialog-390');
      await phone.keyboard.press('Escape');
      await phone.goto(`/payments?tab=refunds&branchId=${branch._id}`);
      await phone.getByTestId('refund-row').first().waitFor();
      await shot(phone, 'refunds-tab-390');
      await phone.goto('/settings');
      await phone.getByTestId('scheme-row').first().waitFor();
      await shot(phone, 'settings-390');
      await phone.goto('/reports');
      await phone.locator('#money-changes').getByTestId('refund-report-row').first().waitFor();
      await shot(phone, 'reports-390');
      await page.goto('/settings');
      await page.getByTestId('scheme-row').first().waitFor();
      await shot(page, 'settings-1360');
      await page.goto('/reports');
      await page.locator('#money-changes').getByTestId('refund-report-row').first().waitFor();
      await shot(page, 'reports-1360');
    }
  });

  test('with approval on, a manager asks for a discount and it changes nothing until an admin approves it', async () => {
    const token = await tokenFor(accounts().admin);
    const course = await factory.course({ totalFee: 10000, installments: 1, admissionFee: 0 });
    const enrolment = await factory.enrollment(course._id, 'installment');
    const on = await api('PUT', '/api/settings/adjustments', { token, body: { approvalRequired: true } });
    expect(on.status).toBe(200);
    try {
      const manager = await browser.newPage({ viewport: { width: 1360, height: 900 } });
      await signIn(manager, accounts().manager);
      await manager.goto(`/courses/${course._id}/enrollment/${enrolment._id}`);
      const panel = manager.getByTestId('adjustments-panel');
      // A write-off is an admin's alone.
      await panel.getByRole('button', { name: 'Discount / scholarship' }).waitFor();
      expect(await panel.getByRole('button', { name: 'Write off' }).count()).toBe(0);
      await panel.getByRole('button', { name: 'Discount / scholarship' }).click();
      const dialog = manager.getByRole('dialog');
      await dialog.getByLabel('Take off').selectOption('amount');
      await dialog.getByLabel('Amount (LKR)').fill('1500');
      await dialog.getByTestId('adjustment-preview-total').getByText('waits for an admin to approve').waitFor();
      await dialog.getByLabel('Reason').fill('Sibling enrolled');
      await dialog.getByRole('button', { name: 'Ask for approval' }).click();
      await expectToast(manager, 'Asked for approval: Rs. 1,500.00 off.');
      await panel.getByTestId('adjustment-row').getByText('Pending approval').waitFor();
      const installment = manager.getByTestId('installment-row').first();
      await installment.getByText('Rs. 10,000.00').first().waitFor();

      const admin = await browser.newPage({ viewport: { width: 1360, height: 900 } });
      await signIn(admin, accounts().admin);
      await admin.goto(`/courses/${course._id}/enrollment/${enrolment._id}`);
      const row = admin.getByTestId('adjustment-row');
      await row.getByRole('button', { name: 'Approve' }).click();
      const decide = admin.getByRole('dialog');
      await decide.getByRole('button', { name: 'Approve' }).click();
      await decide.getByRole('alert').filter({ hasText: 'A note is required.' }).waitFor();
      await decide.getByLabel('Note').fill('Confirmed with the office');
      await decide.getByRole('button', { name: 'Approve' }).click();
      await expectToast(admin, 'Approved and applied.');
      await row.getByText('Applied').waitFor();
      await admin.getByTestId('installment-row').first().getByText('Rs. 8,500.00').first().waitFor();
    } finally {
      await api('PUT', '/api/settings/adjustments', { token, body: { approvalRequired: false } });
    }
  });
});
