import { describe, expect, test } from 'vitest';
import { accounts, expectToast, factory, pageOverflow, signIn, unique, useBrowser } from './helpers';

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
});
