import { readFileSync } from 'node:fs';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, test } from 'vitest';
import { accounts, api, expectToast, factory, pageOverflow, signIn, tokenFor, unique, useBrowser } from './helpers';

const browser = useBrowser();

async function pdfText(file: string): Promise<string> {
  const doc = await getDocument({ data: new Uint8Array(readFileSync(file)), verbosity: 0 }).promise;
  const pages: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    pages.push(content.items.map((it) => ('str' in it ? it.str : '')).join(' '));
  }
  await doc.destroy();
  return pages.join('\n');
}

/** docs/users.md#statement: the Statement tab of a user's details, on a desktop and on a phone. */
describe('account statement', () => {
  for (const viewport of [
    { width: 1360, height: 900 },
    { width: 390, height: 844 },
  ]) {
    test(`shows the lines, downloads the PDF and e-mails it at ${viewport.width} px`, async () => {
      const student = await factory.student({ fullName: unique('Statement Student') });
      const courseName = unique('Diploma in Statements');
      const course = await factory.course({ courseName, totalFee: 20000, installments: 2, admissionFee: 1000 });
      const enrolment = await factory.enrollment(course._id, 'installment', student.email);
      const token = await tokenFor(accounts().admin);
      const paid = await api<{ receiptNumber: string }>('POST', '/api/payments', {
        token,
        body: { enrollmentId: enrolment._id, amount: 4000, method: 'cash' },
      });
      expect(paid.status).toBe(201);

      const page = await browser.newPage({ viewport });
      await signIn(page, accounts().admin);
      await page.goto(`/users/${student._id}`);
      await page.getByRole('tab', { name: 'Statement' }).click();
      const lines = page.getByTestId('statement-line');
      // Admission fee, two installments (one due today), the payment.
      await expect.poll(() => lines.count()).toBe(4);
      await lines.filter({ hasText: `Admission fee: ${courseName}` }).waitFor();
      const payment = lines.filter({ hasText: paid.body.receiptNumber });
      await payment.getByText('-Rs. 4,000.00').waitFor();
      await page.getByTestId('statement-balance').getByText('Rs. 17,000.00').waitFor();
      expect(await pageOverflow(page)).toBe(0);

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'PDF' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^statement-.*\.pdf$/);
      const text = await pdfText(await download.path());
      expect(text).toContain('ACCOUNT STATEMENT');
      expect(text).toContain(paid.body.receiptNumber);
      expect(text).toContain('Installment 2 of 2');

      await page.getByRole('button', { name: 'E-mail' }).click();
      // The e2e server has no e-mail provider: the toast says where the message really went.
      await expectToast(
        page,
        `The statement for ${student.email} was queued to the outbox: no e-mail provider is configured, so it is not sent.`,
      );
    });
  }
});
