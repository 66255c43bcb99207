import { describe, expect, test } from 'vitest';
import {
  accounts,
  api,
  expectGone,
  expectToast,
  factory,
  pageOverflow,
  signIn,
  tokenFor,
  unique,
  useBrowser,
} from './helpers';

const browser = useBrowser();
const PHONE = { width: 390, height: 844 };

/** The calendar's resources in Settings (docs/appointments.md#resources), on a phone's width. */
describe('Settings: practitioners, rooms and closures', () => {
  test('an admin adds a room and a practitioner, and edits the working plan drawn as a week', async () => {
    const branch = await factory.branch();
    const person = await factory.student({ branch: branch._id });
    const page = await browser.newPage({ viewport: PHONE });
    await signIn(page, accounts().admin);
    await page.goto('/settings');
    await page.getByRole('button', { name: 'Add practitioner' }).waitFor();

    // A room at the new branch.
    await page.locator('#rooms-branch').selectOption(branch._id);
    const room = unique('Room');
    await page.getByLabel('New room').fill(room);
    await page.getByLabel('Capacity', { exact: true }).fill('2');
    await page.getByRole('button', { name: 'Add room' }).click();
    await expectToast(page, 'Room added.');
    await page.getByRole('button', { name: `Delete ${room}` }).waitFor();

    // The person, found with the user picker, becomes a practitioner at the branch.
    await page.getByRole('button', { name: 'Add practitioner' }).click();
    await page.getByLabel('User', { exact: true }).fill(person.email);
    await page.getByRole('group', { name: 'Branches' }).getByLabel(branch.name).check();
    await page.getByRole('button', { name: 'Add practitioner' }).click();
    await expectToast(page, /is now a practitioner\./);

    const fullName = `Student ${person.username}`;
    await page.getByRole('button', { name: `Edit ${fullName}` }).click();
    const monday = page.getByRole('group', { name: 'Monday' });
    await monday.getByRole('button', { name: 'Add period' }).click();
    await monday.getByRole('button', { name: 'Add period' }).click();
    // Two 09:00–17:00 periods overlap: the shared schema's message, nothing sent.
    await page.getByRole('button', { name: 'Save working plan' }).click();
    await page.getByRole('alert').filter({ hasText: 'On Monday, 09:00–17:00 and 09:00–17:00 overlap.' }).waitFor();
    await page.getByRole('button', { name: 'Remove Monday period 2' }).click();
    await page.getByRole('button', { name: 'Save working plan' }).click();
    await expectToast(page, 'Working plan saved.');
    await expect
      .poll(() => page.getByRole('figure', { name: 'Working week' }).textContent())
      .toContain('Monday: 09:00 to 17:00');
    expect(await pageOverflow(page)).toBe(0);
  });

  test("an admin adds and removes a practitioner's time off and a branch's closure", async () => {
    const token = await tokenFor(accounts().superadmin);
    const branch = await factory.branch();
    const person = await factory.student({ branch: branch._id });
    const made = await api('POST', '/api/practitioners', {
      token,
      body: { userId: person._id, branchIds: [branch._id], treatmentIds: [] },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const closure = await api('POST', `/api/branch/${branch._id}/closures`, {
      token,
      body: { date: '2031-04-14', reason: 'New year holiday' },
    });
    expect(closure.status, JSON.stringify(closure.body)).toBe(201);

    const page = await browser.newPage({ viewport: PHONE });
    await signIn(page, accounts().admin);
    await page.goto('/settings');
    await page.getByRole('button', { name: `Edit Student ${person.username}` }).click();

    // Time off: an end before the start is refused under the form; a right one is listed, then removed.
    await page.getByLabel('From', { exact: true }).fill('2031-05-02T13:00');
    await page.getByLabel('Until', { exact: true }).fill('2031-05-02T09:00');
    await page.getByLabel('Reason').first().fill('Dentist');
    await page.getByRole('button', { name: 'Add time off' }).click();
    await page.getByRole('alert').filter({ hasText: 'End must be after start.' }).waitFor();
    await page.getByLabel('Until', { exact: true }).fill('2031-05-02T17:00');
    await page.getByRole('button', { name: 'Add time off' }).click();
    await expectToast(page, 'Time off added.');
    await page.getByText('· Dentist').waitFor();
    expect(await page.getByLabel('Until', { exact: true }).inputValue()).toBe('');
    await page.getByRole('button', { name: /^Remove time off from / }).click();
    await expectToast(page, 'Time off deleted.');
    await page.getByText('No time off.').waitFor();

    // Closures: a missing day is refused; the branch's closure is listed and removed.
    await page.locator('#closures-branch').selectOption(branch._id);
    await page.getByText('· New year holiday').waitFor();
    await page.getByRole('button', { name: 'Add closure' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'Date must be a date (YYYY-MM-DD) between 1900 and 2100.' })
      .waitFor();
    await page.getByRole('button', { name: /^Remove the closure on / }).click();
    await expectToast(page, 'Closure deleted.');
    await expectGone(page.getByText('· New year holiday'));
    await page.getByText('No closures at this branch.').waitFor();
    expect(await pageOverflow(page)).toBe(0);
  });
});
