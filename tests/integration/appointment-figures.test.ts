import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments, treatmentBookings } from '../../src/server/db/schema';
import { addToDate, todayIn } from '../../src/shared/calendar';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeBranch, makeUser, postTreatment, type MadeUser } from '../helpers/factories';

/**
 * The dashboard's appointment figures (appointments.figures): today's appointments, arrivals and
 * no-shows, and the week's utilisation against the working plans, per branch, with roles and the
 * branch scope.
 */
let t: TestApp;
let admin: MadeUser & { token: string };
const TZ = 'Asia/Colombo';
let today: string;
let treatment: { _id: string; treatmentName: string };

const api = (method: string, path: string, body?: unknown, token = admin.token) => t.api(method, path, { token, body });

/** A branch with one practitioner working 09:00–13:00 every day of the week (1,680 minutes). */
async function clinic() {
  const branch = await makeBranch(t.deps.db);
  const user = await makeUser(t.deps.db, { role: 'user' });
  const p = await api('POST', '/api/practitioners', {
    userId: user.id,
    branchIds: [branch.id],
    treatmentIds: [treatment._id],
  });
  expect(p.status, JSON.stringify(p.body)).toBe(201);
  const morning = [{ start: '09:00', end: '13:00' }];
  const days = Object.fromEntries(
    ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, morning]),
  );
  const plan = await api('PUT', `/api/practitioners/${(p.body as { _id: string })._id}/working-plan`, {
    branchId: branch.id,
    days,
  });
  expect(plan.status, JSON.stringify(plan.body)).toBe(200);
  return { branch, practitionerId: (p.body as { _id: string })._id };
}

/** An appointment of `minutes` at 10:00 on `day`, written straight to the table with its status. */
async function appointment(
  c: { branch: { id: string }; practitionerId: string },
  day: string,
  status: (typeof appointments.$inferInsert)['status'],
  minutes = 60,
  hour = 10,
) {
  const customer = await makeUser(t.deps.db, { role: 'customer' });
  const [booking] = await t.deps.db
    .insert(treatmentBookings)
    .values({
      userId: customer.id,
      treatmentId: treatment._id,
      treatmentName: treatment.treatmentName,
      maxSessions: 10,
      userType: 'local',
      paymentType: 'full',
      price: 1_000_000,
      currency: 'LKR',
      bookedOn: today,
    })
    .returning();
  const start = new Date(`${day}T${String(hour).padStart(2, '0')}:00:00+05:30`);
  const end = new Date(start.getTime() + minutes * 60_000);
  await t.deps.db.insert(appointments).values({
    bookingId: booking!.id,
    customerId: customer.id,
    treatmentId: treatment._id,
    practitionerId: c.practitionerId,
    branchId: c.branch.id,
    startAt: start,
    endAt: end,
    blockedUntil: end,
    status,
    statusReason: status === 'cancelled' ? 'Asked to' : null,
  });
}

/** Monday of this week, in the organisation's zone. */
function mondayOf(day: string): string {
  const weekday = ((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;
  return addToDate(day, { days: 1 - weekday });
}

beforeAll(async () => {
  t = await startTestApp();
  expect(t.deps.config.TIME_ZONE).toBe(TZ);
  today = todayIn(TZ);
  admin = await t.userWithSession('admin');
  treatment = await postTreatment(t, admin.token, {
    treatmentName: 'Figures massage',
    localPrice: 10000,
    foreignPrice: 100,
    maxSessions: 10,
    installments: 1,
    duration: { weeks: 0, days: 0, months: 1 },
  });
});
afterAll(() => t.close());

describe('appointments.figures', () => {
  it("counts today's appointments by status and the week's booked minutes against the plan", async () => {
    const c = await clinic();
    await appointment(c, today, 'scheduled', 60, 9);
    await appointment(c, today, 'arrived', 60, 10);
    await appointment(c, today, 'completed', 30, 11);
    await appointment(c, today, 'no_show', 60, 12);
    await appointment(c, today, 'cancelled', 60, 12);
    // Another day of the same week counts for the week only; a cancelled one frees its minutes.
    const monday = mondayOf(today);
    const other = today === monday ? addToDate(monday, { days: 1 }) : monday;
    await appointment(c, other, 'confirmed', 90);
    // Next week's is outside.
    await appointment(c, addToDate(monday, { days: 7 }), 'scheduled', 60);

    const f = await t.trpc(admin.token).appointments.figures.query({ branchId: c.branch.id });
    expect(f.day).toBe(today);
    expect(f.weekFrom).toBe(monday);
    expect(f.weekTo).toBe(addToDate(monday, { days: 6 }));
    expect(f.today).toEqual({ total: 4, arrived: 2, completed: 1, noShows: 1, cancelled: 1 });
    // scheduled 60 + arrived 60 + completed 30 + confirmed 90; no-shows and cancelled hold no time.
    expect(f.week.bookedMinutes).toBe(240);
    expect(f.week.workingMinutes).toBe(7 * 240);
    expect(f.week.utilisation).toBeCloseTo(240 / 1680, 3);
  });

  it('leaves a closed day out of the working minutes, and has no utilisation without a plan', async () => {
    const c = await clinic();
    const closure = await api('POST', `/api/branch/${c.branch.id}/closures`, {
      date: mondayOf(today),
      reason: 'Holiday',
    });
    expect(closure.status, JSON.stringify(closure.body)).toBe(201);
    const f = await t.trpc(admin.token).appointments.figures.query({ branchId: c.branch.id });
    expect(f.week.workingMinutes).toBe(6 * 240);

    const empty = await makeBranch(t.deps.db);
    const none = await t.trpc(admin.token).appointments.figures.query({ branchId: empty.id });
    expect(none.today.total).toBe(0);
    expect(none.week).toEqual({ bookedMinutes: 0, workingMinutes: 0, utilisation: null });
  });

  it('keeps a limited manager to their branch and refuses roles outside the staff', async () => {
    const mine = await clinic();
    const theirs = await clinic();
    await appointment(mine, today, 'scheduled');
    await appointment(theirs, today, 'scheduled');
    await appointment(theirs, today, 'arrived', 60, 11);
    const manager = await t.userWithSession('manager', { branchId: mine.branch.id });
    await t.trpc(admin.token).settings.updateAccess.mutate({ managersOwnBranchOnly: true });
    try {
      const f = await t.trpc(manager.token).appointments.figures.query({});
      expect(f.today.total).toBe(1);
      await expect(
        t.trpc(manager.token).appointments.figures.query({ branchId: theirs.branch.id }),
      ).rejects.toMatchObject({ data: { httpStatus: 403 } });
    } finally {
      await t.trpc(admin.token).settings.updateAccess.mutate({ managersOwnBranchOnly: false });
    }
    const customer = await t.userWithSession('customer');
    await expect(t.trpc(customer.token).appointments.figures.query({})).rejects.toMatchObject({
      data: { httpStatus: 403 },
    });
    await expect(t.trpc(customer.token).appointments.clock.query()).rejects.toMatchObject({
      data: { httpStatus: 403 },
    });
    expect(await t.trpc(manager.token).appointments.clock.query()).toEqual({
      timeZone: TZ,
      today,
      slotStepMinutes: 15,
    });
  });
});
