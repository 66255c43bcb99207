import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { addToDate, todayIn } from '../../src/shared/calendar';
import { accounts, api, factory, pageOverflow, settle, signIn, tokenFor, useBrowser } from './helpers';

const browser = useBrowser();
const TZ = 'Asia/Colombo';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1360, height: 900 };
const PASSWORD = 'long-enough-pw';
const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/**
 * Issue 46: people are named by full name with the username or e-mail beside it, and a long name
 * or address wraps instead of pushing a phone's page sideways or hiding behind an ellipsis. A
 * student, a customer and a cashier with 60-character names and 50-character usernames and
 * e-mails are taken through every staff list and details screen that names them, at 390 px and
 * 1360 px: no sideways scroll, each full name drawn whole, and no name, username or e-mail broken
 * in the middle of a word. The portal's How to pay and the settings are looked at too.
 * `SHOTS_DIR=/tmp/shots` keeps a screenshot of every screen.
 */

/** Screenshots for a person to look at, when SHOTS_DIR names a folder. */
async function shot(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  // From the top, so the sticky header is drawn where it belongs.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}

/** `text` cut or padded to exactly `n` characters, never ending on a space or a dot. */
function exactly(text: string, n: number): string {
  const cut = text.padEnd(n, 'a').slice(0, n);
  return /[ .]$/.test(cut) ? `${cut.slice(0, -1)}a` : cut;
}

let arranged = 0;
/** A person with a 60-character full name, a 50-character username and a 50-character e-mail. */
function longPerson(tag: string, kind: string, role: string, branch: string) {
  const fullName = exactly(`${kind} ${tag} Wickramasinghe Arachchige Dona Chandrasekara Jayawardenapura`, 60);
  const username = exactly(`${kind.toLowerCase()}.${tag}.wickramasinghe.arachchige.chandrasekara`, 50);
  const email = `${exactly(`${kind.toLowerCase()}.${tag}.wickramasinghe.arachchige`, 38)}@example.com`;
  return { fullName, username, email, password: PASSWORD, role, branch };
}

async function created<T>(res: { status: number; body: unknown }, what: string): Promise<T> {
  expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body as T;
}

/** Everything the screens show: the people, an overdue enrolment and a booking, each paid in part, and an appointment today. */
async function arrange() {
  arranged += 1;
  const tag = `${Date.now().toString(36)}${arranged}`;
  const token = await tokenFor(accounts().superadmin);
  const branch = await factory.branch({
    name: exactly(`Branch ${tag} Sri Jayawardenepura Kotte Battaramulla Pelawatta Road`, 60),
    location: 'No. 1234/5A, Sri Jayawardenepura Mawatha, Pelawatta, Battaramulla 10120',
  });
  const person = async (kind: string, role: string, extra: Record<string, unknown> = {}) => {
    const body = { ...longPerson(tag, kind, role, branch._id), ...extra };
    const made = await created<{ _id: string }>(await api('POST', '/api/users', { token, body }), kind);
    return { ...body, _id: made._id };
  };
  const student = await person('Student', 'student', { guardianPhone: '+94771234567', phone: '+94712345678' });
  const customer = await person('Customer', 'customer');
  const cashier = await person('Cashier', 'manager');
  const cashierToken = await tokenFor(cashier);

  // Enrolled four months ago in three monthly parts: two are overdue today.
  const course = await factory.course({ totalFee: 30000, installments: 3, admissionFee: 0 });
  const enrolledOn = addToDate(todayIn(TZ), { months: -4 });
  const enrolment = await factory.enrollment(course._id, 'installment', student.email, enrolledOn);
  await created(
    await api('POST', '/api/payments', {
      token: cashierToken,
      body: { enrollmentId: enrolment._id, amount: 2500, method: 'cash' },
    }),
    'a payment of the enrolment',
  );

  const treatment = await created<{ _id: string }>(
    await api('POST', '/api/treatments', {
      token,
      body: {
        treatmentName: `Massage ${tag}`,
        localPrice: 10000,
        foreignPrice: 100,
        maxSessions: 10,
        installments: 1,
        duration: { weeks: 0, days: 0, months: 3 },
        sessionMinutes: 60,
      },
    }),
    'a treatment',
  );
  const booking = await created<{ _id: string }>(
    await api('POST', '/api/bookings/book', {
      token,
      body: { treatmentId: treatment._id, userId: customer._id, userType: 'local', paymentType: 'full' },
    }),
    'a booking',
  );
  await created(
    await api('POST', '/api/payments', {
      token: cashierToken,
      body: { bookingId: booking._id, amount: 4000, method: 'card' },
    }),
    'a payment of the booking',
  );

  // A practitioner working all day, and the customer's appointment in the current hour.
  const therapist = await factory.student({ branch: branch._id, fullName: `Therapist ${tag}` });
  const practitioner = await created<{ _id: string }>(
    await api('POST', '/api/practitioners', {
      token,
      body: { userId: therapist._id, branchIds: [branch._id], treatmentIds: [treatment._id] },
    }),
    'a practitioner',
  );
  await created(
    await api('PUT', `/api/practitioners/${practitioner._id}/working-plan`, {
      token,
      body: {
        branchId: branch._id,
        days: Object.fromEntries(DAYS.map((d) => [d, [{ start: '00:00', end: '24:00' }]])),
      },
    }),
    'a working plan',
  );
  const quarter = 15 * 60_000;
  const dayStart = new Date(`${todayIn(TZ)}T00:00:00+05:30`).getTime();
  const start = new Date(Math.max(dayStart, Math.floor((Date.now() - 3_600_000) / quarter) * quarter));
  await created(
    await api('POST', '/api/appointments', {
      token,
      body: {
        bookingId: booking._id,
        practitionerId: practitioner._id,
        branchId: branch._id,
        start: start.toISOString(),
      },
    }),
    'an appointment',
  );
  return { tag, branch, student, customer, cashier, course, enrolment, booking };
}

type World = Awaited<ReturnType<typeof arrange>>;

interface LongScreen {
  name: string;
  path: string;
  /** What a person does on the screen before looking (a tab, a filter, a search). */
  open?: (page: Page) => Promise<void>;
  /** The full names the screen must show whole. */
  names: string[];
  /** The names are part of a longer text (a calendar event's title), not a text of their own. */
  within?: boolean;
}

function screensOf(w: World): LongScreen[] {
  // The screen's own branch filter (the Payments screen's till card has a Branch of its own).
  const branchFilter = (within?: string) => async (page: Page) => {
    const scope = within ? page.locator(within) : page.locator('main');
    await scope.getByLabel('Branch', { exact: true }).first().selectOption(w.branch._id);
    await settle(page);
  };
  return [
    { name: 'users-list', path: `/users?q=${encodeURIComponent(w.student.username)}`, names: [w.student.fullName] },
    { name: 'user-details', path: `/users/${w.student._id}`, names: [w.student.fullName] },
    { name: 'user-statement', path: `/users/${w.student._id}?tab=statement`, names: [w.student.fullName] },
    {
      name: 'enrolments-list',
      path: `/courses/AllStudentEnrollments?q=${encodeURIComponent(w.student.email)}`,
      names: [w.student.fullName],
    },
    {
      name: 'enrolment-details',
      path: `/courses/${w.course._id}/enrollment/${w.enrolment._id}`,
      names: [w.student.fullName],
    },
    {
      name: 'bookings-list',
      path: `/treatment/all-book?q=${encodeURIComponent(w.customer.email)}`,
      names: [w.customer.fullName],
    },
    { name: 'booking-details', path: `/booking-details/${w.booking._id}`, names: [w.customer.fullName] },
    {
      name: 'payments-list',
      path: `/payments?branchId=${w.branch._id}`,
      names: [w.student.fullName, w.customer.fullName],
    },
    {
      name: 'receivables',
      path: '/payments?tab=receivables',
      open: branchFilter('[role=tabpanel]'),
      names: [w.student.fullName],
    },
    {
      name: 'cash-up',
      path: `/payments?tab=cash-up&cashBranch=${w.branch._id}`,
      names: [w.cashier.fullName],
    },
    { name: 'dashboard', path: '/', open: branchFilter(), names: [w.student.fullName] },
    { name: 'today', path: '/calendar/today', open: branchFilter(), names: [w.customer.fullName] },
    { name: 'calendar', path: '/calendar', open: branchFilter(), names: [w.customer.fullName], within: true },
    {
      name: 'audit-log',
      path: `/audit?actor=${encodeURIComponent(w.cashier.username)}`,
      names: [w.cashier.fullName],
    },
    {
      name: 'header-search',
      path: '/',
      open: async (page) => {
        const box = page.getByRole('combobox', { name: 'Search everything' });
        await box.fill(w.student.username);
        await page.getByRole('listbox', { name: 'Search results' }).getByRole('option').first().waitFor();
        await settle(page);
      },
      names: [w.student.fullName],
    },
  ];
}

/** Where an element is drawn, and whether an ellipsis or a clipping box hides part of it. */
const measure = (node: Element) => {
  const box = node.getBoundingClientRect();
  // An ellipsis or a clipping box hides part of the name: its text is wider than what is drawn.
  let clipped = node.scrollWidth > node.clientWidth + 1 && getComputedStyle(node).overflowX !== 'visible';
  for (let p = node.parentElement; p && !clipped; p = p.parentElement) {
    const style = getComputedStyle(p);
    if (style.overflowX === 'hidden' || style.overflowX === 'clip') {
      const outer = p.getBoundingClientRect();
      clipped = box.left < outer.left - 0.5 || box.right > outer.right + 0.5;
    }
  }
  return { left: box.left, right: box.right, clipped, visible: box.width > 0 && box.height > 0 };
};

/** What is wrong with the open screen: sideways scroll, and each name that is missing, clipped or off-screen. */
async function problemsOf(page: Page, screen: LongScreen, width: number): Promise<string[]> {
  const problems: string[] = [];
  const overflow = await pageOverflow(page);
  if (overflow > 0) {
    // Name the innermost elements that reach past the edge, so a failure says what to fix.
    const culprits = await page.evaluate((edge) => {
      const past = [...document.body.querySelectorAll('*')].filter(
        (el) => el.getBoundingClientRect().right > edge + 0.5,
      );
      return past
        .filter((el) => !past.some((other) => other !== el && el.contains(other)))
        .slice(0, 3)
        .map((el) => `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 40)}"`);
    }, width);
    problems.push(`${screen.name}: scrolls sideways by ${overflow}px (${culprits.join(', ')})`);
  }
  for (const name of screen.names) {
    const found = page.getByText(name, { exact: !screen.within });
    if ((await found.count()) === 0) {
      problems.push(`${screen.name}: "${name}" is not shown`);
      continue;
    }
    const el = found.first();
    // The calendar redraws its events when its data refreshes: look again at the new element then.
    const look = () => el.scrollIntoViewIfNeeded().then(() => el.evaluate(measure));
    const seen = await look().catch(look);
    if (!seen.visible) problems.push(`${screen.name}: "${name}" is not visible`);
    else if (seen.clipped) problems.push(`${screen.name}: "${name}" is cut off`);
    else if (seen.left < -0.5 || seen.right > width + 0.5)
      problems.push(
        `${screen.name}: "${name}" runs off the screen (${Math.round(seen.left)}–${Math.round(seen.right)})`,
      );
  }
  return problems;
}

/**
 * Where a name, username or e-mail shown on its own wraps onto a new line in the middle of a
 * piece: a line may only break at a space, after a dot or underscore, or before the @ (none of
 * these texts has a run long enough to be cut otherwise).
 */
async function midWordBreaks(page: Page, where: string, texts: string[]): Promise<string[]> {
  const found = await page.evaluate((wanted) => {
    const bad: string[] = [];
    const all = [...document.body.querySelectorAll('*')].filter((el) => wanted.includes(el.textContent ?? ''));
    // The innermost element that holds the whole text.
    const own = all.filter((el) => !all.some((other) => other !== el && el.contains(other)));
    for (const el of own) {
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      const chars: Array<{ ch: string; top: number | null }> = [];
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (let i = 0; i < text.length; i++) {
          const range = document.createRange();
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const rect = range.getBoundingClientRect();
          chars.push({ ch: text[i]!, top: rect.width > 0 ? rect.top : null });
        }
      }
      const text = chars.map((c) => c.ch).join('');
      let last = -1;
      chars.forEach((c, i) => {
        if (c.top === null) return;
        if (last >= 0 && c.top > chars[last]!.top! + 2) {
          const between = text.slice(last + 1, i);
          const allowed = /\s/.test(between) || /[._]/.test(text[i - 1]!) || c.ch === '@';
          if (!allowed) bad.push(`"${text.slice(0, i)}|${text.slice(i)}"`);
        }
        last = i;
      });
    }
    return bad;
  }, texts);
  return found.map((at) => `${where}: breaks mid-word at ${at}`);
}

async function walk(page: Page, w: World, width: number): Promise<string[]> {
  const texts = [w.student, w.customer, w.cashier].flatMap((p) => [p.fullName, p.username, p.email]);
  const problems: string[] = [];
  for (const screen of screensOf(w)) {
    await page.goto(screen.path);
    await settle(page);
    await screen.open?.(page);
    // The screen's data is in when its names are; a missing one is reported below.
    for (const name of screen.names) {
      await page
        .getByText(name, { exact: !screen.within })
        .first()
        .waitFor({ timeout: 10_000 })
        .catch(() => {});
    }
    problems.push(...(await problemsOf(page, screen, width)));
    problems.push(...(await midWordBreaks(page, screen.name, texts)));
    await shot(page, `${screen.name}-${width}`);
  }
  return problems;
}

describe('long names and addresses', () => {
  test('every staff list and details screen that names the people fits 390 px and shows their full names', async () => {
    const w = await arrange();
    const page = await browser.newPage({ viewport: PHONE });
    await signIn(page, accounts().superadmin);
    const problems = await walk(page, w, PHONE.width);

    // The same screens on a desktop, for the screenshots and the same checks.
    const wide = await browser.newPage({ viewport: DESKTOP });
    await signIn(wide, accounts().superadmin);
    problems.push(...(await walk(wide, w, DESKTOP.width)));
    expect(problems).toEqual([]);
  }, 300_000);
});

describe('the portal and the settings at 390 px', () => {
  test("How to pay, Settings → Organisation, the branch list and the student's details with a guardian phone fit", async () => {
    const w = await arrange();
    const problems: string[] = [];
    const fits = async (page: Page, name: string) => {
      await settle(page);
      const overflow = await pageOverflow(page);
      if (overflow > 0) problems.push(`${name}: scrolls sideways by ${overflow}px`);
      problems.push(...(await midWordBreaks(page, name, [w.branch.name, w.branch.location, w.student.fullName])));
      await shot(page, `${name}-390`);
    };

    // The student on the portal: the bank details and the branches to pay at, their own long branch among them.
    const portal = await browser.newPage({ viewport: PHONE });
    await portal.goto('/portal/sign-in');
    await portal.getByLabel('E-mail', { exact: true }).fill(w.student.email);
    await portal.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await portal.getByRole('button', { name: 'Sign in', exact: true }).click();
    await portal.waitForURL((url) => url.pathname === '/portal');
    await fits(portal, 'portal-home');
    await portal.goto('/portal/how-to-pay');
    await portal.getByText(w.branch.name, { exact: true }).waitFor();
    await fits(portal, 'portal-how-to-pay');

    const page = await browser.newPage({ viewport: PHONE });
    await signIn(page, accounts().superadmin);
    await page.goto('/settings');
    await page.getByRole('button', { name: 'Save' }).first().waitFor();
    await fits(page, 'settings-organisation');
    await page.goto(`/branch?q=${encodeURIComponent(w.tag)}`);
    await page.getByText(w.branch.name, { exact: true }).waitFor();
    await fits(page, 'branch-list');
    await page.goto(`/users/${w.student._id}`);
    await page.getByTestId('user-guardian-phone').waitFor();
    await fits(page, 'student-guardian');
    expect(problems).toEqual([]);
  }, 120_000);
});
