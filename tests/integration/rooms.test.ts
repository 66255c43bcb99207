import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments, auditLog, practitioners, rooms, treatmentBookings } from '../../src/server/db/schema';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeBranch, makeUser, postTreatment, type MadeUser } from '../helpers/factories';

/**
 * Rooms and the treatments' timing (docs/appointments.md#resources) on a real PostgreSQL: the
 * documented answers, refusals with their messages, roles, the branch scope and the audit trail.
 */
let t: TestApp;
let admin: MadeUser & { token: string };
let manager: MadeUser & { token: string };
let branchA: { id: string; name: string };
let branchB: { id: string; name: string };
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

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.userWithSession('admin');
  const a = await makeBranch(t.deps.db, { name: 'Room branch A' });
  const b = await makeBranch(t.deps.db, { name: 'Room branch B' });
  branchA = { id: a.id, name: a.name };
  branchB = { id: b.id, name: b.name };
  manager = await t.userWithSession('manager', { branchId: branchA.id });
});
afterAll(() => t.close());

describe('rooms', () => {
  it('creates a room (201) with capacity 1 by default, lists by branch and updates name and capacity', async () => {
    const res = await api('POST', '/api/rooms', { name: '  Room 1 ', branchId: branchA.id });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      _id: expect.any(String),
      name: 'Room 1',
      branch: { _id: branchA.id, name: branchA.name },
      capacity: 1,
    });
    const big = await api('POST', '/api/rooms', { name: 'Hall', branchId: branchB.id, capacity: 12 });
    expect(big.body.capacity).toBe(12);
    const atA = await api('GET', `/api/rooms?branchId=${branchA.id}`, undefined, manager.token);
    expect(atA.status).toBe(200);
    expect(atA.body).toEqual({ data: [res.body] });
    const all = (await api('GET', '/api/rooms')).body.data.map((r: { _id: string }) => r._id);
    expect(all).toEqual(expect.arrayContaining([res.body._id, big.body._id]));

    const upd = await api('PUT', `/api/rooms/${res.body._id}`, { name: 'Room One', capacity: 2 });
    expect(upd.status).toBe(200);
    expect(upd.body).toEqual({ ...res.body, name: 'Room One', capacity: 2 });
    const kept = await api('PUT', `/api/rooms/${res.body._id}`, { capacity: 3 });
    expect(kept.body).toMatchObject({ name: 'Room One', capacity: 3 });
    const entries = await t.deps.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, res.body._id))
      .orderBy(auditLog.createdAt);
    expect(entries.map((e) => [e.entityType, e.action, e.summary])).toEqual([
      ['room', 'create', `Created room Room 1 (${branchA.name})`],
      ['room', 'update', `Renamed room Room 1 (${branchA.name}) to Room One (${branchA.name})`],
      ['room', 'update', `Updated room Room One (${branchA.name})`],
    ]);
    expect(entries[2]!.changes).toEqual([{ field: 'capacity', before: 2, after: 3 }]);
  });

  it('refuses a duplicate name at the branch with 409 (any case), bad input with 400 and unknown ids with 404', async () => {
    const branch = await makeBranch(t.deps.db);
    await api('POST', '/api/rooms', { name: 'Suite', branchId: branch.id });
    const dup = await api('POST', '/api/rooms', { name: 'SUITE', branchId: branch.id });
    expect([dup.status, dup.body.message]).toEqual([409, 'A room with this name already exists at this branch.']);
    // The same name at another branch is another room.
    expect((await api('POST', '/api/rooms', { name: 'Suite', branchId: branchB.id })).status).toBe(201);
    const other = await api('POST', '/api/rooms', { name: 'Other', branchId: branch.id });
    const rename = await api('PUT', `/api/rooms/${other.body._id}`, { name: 'suite' });
    expect([rename.status, rename.body.message]).toEqual([409, 'A room with this name already exists at this branch.']);
    const cases: Array<[unknown, number, string]> = [
      [{ name: '', branchId: branch.id }, 400, 'Room name is required.'],
      [{ name: 'X', branchId: branch.id, capacity: 0 }, 400, 'Capacity must be a whole number from 1 to 100.'],
      [{ name: 'X', branchId: branch.id, capacity: 1.5 }, 400, 'Capacity must be a whole number from 1 to 100.'],
      [{ name: 'X', branchId: MISSING }, 404, 'Branch not found.'],
    ];
    for (const [body, status, message] of cases) {
      const res = await api('POST', '/api/rooms', body);
      expect({ body, status: res.status, message: res.body.message }).toEqual({ body, status, message });
    }
    expect((await api('PUT', `/api/rooms/${MISSING}`, { capacity: 2 })).body.message).toBe('Room not found.');
    expect((await api('DELETE', '/api/rooms/nope')).status).toBe(404);
  });

  it('deletes a room without appointments, and refuses one with appointments with 409 and a message', async () => {
    const free = await api('POST', '/api/rooms', { name: 'Free room', branchId: branchA.id });
    const del = await api('DELETE', `/api/rooms/${free.body._id}`);
    expect([del.status, del.body]).toEqual([200, { message: 'Room deleted successfully!' }]);
    expect(await t.deps.db.select().from(rooms).where(eq(rooms.id, free.body._id))).toHaveLength(0);

    const used = await api('POST', '/api/rooms', { name: 'Used room', branchId: branchA.id });
    const customer = await makeUser(t.deps.db, { role: 'customer' });
    const who = await makeUser(t.deps.db);
    const [p] = await t.deps.db.insert(practitioners).values({ userId: who.id }).returning();
    const treatment = await postTreatment(t, admin.token, treatmentValues('Room treatment'));
    const [booking] = await t.deps.db
      .insert(treatmentBookings)
      .values({
        userId: customer.id,
        treatmentId: treatment._id,
        treatmentName: treatment.treatmentName,
        maxSessions: 10,
        userType: 'local',
        paymentType: 'full',
        price: 100,
        currency: 'LKR',
        bookedOn: '2026-01-05',
      })
      .returning();
    const start = new Date('2026-01-05T10:00:00+05:30');
    await t.deps.db.insert(appointments).values({
      bookingId: booking!.id,
      customerId: customer.id,
      treatmentId: treatment._id,
      practitionerId: p!.id,
      branchId: branchA.id,
      roomId: used.body._id,
      startAt: start,
      endAt: new Date(start.getTime() + 3_600_000),
      blockedUntil: new Date(start.getTime() + 3_600_000),
      status: 'cancelled',
    });
    const refused = await api('DELETE', `/api/rooms/${used.body._id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      'This room has 1 appointment, so it cannot be deleted. Rename it instead, or move its appointments to another room first.',
    );
    expect(await t.deps.db.select().from(rooms).where(eq(rooms.id, used.body._id))).toHaveLength(1);
  });

  it('answers the same through tRPC', async () => {
    const client = t.trpc(admin.token);
    const room = await client.rooms.create.mutate({ name: 'Trpc room', branchId: branchB.id, capacity: 4 });
    expect(await client.rooms.get.query({ id: room._id })).toEqual(room);
    expect((await client.rooms.list.query({ branchId: branchB.id })).data).toContainEqual(room);
    expect(await client.rooms.update.mutate({ id: room._id, capacity: 5 })).toEqual({ ...room, capacity: 5 });
    expect(await client.rooms.remove.mutate({ id: room._id })).toEqual({ message: 'Room deleted successfully!' });
  });

  it('lets staff read and admins change; other roles get 403; a limited manager sees their branch only', async () => {
    const room = await api('POST', '/api/rooms', { name: 'Scoped', branchId: branchB.id });
    for (const [method, path, body] of [
      ['POST', '/api/rooms', { name: 'M', branchId: branchA.id }],
      ['PUT', `/api/rooms/${room.body._id}`, { capacity: 2 }],
      ['DELETE', `/api/rooms/${room.body._id}`, undefined],
    ] as const) {
      expect([method, (await api(method, path, body, manager.token)).status]).toEqual([method, 403]);
    }
    for (const role of ['student', 'customer', 'user'] as const) {
      const other = await t.userWithSession(role);
      expect((await api('GET', '/api/rooms', undefined, other.token)).status).toBe(403);
    }
    expect((await api('GET', `/api/rooms/${room.body._id}`, undefined, manager.token)).status).toBe(200);
    await t.trpc(admin.token).settings.updateAccess.mutate({ managersOwnBranchOnly: true });
    try {
      const list = await api('GET', '/api/rooms', undefined, manager.token);
      expect(list.body.data.every((r: { branch: { _id: string } }) => r.branch._id === branchA.id)).toBe(true);
      const hidden = await api('GET', `/api/rooms/${room.body._id}`, undefined, manager.token);
      expect([hidden.status, hidden.body.message]).toEqual([404, 'Room not found.']);
    } finally {
      await t.trpc(admin.token).settings.updateAccess.mutate({ managersOwnBranchOnly: false });
    }
  });
});

describe('treatment timing', () => {
  it('defaults to 60 minutes, no buffer and no room, and answers them with the treatment', async () => {
    const made = await postTreatment(t, admin.token, treatmentValues('Timing default'));
    expect(made).toMatchObject({ sessionMinutes: 60, bufferMinutes: 0, requiresRoom: false });
    const listed = (await api('GET', '/api/treatments')).body.find((x: { _id: string }) => x._id === made._id);
    expect(listed).toMatchObject({ sessionMinutes: 60, bufferMinutes: 0, requiresRoom: false });
    expect(await t.trpc(admin.token).treatments.get.query({ id: made._id })).toMatchObject({ sessionMinutes: 60 });
  });

  it('takes timing on create and update; an update without it keeps it; the audit shows it', async () => {
    const res = await api('POST', '/api/treatments', {
      ...treatmentValues('Timing set'),
      sessionMinutes: 45,
      bufferMinutes: 15,
      requiresRoom: true,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ sessionMinutes: 45, bufferMinutes: 15, requiresRoom: true });
    const same = await api('PUT', `/api/treatments/${res.body._id}`, {
      ...treatmentValues('Timing set'),
      maxSessions: 12,
    });
    expect(same.body).toMatchObject({ maxSessions: 12, sessionMinutes: 45, bufferMinutes: 15, requiresRoom: true });
    const changed = await t.trpc(admin.token).treatments.update.mutate({
      ...treatmentValues('Timing set'),
      id: res.body._id,
      sessionMinutes: 90,
      requiresRoom: false,
    });
    expect(changed).toMatchObject({ sessionMinutes: 90, bufferMinutes: 15, requiresRoom: false });
    const [last] = await t.deps.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, res.body._id))
      .orderBy(auditLog.createdAt)
      .then((rows) => rows.slice(-1));
    expect(last!.changes).toEqual(
      expect.arrayContaining([
        { field: 'sessionMinutes', before: 45, after: 90 },
        { field: 'requiresRoom', before: true, after: false },
      ]),
    );
  });

  it('refuses timing out of range with 400 and a clear message', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ sessionMinutes: 0 }, 'Session length must be a whole number of minutes from 5 to 720.'],
      [{ sessionMinutes: 30.5 }, 'Session length must be a whole number of minutes from 5 to 720.'],
      [{ sessionMinutes: '60' }, 'Session length must be a whole number of minutes from 5 to 720.'],
      [{ bufferMinutes: -5 }, 'Buffer must be a whole number of minutes from 0 to 240.'],
      [{ bufferMinutes: 241 }, 'Buffer must be a whole number of minutes from 0 to 240.'],
      [{ requiresRoom: 'yes' }, 'Requires room must be true or false.'],
    ];
    for (const [extra, message] of cases) {
      const res = await api('POST', '/api/treatments', {
        ...treatmentValues(`Bad timing ${message.length}`),
        ...extra,
      });
      expect({ extra, status: res.status, message: res.body.message }).toEqual({ extra, status: 400, message });
    }
  });
});
