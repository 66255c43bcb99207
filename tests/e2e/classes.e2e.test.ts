import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { todayIn } from '../../src/shared/calendar';
import { formatDateTime } from '../../src/shared/format';
import {
  accounts,
  api,
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
const TZ = 'Asia/Colombo';
const DESKTOP = { width: 1360, height: 900 };
const PHONE = { width: 390, height: 844 };
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/**
 * The classes screens (docs/classes.md#screens): an admin creates a batch with a timetable and
 * adds students from the course's enrolments on the desktop, the register is taken on a phone
 * (one tap per mark, "All present"), and the rates and the falling-behind card show the result.
 */

/** Screenshots for a person to look at, when SHOTS_DIR names a folder. */
async function shot(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}

/** axe's serious and critical findings on the page as it is. */
async function seriousViolations(page: Page, where: string): Promise<string[]> {
  await page.locator('[data-sonner-toast]').first().waitFor({ state: 'detached' });
  await settle(page);
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const found = await page.evaluate(async () => {
    type Axe = {
      run: (ctx: Document) => Promise<{
        violations: Array<{ id: string; impact?: string | null; nodes: Array<{ target: unknown[] }> }>;
      }>;
    };
    const result = await (window as unknown as { axe: Axe }).axe.run(document);
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .flatMap((v) => v.nodes.map((n) => `${v.id} on ${n.target.join(' ')}`));
  });
  return found.map((f) => `${where}: ${f}`);
}

const addDays = (day: string, n: number) => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

describe('classes', () => {
  test('create a batch with a timetable, add students, take attendance at 390 px, see the rate and who falls behind', async () => {
    const token = await tokenFor(accounts().superadmin);
    const branch = await factory.branch({ name: unique('Aaa Campus') });
    const course = await factory.course({ courseName: unique('Diploma in Nursing') });
    const tag = unique('teacher').replace(/\W/g, '').toLowerCase();
    const teacher = await api<{ _id: string }>('POST', '/api/users', {
      token,
      body: {
        username: tag,
        fullName: `Teacher ${tag}`,
        email: `${tag}@example.com`,
        password: 'long-enough-pw',
        role: 'user',
        branch: branch._id,
      },
    });
    expect(teacher.status, JSON.stringify(teacher.body)).toBe(201);
    const amal = await factory.student({ fullName: unique('Amal Absent'), branch: branch._id });
    const bina = await factory.student({ fullName: unique('Bina Present'), branch: branch._id });
    const amalEnrolment = await factory.enrollment(course._id, 'installment', amal.email);
    const binaEnrolment = await factory.enrollment(course._id, 'installment', bina.email);
    const today = todayIn(TZ);
    const batchName = unique('Nursing weekday');

    // Desktop: the batch form with one weekly slot on today's weekday, all day, so today's session has started.
    const desk = await browser.newPage({ viewport: DESKTOP });
    await signIn(desk, accounts().superadmin);
    await desk.goto('/batches');
    await desk.getByRole('button', { name: 'New batch' }).click();
    const dialog = desk.getByRole('dialog');
    await dialog.getByLabel('Name').fill(batchName);
    await dialog.getByLabel('Course').selectOption(course._id);
    await dialog.getByLabel('Branch').selectOption(branch._id);
    // The instructor is found on the server by typing part of the name (not a list of the newest users).
    await dialog.getByLabel('Instructor').fill(tag.slice(0, 12));
    await dialog.getByRole('option', { name: new RegExp(`Teacher ${tag}`) }).click();
    expect(await dialog.getByLabel('Instructor').inputValue()).toBe(`${tag}@example.com`);
    await dialog.getByLabel('Seats').fill('12');
    await dialog.getByLabel('Start date').fill(addDays(today, -7));
    await dialog.getByLabel('End date').fill(addDays(today, 14));
    const slot = dialog.getByRole('group', { name: 'Slot 1' });
    await slot.getByLabel('Weekday').selectOption(DAYS[new Date(`${today}T00:00:00Z`).getUTCDay()]!);
    await slot.getByLabel('Start').fill('00:00');
    await slot.getByLabel('End').fill('23:30');
    await shot(desk, 'classes-form-1360');
    await dialog.getByRole('button', { name: 'Create batch' }).click();
    await expectToast(desk, `Created ${batchName}.`);
    await desk.waitForURL(/\/batches\/[0-9a-f-]{36}$/);
    await expect.poll(() => desk.getByRole('heading', { name: batchName }).count()).toBe(1);
    // The timetable drawn as a week, and four sessions: last week, today, and two to come.
    await expect.poll(() => desk.getByLabel('Timetable', { exact: true }).textContent()).toContain('00:00–23:30');
    await expect.poll(() => desk.getByRole('table', { name: 'Sessions' }).getByRole('row').count()).toBe(5);

    for (const e of [amalEnrolment, binaEnrolment]) {
      await desk.getByLabel("Add a student from the course's enrolments").selectOption(e._id);
      await desk.getByRole('button', { name: 'Add student' }).click();
      await expectToast(desk, 'Added to the batch.');
    }
    const roster = desk.getByRole('table', { name: 'Roster' });
    await expect.poll(() => roster.getByRole('row').count()).toBe(3);
    await settle(desk);
    await shot(desk, 'classes-batch-1360');
    expect(await pageOverflow(desk)).toBe(0);

    // Phone: today's classes, the register, one tap for Amal's absence, then everyone else present.
    const phone = await browser.newPage({ viewport: PHONE });
    await signIn(phone, accounts().superadmin);
    await phone.goto('/classes/today');
    await phone.getByRole('link', { name: new RegExp(batchName) }).click();
    await expect.poll(() => phone.getByRole('list', { name: 'Register' }).getByRole('listitem').count()).toBe(2);
    await phone
      .getByRole('group', { name: /Mark Amal Absent/ })
      .getByRole('button', { name: 'Absent' })
      .click();
    await expect
      .poll(() =>
        phone
          .getByRole('group', { name: /Mark Amal Absent/ })
          .getByRole('button', { name: 'Absent' })
          .getAttribute('aria-pressed'),
      )
      .toBe('true');
    await phone.getByRole('button', { name: 'All present' }).click();
    await expect
      .poll(() =>
        phone
          .getByRole('group', { name: /Mark Bina Present/ })
          .getByRole('button', { name: 'Present' })
          .getAttribute('aria-pressed'),
      )
      .toBe('true');
    // Amal's absence stays: All present marks only those not yet marked.
    expect(
      await phone
        .getByRole('group', { name: /Mark Amal Absent/ })
        .getByRole('button', { name: 'Absent' })
        .getAttribute('aria-pressed'),
    ).toBe('true');
    // On the organisation's clock (TIME_ZONE), whatever the phone's own zone.
    await expect.poll(() => phone.getByText(/00:00–23:30 · 2 of 2 marked/).count()).toBe(1);
    await shot(phone, 'classes-register-390');
    expect(await pageOverflow(phone)).toBe(0);

    // The batch's page on the phone: nothing sticks out sideways (the week and tables scroll in their cards).
    await phone.goto(desk.url());
    await settle(phone);
    await shot(phone, 'classes-batch-390');
    expect(await pageOverflow(phone)).toBe(0);

    // Desktop again: the rates on the roster, the register grid, and Amal on the falling-behind card.
    await desk.reload();
    await settle(desk);
    const amalRow = roster.getByRole('row', { name: /Amal Absent/ });
    await expect.poll(() => amalRow.textContent()).toContain('0.0 %');
    await expect.poll(() => roster.getByRole('row', { name: /Bina Present/ }).textContent()).toContain('100.0 %');
    const grid = desk.getByRole('table', { name: 'Register grid' });
    await expect.poll(() => grid.getByRole('row', { name: /Amal Absent/ }).textContent()).toContain('A');
    await shot(desk, 'classes-batch-marked-1360');
    const findings = [
      ...(await seriousViolations(desk, 'batch page')),
      ...(await seriousViolations(phone, 'batch page at 390 px')),
    ];

    await desk.goto('/');
    await settle(desk);
    const card = desk.getByRole('table', { name: 'Falling behind' });
    await expect.poll(() => card.getByRole('row', { name: /Amal Absent/ }).textContent()).toContain(batchName);
    expect(await card.getByRole('row', { name: /Bina Present/ }).count()).toBe(0);
    await shot(desk, 'classes-dashboard-1360');
    await phone.goto('/classes/today');
    findings.push(
      ...(await seriousViolations(phone, "today's classes")),
      ...(await seriousViolations(desk, 'dashboard')),
    );
    expect(findings).toEqual([]);
  });

  test("move a session to come on the batch page: its new time shows, and a clash shows the server's message", async () => {
    const token = await tokenFor(accounts().superadmin);
    const branch = await factory.branch({ name: unique('Move Campus') });
    const course = await factory.course({ courseName: unique('Yoga teachers') });
    const tag = unique('mover').replace(/\W/g, '').toLowerCase();
    const teacher = await api<{ _id: string }>('POST', '/api/users', {
      token,
      body: {
        username: tag,
        fullName: `Mover ${tag}`,
        email: `${tag}@example.com`,
        password: 'long-enough-pw',
        role: 'user',
        branch: branch._id,
      },
    });
    expect(teacher.status, JSON.stringify(teacher.body)).toBe(201);
    const room = await api<{ _id: string }>('POST', '/api/rooms', {
      token,
      body: { name: unique('Studio'), branchId: branch._id, capacity: 1 },
    });
    expect(room.status, JSON.stringify(room.body)).toBe(201);
    const today = todayIn(TZ);
    const weekday = (day: string) => DAYS[new Date(`${day}T00:00:00Z`).getUTCDay()]!;
    const batch = (name: string, day: string, start: string, end: string) =>
      api<{ _id: string }>('POST', '/api/batches', {
        token,
        body: {
          name,
          courseId: course._id,
          branchId: branch._id,
          instructorId: teacher.body._id,
          startDate: day,
          endDate: day,
          capacity: 10,
          timetable: [{ weekday: weekday(day), start, end }],
        },
      });
    // One session in ten days; the same instructor teaches another batch in twelve days at 10:00.
    const name = unique('Evening yoga');
    const moved = await batch(name, addDays(today, 10), '18:00', '19:00');
    expect(moved.status, JSON.stringify(moved.body)).toBe(201);
    const other = unique('Morning yoga');
    expect((await batch(other, addDays(today, 12), '10:00', '11:00')).status).toBe(201);

    for (const viewport of [DESKTOP, PHONE]) {
      const page = await browser.newPage({ viewport });
      await signIn(page, accounts().superadmin);
      await page.goto(`/batches/${moved.body._id}`);
      const sessions = page.getByRole('table', { name: 'Sessions' });
      await sessions.getByRole('button', { name: 'Move' }).click();
      const dialog = page.getByRole('dialog', { name: 'Move session' });
      // Prefilled with the session's own date, times and room.
      expect(await dialog.getByLabel('Date').inputValue()).toBe(addDays(today, 10));
      expect(await dialog.getByLabel('Start').inputValue()).toBe('18:00');
      expect(await dialog.getByLabel('End').inputValue()).toBe('19:00');
      expect(await dialog.getByLabel('Room').inputValue()).toBe('');
      await settle(page);
      await shot(page, `classes-move-${viewport.width}`);
      expect(await pageOverflow(page)).toBe(0);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await page.close();
    }

    const desk = await browser.newPage({ viewport: DESKTOP });
    await signIn(desk, accounts().superadmin);
    await desk.goto(`/batches/${moved.body._id}`);
    const sessions = desk.getByRole('table', { name: 'Sessions' });
    await sessions.getByRole('button', { name: 'Move' }).click();
    const dialog = desk.getByRole('dialog', { name: 'Move session' });

    // Onto the other batch's hour: the server's 409 names the clash, and the dialog stays open.
    await dialog.getByLabel('Date').fill(addDays(today, 12));
    await dialog.getByLabel('Start').fill('10:30');
    await dialog.getByLabel('End').fill('11:30');
    await dialog.getByRole('button', { name: 'Move session' }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toContain(`already teaches "${other}"`);

    // Elsewhere, in the room: saved, and the list shows the new time and room.
    await dialog.getByLabel('Date').fill(addDays(today, 11));
    await dialog.getByLabel('Start').fill('09:00');
    await dialog.getByLabel('End').fill('10:15');
    await dialog.getByLabel('Room').selectOption(room.body._id);
    await dialog.getByRole('button', { name: 'Move session' }).click();
    await expectToast(desk, 'Session moved.');
    const when = formatDateTime(new Date(`${addDays(today, 11)}T09:00:00+05:30`), TZ);
    await expect.poll(() => sessions.getByRole('row').nth(1).textContent()).toContain(when);
    expect(await sessions.getByRole('row').nth(1).textContent()).toMatch(/Studio/);
    const listed = await api<{ data: Array<{ start: string; end: string }> }>(
      'GET',
      `/api/batches/${moved.body._id}/sessions`,
      { token },
    );
    expect(listed.body.data.map((x) => [x.start, x.end].map((t) => new Date(t).toISOString()))).toEqual([
      [
        new Date(`${addDays(today, 11)}T09:00:00+05:30`).toISOString(),
        new Date(`${addDays(today, 11)}T10:15:00+05:30`).toISOString(),
      ],
    ]);
  });
});
