import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TMessagePage, TMessageSettings, TTemplateItem } from '@shared/schemas/messages';
import {
  accounts,
  api,
  dismissToasts,
  e2eEnv,
  expectToast,
  factory,
  pageOverflow,
  settle,
  signIn,
  tokenFor,
  unique,
  useBrowser,
} from './helpers';

const browser = useBrowser();

const adminToken = () => tokenFor(accounts().superadmin);

/** How the stand-in SMS gateway answers from now on (tests/e2e/setup/sms-gateway.ts). */
async function gateway(mode: 'accept' | 'refuse') {
  const res = await fetch(e2eEnv().smsGatewayControl, { method: 'POST', body: JSON.stringify({ mode }) });
  if (!res.ok) throw new Error(`the SMS gateway stand-in did not take mode ${mode}`);
}

let savedSettings: TMessageSettings;
let savedReminder: TTemplateItem | undefined;

beforeAll(async () => {
  const token = await adminToken();
  const settings = await api<TMessageSettings>('GET', '/api/message-settings', { token });
  if (settings.status !== 200) throw new Error(`GET /api/message-settings answered ${settings.status}`);
  savedSettings = settings.body;
  const templates = await api<TTemplateItem[]>('GET', '/api/message-templates', { token });
  savedReminder = templates.body.find(
    (t) => t.event === 'appointment_reminder' && t.channel === 'sms' && t.language === 'en',
  );
});

/** Other files see the settings, the gateway and the reminder text as they were. */
afterAll(async () => {
  const token = await adminToken();
  await gateway('accept');
  await api('PUT', '/api/message-settings', { token, body: savedSettings });
  if (savedReminder) await api('PUT', '/api/message-templates', { token, body: [savedReminder] });
});

describe('Settings → Messages', () => {
  test('an admin edits a template, sees the preview and its SMS length change with the text, and saves it', async () => {
    const page = await browser.newPage();
    await signIn(page, accounts().admin);
    await page.goto('/settings');
    await page.getByRole('link', { name: 'Open' }).click();
    await page.getByRole('heading', { name: 'Messages' }).waitFor();
    await page.getByRole('tab', { name: 'Templates' }).click();

    await page.getByLabel('Message', { exact: true }).selectOption({ label: 'Appointment reminder' });
    await page.getByLabel('Channel').selectOption({ label: 'SMS' });
    await page.getByLabel('Language').selectOption({ label: 'English' });
    const body = page.getByLabel('Text', { exact: true });
    await expect.poll(() => body.inputValue()).toContain('{date}');

    const preview = page.getByTestId('template-preview');
    const length = page.getByTestId('sms-length');
    const marker = unique('Bring your card');
    await body.fill(`{name}, see you on {date} at {time}. ${marker}`);
    // The server fills the placeholders (sample values without a record): none is left in braces.
    await expect.poll(() => preview.textContent()).toContain(marker);
    expect(await preview.textContent()).not.toMatch(/\{(name|date|time)\}/);
    await expect.poll(() => length.textContent()).toMatch(/GSM-7/);
    expect(await length.textContent()).toMatch(/(^|\D)1 segment(?!s)/);

    // A Sinhala word makes the whole text UCS-2: 70 characters a message, so this one takes two.
    await body.fill(`{name}, ${'ඔබගේ හමුවීම '.repeat(6)} ${marker}`);
    await expect.poll(() => length.textContent()).toMatch(/UCS-2/);
    expect(await length.textContent()).toMatch(/[2-9] segments/);

    const text = `{organisation}: reminder for {date} at {time} at {branch}. ${marker}`;
    await body.fill(text);
    await page.getByRole('button', { name: 'Save template' }).click();
    await expectToast(page, 'Template saved.');

    // Stored on the server: the REST list and the screen after a reload both have it.
    const stored = await api<TTemplateItem[]>('GET', '/api/message-templates', { token: await adminToken() });
    expect(
      stored.body.find((t) => t.event === 'appointment_reminder' && t.channel === 'sms' && t.language === 'en')?.body,
    ).toBe(text);
    await page.reload();
    await page.getByLabel('Message', { exact: true }).selectOption({ label: 'Appointment reminder' });
    await page.getByLabel('Channel').selectOption({ label: 'SMS' });
    await expect.poll(() => page.getByLabel('Text', { exact: true }).inputValue()).toBe(text);

    // An empty text is refused with the shared rule's message, and nothing is saved.
    await page.getByLabel('Text', { exact: true }).fill('   ');
    await page.getByRole('button', { name: 'Save template' }).click();
    await page.getByRole('alert').filter({ hasText: 'Template text is required.' }).waitFor();
  });

  test('an admin sets a second reminder and quiet hours; a bad number is explained', async () => {
    const page = await browser.newPage();
    await signIn(page, accounts().admin);
    await page.goto('/settings/messages');
    const second = page.getByLabel('Second reminder (hours before)');
    await second.waitFor();

    await second.fill('400');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('alert').filter({ hasText: 'Reminder hours must be between 1 and 336.' }).waitFor();

    await second.fill('2');
    await page.getByLabel('Appointment booked by SMS').uncheck();
    await page.getByLabel('Quiet from').fill('21:30');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expectToast(page, 'Message settings saved.');

    const stored = await api<TMessageSettings>('GET', '/api/message-settings', { token: await adminToken() });
    expect(stored.body.reminderHours).toEqual([savedSettings.reminderHours[0], 2]);
    expect(stored.body.events.appointment_booked.sms).toBe(false);
    expect(stored.body.quietHours?.start).toBe('21:30');
    await page.reload();
    await expect.poll(() => page.getByLabel('Second reminder (hours before)').inputValue()).toBe('2');
    expect(await page.getByLabel('Appointment booked by SMS').isChecked()).toBe(false);
  });

  test('a failed SMS shows in the log with its error, and Resend sends it', async () => {
    const token = await adminToken();
    // Receipts by SMS only, with no quiet hours, so that the test does not depend on the clock.
    await api('PUT', '/api/message-settings', {
      token,
      body: {
        ...savedSettings,
        events: { ...savedSettings.events, payment_received: { email: false, sms: true } },
        quietHours: null,
      },
    });
    const fullName = unique('Failed Sms');
    const student = await factory.student({ fullName, phone: '+94771234567' });
    const course = await factory.course({ totalFee: 5000, installments: 1, admissionFee: 0 });
    const enrolled = await api<{ _id: string }>('POST', '/api/enrollments', {
      token,
      body: { userId: student._id, courseId: course._id, paymentType: 'full' },
    });
    expect(enrolled.status).toBe(201);

    // The gateway refuses the number (400): no retry, the message fails at once with the reason.
    await gateway('refuse');
    const paid = await api('POST', '/api/payments', {
      token,
      body: { enrollmentId: enrolled.body._id, amount: 1200, method: 'cash' },
    });
    expect(paid.status).toBe(201);
    const failed = async () =>
      (
        await api<TMessagePage>('GET', `/api/messages?recipientId=${student._id}&status=failed`, { token })
      ).body.data.filter((m) => m.event === 'payment_received' && m.channel === 'sms');
    await expect.poll(async () => (await failed()).length, { timeout: 20_000 }).toBe(1);
    await gateway('accept');

    const page = await browser.newPage();
    await signIn(page, accounts().admin);
    await page.goto('/settings/messages');
    await page.getByRole('tab', { name: 'Log' }).click();
    await page.getByLabel('Status').selectOption({ label: 'Failed' });
    await page.waitForURL((url) => url.searchParams.get('status') === 'failed');
    // The person, found by typing part of their name.
    await page.getByLabel('Recipient').fill(fullName.split(' ').slice(1).join(' '));
    await page.getByRole('option', { name: new RegExp(fullName) }).click();
    await page.waitForURL((url) => url.searchParams.get('recipient') === student._id);

    const row = page.getByTestId('message-row');
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.getAttribute('data-status')).toBe('failed');
    const rowText = (await row.textContent()) ?? '';
    expect(rowText).toContain('Payment received');
    expect(rowText).toContain('SMS');
    expect(rowText).toContain('+94771234567');
    expect(rowText).toMatch(/refused the message \(400\)/);
    expect(rowText).toMatch(/1 attempt(?!s)/);
    expect(rowText).toContain('Rs. 1,200.00');
    // The record it is about: the person's statement, where the payment is.
    await row.getByTestId('message-record-link').waitFor();
    expect(await row.getByTestId('message-record-link').getAttribute('href')).toBe(
      `/users/${student._id}?tab=statement`,
    );

    await row.getByRole('button', { name: /^Resend/ }).click();
    await expectToast(page, /is queued again/);
    await dismissToasts(page);
    // Sent this time: the SMS log (any status) shows it with the gateway's id. (The e-mail receipt,
    // switched off, is in the log too, skipped.)
    await page.getByLabel('Status').selectOption({ label: 'All statuses' });
    await page.getByLabel('Channel').selectOption({ label: 'SMS' });
    await page.waitForURL((url) => url.searchParams.get('channel') === 'sms' && !url.searchParams.has('status'));
    await expect.poll(() => row.count()).toBe(1);
    await expect.poll(() => row.getAttribute('data-status'), { timeout: 20_000 }).toBe('sent');
    expect(await row.textContent()).toMatch(/Provider id gw-\d+/);
    const after = await api<TMessagePage>('GET', `/api/messages?recipientId=${student._id}`, { token });
    expect(after.body.data.filter((m) => m.event === 'payment_received' && m.channel === 'sms')).toHaveLength(1);
  });

  test('a manager reads the settings and templates but changes nothing and has no log', async () => {
    const page = await browser.newPage();
    await signIn(page, accounts().manager);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Messages' }).click();
    await page.getByRole('heading', { name: 'Messages' }).waitFor();
    await page.getByText('Only admins can change these settings.').waitFor();
    expect(await page.getByLabel('Appointment reminder by SMS').isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Save settings' }).count()).toBe(0);
    await page.getByRole('tab', { name: 'Templates' }).click();
    expect(await page.getByLabel('Text', { exact: true }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Save template' }).count()).toBe(0);
    await page.getByRole('tab', { name: 'Log' }).click();
    await page.getByTestId('permission-denied').waitFor();
  });

  test('on a phone the three tabs fit without sideways scrolling', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await signIn(page, accounts().admin);
    for (const tab of ['', '?tab=templates', '?tab=log']) {
      await page.goto(`/settings/messages${tab}`);
      await settle(page);
      expect(await pageOverflow(page), tab || 'settings').toBe(0);
    }
  });
});
