import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments, auditLog, practitioners, treatmentBookings, workingPeriods } from '../../src/server/db/schema';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeBranch, makeUser, postTreatment, type MadeUser } from '../helpers/factories';

/**
 * Practitioners, their working plans and time off, and branch closures
 * (docs/appointments.md#resources) on a real PostgreSQL: the documented answers, every refusal
 * with its message, roles, the branch scope and the audit trail.
 */
let t: TestApp;
let admin: MadeUser & { token: string };
let manager: MadeUser & { token: string };
let branchA: { id: string; name: string };
let branchB: { id: string; name: string };
let treatment: { _id: string; treatmentName: string };
const MISSING = '00000000-0000-4000-8000-000000000000';

const api = (method: string, path: string, body?: unknown, token = admin.token) => t.api(method, path, { token, body });

const treatmentValues = (name: string) => ({
  treatmentName: name,
  localPrice: 10000,
  foreignPrice: 100,
  maxSessions: 10,
  installments: 1,
  duration: { weeks: 0, days: 0, months: 1 },
});

/** A user made a practitioner at `branchIds` through the API; answers the created practitioner. */
async function practitioner(branchIds = [branchA.id], extra: Record<string, unknown> = {}) {
  const user = await makeUser(t.deps.db, { role: 'user' });
  const res = await api('POST', '/api/practitioners', { userId: user.id, branchIds, treatmentIds: [], ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { user, p: res.body as { _id: string } & Record<string, unknown> };
}

/** One appointment of a booking with this practitioner, written straight to the table. */
async function appointmentWith(practitionerId: string, roomId: string | null = null) {
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
      bookedOn: '2026-01-05',
    })
    .returning();
  const start = new Date('2026-01-05T10:00:00+05:30');
  await t.deps.db.insert(appointments).values({
    bookingId: booking!.id,
    customerId: customer.id,
    treatmentId: treatment._id,
    practitionerId,
    branchId: branchA.id,
    roomId,
    startAt: start,
    endAt: new Date(start.getTime() + 3_600_000),
    blockedUntil: new Date(start.getTime() + 3_600_000),
  });
}

const auditOf = (entityId: string) =>
  t.deps.db.select().from(auditLog).where(eq(auditLog.entityId, entityId)).orderBy(auditLog.createdAt);

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.userWithSession('admin');
  const a = await makeBranch(t.deps.db, { name: 'Alpha branch' });
  const b = await makeBranch(t.deps.db, { name: 'Beta branch' });
  branchA = { id: a.id, name: a.name };
  branchB = { id: b.id, name: b.name };
  manager = await t.userWithSession('manager', { branchId: branchA.id });
  const made = await postTreatment(t, admin.token, treatmentValues('Ayurveda massage'));
  treatment = { _id: made._id, treatmentName: made.treatmentName };
});
afterAll(() => t.close());

describe('practitioners', () => {
  it('creates one from any user with branches, treatments and a colour, and answers the documented shape', async () => {
    const user = await makeUser(t.deps.db, { role: 'customer', fullName: 'Nimali Perera' });
    const res = await api('POST', '/api/practitioners', {
      userId: user.id,
      branchIds: [branchB.id, branchA.id, branchA.id],
      treatmentIds: [treatment._id],
      color: '#AA00CC',
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      _id: expect.any(String),
      user: { _id: user.id, username: user.username, fullName: 'Nimali Perera', email: user.email },
      branches: [
        { _id: branchA.id, name: branchA.name },
        { _id: branchB.id, name: branchB.name },
      ],
      treatments: [{ _id: treatment._id, treatmentName: treatment.treatmentName }],
      color: '#aa00cc',
      active: true,
    });
    const got = await api('GET', `/api/practitioners/${res.body._id}`, undefined, manager.token);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
    const [entry] = await auditOf(res.body._id);
    expect(entry).toMatchObject({
      action: 'create',
      entityType: 'practitioner',
      summary: 'Created practitioner Nimali Perera',
    });
    expect(entry!.changes).toContainEqual({ field: 'color', before: null, after: '#aa00cc' });
  });

  it('takes the default colour and refuses a user who already is one with 409', async () => {
    const { user, p } = await practitioner();
    expect(p.color).toBe('#2563eb');
    const again = await api('POST', '/api/practitioners', { userId: user.id, branchIds: [branchA.id] });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('This user is already a practitioner.');
  });

  it('refuses bad input with 400 and unknown users, branches and treatments with 404, storing nothing', async () => {
    const user = await makeUser(t.deps.db);
    const cases: Array<[unknown, number, string]> = [
      [{ userId: user.id, branchIds: [] }, 400, 'Choose at least one branch the practitioner works at.'],
      [
        { userId: user.id, branchIds: [branchA.id], color: 'blue' },
        400,
        'Colour must be a hex colour such as #2563eb.',
      ],
      [{ userId: user.id, branchIds: 'x' }, 400, 'Branches must be a list of ids.'],
      [{ userId: MISSING, branchIds: [branchA.id] }, 404, 'User not found.'],
      [{ userId: 'nope', branchIds: [branchA.id] }, 404, 'User not found.'],
      [{ userId: user.id, branchIds: [MISSING] }, 404, 'Branch not found.'],
      [{ userId: user.id, branchIds: [branchA.id], treatmentIds: [MISSING] }, 404, 'Treatment not found.'],
    ];
    for (const [body, status, message] of cases) {
      const res = await api('POST', '/api/practitioners', body);
      expect({ body, status: res.status, message: res.body.message }).toEqual({ body, status, message });
    }
    expect(await t.deps.db.select().from(practitioners).where(eq(practitioners.userId, user.id))).toHaveLength(0);
  });

  it('lists by name, filtered by branch, treatment and active', async () => {
    const withTreatment = await practitioner([branchB.id], { treatmentIds: [treatment._id] });
    const onlyA = await practitioner([branchA.id]);
    const atB = await api('GET', `/api/practitioners?branchId=${branchB.id}`);
    expect(atB.status).toBe(200);
    const idsAtB = atB.body.data.map((x: { _id: string }) => x._id);
    expect(idsAtB).toContain(withTreatment.p._id);
    expect(idsAtB).not.toContain(onlyA.p._id);
    const delivering = await api('GET', `/api/practitioners?treatmentId=${treatment._id}&branchId=${branchB.id}`);
    expect(
      delivering.body.data.every((x: { treatments: Array<{ _id: string }> }) =>
        x.treatments.some((tr) => tr._id === treatment._id),
      ),
    ).toBe(true);
    expect(delivering.body.data.map((x: { _id: string }) => x._id)).toContain(withTreatment.p._id);
    const names = (await api('GET', '/api/practitioners')).body.data.map(
      (x: { user: { fullName: string } }) => x.user.fullName,
    );
    expect(names).toEqual([...names].sort((a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)));
    await api('PUT', `/api/practitioners/${onlyA.p._id}`, { active: false });
    const inactive = await api('GET', '/api/practitioners?active=false');
    expect(inactive.body.data.map((x: { _id: string }) => x._id)).toContain(onlyA.p._id);
    expect(inactive.body.data.every((x: { active: boolean }) => !x.active)).toBe(true);
    expect((await api('GET', '/api/practitioners?active=maybe')).status).toBe(400);
    expect((await api('GET', '/api/practitioners?branchId=nope')).body).toEqual({ data: [] });
  });

  it('updates what is sent and keeps the rest; losing a branch drops the plan there; the audit shows the change', async () => {
    const { p } = await practitioner([branchA.id, branchB.id]);
    const plan = { branchId: branchB.id, days: { monday: [{ start: '09:00', end: '12:00' }] } };
    expect((await api('PUT', `/api/practitioners/${p._id}/working-plan`, plan)).status).toBe(200);
    const res = await api('PUT', `/api/practitioners/${p._id}`, {
      branchIds: [branchA.id],
      treatmentIds: [treatment._id],
      color: '#000000',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      branches: [{ _id: branchA.id, name: branchA.name }],
      treatments: [{ _id: treatment._id }],
      color: '#000000',
      active: true,
    });
    const left = await t.deps.db
      .select()
      .from(workingPeriods)
      .where(and(eq(workingPeriods.practitionerId, p._id), eq(workingPeriods.branchId, branchB.id)));
    expect(left).toHaveLength(0);
    const entries = await auditOf(p._id);
    const update = entries.find((e) => e.action === 'update' && e.summary.startsWith('Updated practitioner'));
    expect(update!.changes).toContainEqual({ field: 'color', before: '#2563eb', after: '#000000' });
    expect(update!.changes).toContainEqual({
      field: 'branches',
      before: [branchA.name, branchB.name],
      after: [branchA.name],
    });
    expect((await api('PUT', `/api/practitioners/${MISSING}`, { active: false })).status).toBe(404);
    const bad = await api('PUT', `/api/practitioners/${p._id}`, { active: 'yes' });
    expect([bad.status, bad.body.message]).toEqual([400, 'Active must be true or false.']);
  });

  it('deletes one without appointments, and deactivates one with appointments saying so', async () => {
    const free = await practitioner();
    const del = await api('DELETE', `/api/practitioners/${free.p._id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ message: 'Practitioner deleted successfully!', deactivated: false });
    expect((await api('GET', `/api/practitioners/${free.p._id}`)).status).toBe(404);
    expect((await auditOf(free.p._id)).at(-1)).toMatchObject({ action: 'delete', entityType: 'practitioner' });

    const busy = await practitioner();
    await appointmentWith(busy.p._id);
    const kept = await api('DELETE', `/api/practitioners/${busy.p._id}`);
    expect(kept.status).toBe(200);
    expect(kept.body).toEqual({
      message: 'This practitioner has appointments, so they were deactivated instead of deleted.',
      deactivated: true,
    });
    expect((await api('GET', `/api/practitioners/${busy.p._id}`)).body.active).toBe(false);
    expect((await auditOf(busy.p._id)).at(-1)!.changes).toContainEqual({ field: 'active', before: true, after: false });
    expect((await api('DELETE', `/api/practitioners/${MISSING}`)).body.message).toBe('Practitioner not found.');
  });

  it('answers the same through tRPC', async () => {
    const user = await makeUser(t.deps.db);
    const client = t.trpc(admin.token);
    const made = await client.practitioners.create.mutate({
      userId: user.id,
      branchIds: [branchA.id],
      treatmentIds: [],
    });
    expect(made.user._id).toBe(user.id);
    expect((await client.practitioners.get.query({ id: made._id })).branches).toEqual([
      { _id: branchA.id, name: branchA.name },
    ]);
    const plan = await client.practitioners.setWorkingPlan.mutate({
      id: made._id,
      branchId: branchA.id,
      days: { friday: [{ start: '08:00', end: '10:00' }] },
    });
    expect(plan.days.friday).toEqual([{ start: '08:00', end: '10:00' }]);
    const off = await client.practitioners.timeOff.add.mutate({
      id: made._id,
      timeOff: { start: '2026-03-02T00:00:00+05:30', end: '2026-03-03T00:00:00+05:30' },
    });
    expect((await client.practitioners.timeOff.list.query({ id: made._id })).data).toEqual([off]);
    await expect(client.practitioners.remove.mutate({ id: made._id })).resolves.toEqual({
      message: 'Practitioner deleted successfully!',
      deactivated: false,
    });
  });
});

describe('working plans', () => {
  it('saves a week at a branch and answers every day, periods in order, times HH:MM', async () => {
    const { p } = await practitioner();
    const res = await api('PUT', `/api/practitioners/${p._id}/working-plan`, {
      branchId: branchA.id,
      days: {
        monday: [
          { start: '14:00', end: '18:00' },
          { start: '09:00', end: '13:00' },
        ],
        tuesday: [],
        saturday: [{ start: '13:00', end: '24:00' }],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      practitionerId: p._id,
      branch: { _id: branchA.id, name: branchA.name },
      days: {
        monday: [
          { start: '09:00', end: '13:00' },
          { start: '14:00', end: '18:00' },
        ],
        tuesday: [],
        wednesday: [],
        thursday: [],
        friday: [],
        saturday: [{ start: '13:00', end: '24:00' }],
        sunday: [],
      },
      weeklyMinutes: 8 * 60 + 11 * 60,
    });
    const got = await api(
      'GET',
      `/api/practitioners/${p._id}/working-plan?branchId=${branchA.id}`,
      undefined,
      manager.token,
    );
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
    // Stored as weekday 1 (Monday) and minutes after midnight.
    const rows = await t.deps.db.select().from(workingPeriods).where(eq(workingPeriods.practitionerId, p._id));
    expect(rows.map((r) => [r.weekday, r.startMinute, r.endMinute]).sort()).toEqual(
      [
        [1, 540, 780],
        [1, 840, 1080],
        [6, 780, 1440],
      ].sort(),
    );
    // Saving again replaces the plan, and the audit trail shows the days that changed.
    const again = await api('PUT', `/api/practitioners/${p._id}/working-plan`, {
      branchId: branchA.id,
      days: { monday: [{ start: '09:00', end: '13:00' }] },
    });
    expect(again.body.days.saturday).toEqual([]);
    const entry = (await auditOf(p._id)).at(-1)!;
    expect(entry.summary).toBe(
      `Changed the working plan of ${(p.user as { fullName: string }).fullName} at ${branchA.name}`,
    );
    expect(entry.changes).toEqual([
      { field: 'monday', before: '09:00–13:00, 14:00–18:00', after: '09:00–13:00' },
      { field: 'saturday', before: '13:00–24:00', after: 'off' },
    ]);
  });

  it('refuses inverted, overlapping and malformed periods with 400 and a clear message, storing nothing', async () => {
    const { p } = await practitioner();
    const cases: Array<[unknown, string]> = [
      [{ monday: [{ start: '13:00', end: '09:00' }] }, 'On Monday, 13:00–09:00 must end after it starts.'],
      [{ friday: [{ start: '10:00', end: '10:00' }] }, 'On Friday, 10:00–10:00 must end after it starts.'],
      [
        {
          tuesday: [
            { start: '09:00', end: '13:00' },
            { start: '12:30', end: '15:00' },
          ],
        },
        'On Tuesday, 09:00–13:00 and 12:30–15:00 overlap.',
      ],
      [{ monday: [{ start: '9:00', end: '13:00' }] }, 'Times must be written HH:MM, from 00:00 to 24:00.'],
      [{ monday: [{ start: '09:00', end: '24:30' }] }, 'Times must be written HH:MM, from 00:00 to 24:00.'],
      [{ mon: [] }, 'Days must be named monday to sunday.'],
      [{ monday: 'all day' }, 'Each day must be a list of { start, end } periods.'],
    ];
    for (const [days, message] of cases) {
      const res = await api('PUT', `/api/practitioners/${p._id}/working-plan`, { branchId: branchA.id, days });
      expect({ days, status: res.status, message: res.body.message }).toEqual({ days, status: 400, message });
    }
    // Touching periods leave no break and are fine.
    const touching = await api('PUT', `/api/practitioners/${p._id}/working-plan`, {
      branchId: branchA.id,
      days: {
        monday: [
          { start: '09:00', end: '13:00' },
          { start: '13:00', end: '17:00' },
        ],
      },
    });
    expect(touching.status).toBe(200);
    expect((await api('GET', `/api/practitioners/${p._id}/working-plan`)).status).toBe(400);
  });

  it('refuses a branch the practitioner does not work at with 409, and unknown ids with 404', async () => {
    const { p } = await practitioner([branchA.id]);
    const res = await api('PUT', `/api/practitioners/${p._id}/working-plan`, { branchId: branchB.id, days: {} });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(
      'This practitioner does not work at that branch. Add the branch to the practitioner first.',
    );
    const noBranch = await api('PUT', `/api/practitioners/${p._id}/working-plan`, { branchId: MISSING, days: {} });
    expect([noBranch.status, noBranch.body.message]).toEqual([404, 'Branch not found.']);
    const noOne = await api('PUT', `/api/practitioners/${MISSING}/working-plan`, { branchId: branchA.id, days: {} });
    expect([noOne.status, noOne.body.message]).toEqual([404, 'Practitioner not found.']);
    // Reading a branch they do not work at answers an empty week.
    const empty = await api('GET', `/api/practitioners/${p._id}/working-plan?branchId=${branchB.id}`);
    expect(empty.body.weeklyMinutes).toBe(0);
  });
});

describe('time off', () => {
  it('adds (201), lists in start order and removes time off, with audit entries', async () => {
    const { p } = await practitioner();
    const later = await api('POST', `/api/practitioners/${p._id}/time-off`, {
      start: '2026-04-10T00:00:00+05:30',
      end: '2026-04-12T00:00:00+05:30',
      reason: 'Leave',
    });
    expect(later.status).toBe(201);
    expect(later.body).toEqual({
      _id: expect.any(String),
      practitionerId: p._id,
      start: '2026-04-09T18:30:00.000Z',
      end: '2026-04-11T18:30:00.000Z',
      reason: 'Leave',
      createdAt: expect.any(String),
    });
    const sooner = await api('POST', `/api/practitioners/${p._id}/time-off`, {
      start: '2026-04-01T14:00:00+05:30',
      end: '2026-04-01T16:00:00+05:30',
    });
    expect(sooner.body.reason).toBe('');
    const list = await api('GET', `/api/practitioners/${p._id}/time-off`, undefined, manager.token);
    expect(list.body.data.map((x: { _id: string }) => x._id)).toEqual([sooner.body._id, later.body._id]);
    // A day window keeps what touches those days (in TIME_ZONE).
    const april11 = await api('GET', `/api/practitioners/${p._id}/time-off?from=2026-04-11&to=2026-04-11`);
    expect(april11.body.data.map((x: { _id: string }) => x._id)).toEqual([later.body._id]);
    const april12 = await api('GET', `/api/practitioners/${p._id}/time-off?from=2026-04-12`);
    expect(april12.body.data).toEqual([]);

    const del = await api('DELETE', `/api/practitioners/${p._id}/time-off/${sooner.body._id}`);
    expect([del.status, del.body.message]).toEqual([200, 'Time off deleted.']);
    const again = await api('DELETE', `/api/practitioners/${p._id}/time-off/${sooner.body._id}`);
    expect([again.status, again.body.message]).toEqual([404, 'Time off not found.']);
    const entries = await auditOf(sooner.body._id);
    expect(entries.map((e) => [e.entityType, e.action])).toEqual([
      ['time_off', 'create'],
      ['time_off', 'delete'],
    ]);
  });

  it('refuses an end not after the start, a bad instant and an overlong span with 400', async () => {
    const { p } = await practitioner();
    const cases: Array<[unknown, string]> = [
      [{ start: '2026-04-10T10:00:00+05:30', end: '2026-04-10T10:00:00+05:30' }, 'End must be after start.'],
      [{ start: '2026-04-10T10:00:00+05:30', end: '2026-04-09T10:00:00+05:30' }, 'End must be after start.'],
      [{ start: 'tomorrow', end: '2026-04-09T10:00:00+05:30' }, 'Start must be an ISO date-time.'],
      [{ start: '2026-01-01T00:00:00Z', end: '2027-06-01T00:00:00Z' }, 'Time off can last at most 366 days.'],
    ];
    for (const [body, message] of cases) {
      const res = await api('POST', `/api/practitioners/${p._id}/time-off`, body);
      expect({ body, status: res.status, message: res.body.message }).toEqual({ body, status: 400, message });
    }
    const missing = await api('POST', `/api/practitioners/${MISSING}/time-off`, {
      start: '2026-04-10T10:00:00+05:30',
      end: '2026-04-10T12:00:00+05:30',
    });
    expect([missing.status, missing.body.message]).toEqual([404, 'Practitioner not found.']);
  });
});

describe('branch closures', () => {
  it('adds (201), lists by day and removes closures; a second closure of a day is 409', async () => {
    const branch = await makeBranch(t.deps.db, { name: 'Closure branch' });
    const res = await api('POST', `/api/branch/${branch.id}/closures`, { date: '2026-04-14', reason: 'New year' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      _id: expect.any(String),
      branch: { _id: branch.id, name: 'Closure branch' },
      date: '2026-04-14',
      reason: 'New year',
      createdAt: expect.any(String),
    });
    await api('POST', `/api/branch/${branch.id}/closures`, { date: '2026-04-13' });
    const dup = await api('POST', `/api/branch/${branch.id}/closures`, { date: '2026-04-14', reason: 'again' });
    expect([dup.status, dup.body.message]).toEqual([409, 'This branch is already closed on that day.']);
    const list = await api('GET', `/api/branch/${branch.id}/closures`, undefined, manager.token);
    expect(list.status).toBe(200);
    expect(list.body.data.map((c: { date: string }) => c.date)).toEqual(['2026-04-13', '2026-04-14']);
    const window = await api('GET', `/api/branch/${branch.id}/closures?from=2026-04-14&to=2026-04-30`);
    expect(window.body.data.map((c: { date: string }) => c.date)).toEqual(['2026-04-14']);
    const del = await api('DELETE', `/api/branch/${branch.id}/closures/${res.body._id}`);
    expect([del.status, del.body.message]).toEqual([200, 'Closure deleted.']);
    expect((await api('DELETE', `/api/branch/${branch.id}/closures/${res.body._id}`)).status).toBe(404);
    expect((await auditOf(res.body._id)).map((e) => [e.entityType, e.action, e.summary])).toEqual([
      ['branch_closure', 'create', 'Closed Closure branch on 2026-04-14 (New year)'],
      ['branch_closure', 'delete', 'Reopened Closure branch on 2026-04-14'],
    ]);
  });

  it('refuses a bad day with 400 and an unknown branch with 404', async () => {
    for (const date of ['2026-02-30', '14/04/2026', '']) {
      const res = await api('POST', `/api/branch/${branchA.id}/closures`, { date });
      expect([date, res.status, res.body.message]).toEqual([
        date,
        400,
        'Date must be a date (YYYY-MM-DD) between 1900 and 2100.',
      ]);
    }
    const res = await api('POST', `/api/branch/${MISSING}/closures`, { date: '2026-04-14' });
    expect([res.status, res.body.message]).toEqual([404, 'Branch not found.']);
    expect((await api('GET', `/api/branch/${branchA.id}/closures?from=2026-05-01&to=2026-04-01`)).body.message).toBe(
      'From must be on or before To.',
    );
  });

  it('is reachable through the tRPC closures group', async () => {
    const client = t.trpc(admin.token);
    const made = await client.practitioners.closures.add.mutate({
      branchId: branchB.id,
      closure: { date: '2026-12-25' },
    });
    expect((await client.practitioners.closures.list.query({ branchId: branchB.id })).data).toContainEqual(made);
    await client.practitioners.closures.remove.mutate({ branchId: branchB.id, closureId: made._id });
  });
});

describe('roles and branch scope', () => {
  it('lets staff read, only admins change, and refuses the other roles with 403', async () => {
    const { p } = await practitioner();
    const user = await makeUser(t.deps.db);
    const writes: Array<[string, string, unknown]> = [
      ['POST', '/api/practitioners', { userId: user.id, branchIds: [branchA.id] }],
      ['PUT', `/api/practitioners/${p._id}`, { active: false }],
      ['DELETE', `/api/practitioners/${p._id}`, undefined],
      ['PUT', `/api/practitioners/${p._id}/working-plan`, { branchId: branchA.id, days: {} }],
      ['POST', `/api/practitioners/${p._id}/time-off`, { start: '2026-04-10T10:00:00Z', end: '2026-04-10T12:00:00Z' }],
      ['POST', `/api/branch/${branchA.id}/closures`, { date: '2026-06-01' }],
    ];
    const reads = [
      '/api/practitioners',
      `/api/practitioners/${p._id}`,
      `/api/practitioners/${p._id}/working-plan?branchId=${branchA.id}`,
      `/api/practitioners/${p._id}/time-off`,
      `/api/branch/${branchA.id}/closures`,
    ];
    for (const [method, path, body] of writes) {
      const res = await api(method, path, body, manager.token);
      expect([method, path, res.status]).toEqual([method, path, 403]);
    }
    for (const role of ['student', 'customer', 'user'] as const) {
      const other = await t.userWithSession(role);
      for (const path of reads)
        expect([role, path, (await api('GET', path, undefined, other.token)).status]).toEqual([role, path, 403]);
      const res = await api('POST', `/api/branch/${branchA.id}/closures`, { date: '2026-06-01' }, other.token);
      expect(res.body.message).toBe('You do not have permission to access this page.');
    }
    for (const path of reads) expect((await api('GET', path, undefined, manager.token)).status).toBe(200);
    await expect(t.trpc(manager.token).practitioners.remove.mutate({ id: p._id })).rejects.toMatchObject({
      data: { httpStatus: 403 },
    });
  });

  it("limits a manager to their own branch's practitioners and closures when the setting is on", async () => {
    const atB = await practitioner([branchB.id]);
    const atA = await practitioner([branchA.id]);
    await api('POST', `/api/branch/${branchB.id}/closures`, { date: '2026-07-01' });
    await t.trpc(admin.token).settings.updateAccess.mutate({ managersOwnBranchOnly: true });
    try {
      const list = await api('GET', '/api/practitioners', undefined, manager.token);
      const seen = list.body.data.map((x: { _id: string }) => x._id);
      expect(seen).toContain(atA.p._id);
      expect(seen).not.toContain(atB.p._id);
      for (const path of [
        `/api/practitioners/${atB.p._id}`,
        `/api/practitioners/${atB.p._id}/time-off`,
        `/api/practitioners/${atB.p._id}/working-plan?branchId=${branchB.id}`,
      ]) {
        const res = await api('GET', path, undefined, manager.token);
        expect([path, res.status, res.body.message]).toEqual([path, 404, 'Practitioner not found.']);
      }
      const closures = await api('GET', `/api/branch/${branchB.id}/closures`, undefined, manager.token);
      expect([closures.status, closures.body.message]).toEqual([404, 'Branch not found.']);
      expect((await api('GET', `/api/branch/${branchA.id}/closures`, undefined, manager.token)).status).toBe(200);
      // Admins are never limited.
      expect((await api('GET', `/api/practitioners/${atB.p._id}`)).status).toBe(200);
      const nobody = await t.userWithSession('manager', { branchId: null });
      expect((await api('GET', '/api/practitioners', undefined, nobody.token)).body).toEqual({ data: [] });
    } finally {
      await t.trpc(admin.token).settings.updateAccess.mutate({ managersOwnBranchOnly: false });
    }
  });
});
