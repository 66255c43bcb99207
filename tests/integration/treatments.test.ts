import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { treatmentBookings } from '../../src/server/db/schema';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeUser } from '../helpers/factories';

let t: TestApp;
let admin: string;
let manager: string;
beforeAll(async () => {
  t = await startTestApp();
  admin = (await t.userWithSession('admin')).token;
  manager = (await t.userWithSession('manager')).token;
});
afterAll(() => t.close());

const valid = (o: Record<string, unknown> = {}) => ({
  treatmentName: `Massage ${Math.random().toString(36).slice(2, 8)}`,
  localPrice: 15000,
  foreignPrice: 50.5,
  maxSessions: 6,
  installments: 3,
  duration: { weeks: 2, days: 0, months: 1 },
  ...o,
});

describe('creating a treatment', () => {
  it('answers the treatment with the documented field names, the name trimmed', async () => {
    const res = await t.api('POST', '/api/treatments', {
      token: admin,
      body: valid({ treatmentName: '  Ayurveda Oil Therapy  ' }),
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      treatmentName: 'Ayurveda Oil Therapy',
      localPrice: 15000,
      foreignPrice: 50.5,
      maxSessions: 6,
      installments: 3,
      duration: { weeks: 2, days: 0, months: 1 },
    });
    expect(res.body._id).toMatch(/^[0-9a-f-]{36}$/);
    const list = await t.api('GET', '/api/treatments', { token: manager });
    expect(list.status).toBe(200);
    expect(Array.isArray(list.body)).toBe(true);
    expect(list.body.map((x: { _id: string }) => x._id)).toContain(res.body._id);
  });

  it('defaults missing or blank duration parts to 0', async () => {
    const res = await t.api('POST', '/api/treatments', {
      token: admin,
      body: valid({ duration: { weeks: '', days: 3 } }),
    });
    expect(res.status).toBe(201);
    expect(res.body.duration).toEqual({ weeks: 0, days: 3, months: 0 });
    const none = await t.api('POST', '/api/treatments', { token: admin, body: valid({ duration: undefined }) });
    expect(none.body.duration).toEqual({ weeks: 0, days: 0, months: 0 });
  });

  it('refuses missing fields, non-numbers and out-of-range numbers with the screen messages', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ treatmentName: '   ' }, 'Please fill all the required fields.'],
      [{ localPrice: undefined }, 'Please fill all the required fields.'],
      [{ installments: '' }, 'Please fill all the required fields.'],
      [{ foreignPrice: 'abc' }, 'All numeric fields must contain valid numbers'],
      [{ maxSessions: '6x' }, 'All numeric fields must contain valid numbers'],
      [{ localPrice: -1 }, 'Prices must be positive and sessions/installments must be greater than zero'],
      [{ maxSessions: 0 }, 'Prices must be positive and sessions/installments must be greater than zero'],
      [{ installments: -2 }, 'Prices must be positive and sessions/installments must be greater than zero'],
      [{ localPrice: 10.555 }, 'Prices can have at most 2 decimals.'],
      [{ maxSessions: 2.5 }, 'Sessions and installments must be whole numbers.'],
      [{ duration: { weeks: -1 } }, 'Duration cannot be negative.'],
    ];
    for (const [override, message] of cases) {
      const res = await t.api('POST', '/api/treatments', { token: admin, body: valid(override) });
      expect({ override, status: res.status, message: res.body.message }).toEqual({ override, status: 400, message });
    }
  });

  it('checks required fields before numbers, as the form does', async () => {
    const res = await t.api('POST', '/api/treatments', {
      token: admin,
      body: valid({ localPrice: 'abc', treatmentName: '' }),
    });
    expect(res.body.message).toBe('Please fill all the required fields.');
  });

  it('accepts a price of 0 and numeric strings', async () => {
    const res = await t.api('POST', '/api/treatments', {
      token: admin,
      body: valid({ localPrice: '0', foreignPrice: '12.30', maxSessions: '4' }),
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ localPrice: 0, foreignPrice: 12.3, maxSessions: 4 });
  });

  it('refuses a name that exists in another case or with spaces: 409', async () => {
    await t.api('POST', '/api/treatments', { token: admin, body: valid({ treatmentName: 'Foot Reflexology' }) });
    const dup = await t.api('POST', '/api/treatments', {
      token: admin,
      body: valid({ treatmentName: '  foot REFLEXOLOGY ' }),
    });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe('A treatment with this name already exists');
    await expect(
      t.trpc(admin).treatments.create.mutate(valid({ treatmentName: 'FOOT reflexology' }) as never),
    ).rejects.toMatchObject({
      message: 'A treatment with this name already exists',
    });
  });
});

describe('editing and deleting', () => {
  it('updates every field, keeps its own name free, refuses another treatment name', async () => {
    const a = (await t.api('POST', '/api/treatments', { token: admin, body: valid({ treatmentName: 'Steam Bath' }) }))
      .body;
    const b = (await t.api('POST', '/api/treatments', { token: admin, body: valid({ treatmentName: 'Herbal Wrap' }) }))
      .body;
    const upd = await t.api('PUT', `/api/treatments/${a._id}`, {
      token: admin,
      body: {
        treatmentName: 'steam bath',
        localPrice: 9999.99,
        foreignPrice: 31,
        maxSessions: 10,
        installments: 2,
        duration: { weeks: 1, days: 2, months: 0 },
      },
    });
    expect(upd.status).toBe(200);
    expect(upd.body).toMatchObject({
      _id: a._id,
      treatmentName: 'steam bath',
      localPrice: 9999.99,
      maxSessions: 10,
      duration: { weeks: 1, days: 2, months: 0 },
    });
    const clash = await t.api('PUT', `/api/treatments/${a._id}`, {
      token: admin,
      body: valid({ treatmentName: 'HERBAL WRAP' }),
    });
    expect(clash.status).toBe(409);
    const missing = await t.api('PUT', `/api/treatments/${b._id}`, { token: admin, body: valid({ maxSessions: '' }) });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('Please fill all required fields');
  });

  it('answers 404 for an unknown or malformed id', async () => {
    expect(
      (await t.api('PUT', '/api/treatments/00000000-0000-4000-8000-000000000000', { token: admin, body: valid() }))
        .status,
    ).toBe(404);
    expect((await t.api('DELETE', '/api/treatments/not-an-id', { token: admin })).status).toBe(404);
  });

  it('deletes a treatment but keeps its bookings readable under its name', async () => {
    const tr = (
      await t.api('POST', '/api/treatments', {
        token: admin,
        body: valid({ treatmentName: 'Cupping', maxSessions: 5 }),
      })
    ).body;
    const customer = await makeUser(t.deps.db, { role: 'customer' });
    const booking = (
      await t.api('POST', '/api/bookings/book', {
        token: admin,
        body: { userId: customer.id, treatmentId: tr._id, userType: 'local', paymentType: 'full' },
      })
    ).body;
    await t.api('PUT', `/api/treatments/${tr._id}`, {
      token: admin,
      body: valid({ treatmentName: 'Cupping Therapy', maxSessions: 9 }),
    });
    const del = await t.api('DELETE', `/api/treatments/${tr._id}`, { token: admin });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ message: 'Treatment deleted successfully!' });
    const after = await t.api('GET', `/api/bookings/booking/${booking._id}`, { token: manager });
    expect(after.status).toBe(200);
    // The latest name, and the sessions that were sold.
    expect(after.body.treatmentId).toEqual({ _id: null, treatmentName: 'Cupping Therapy', maxSessions: 5 });
    const [row] = await t.deps.db.select().from(treatmentBookings).where(eq(treatmentBookings.id, booking._id));
    expect(row?.treatmentId).toBeNull();
    const again = await t.api('DELETE', `/api/treatments/${tr._id}`, { token: admin });
    expect(again.status).toBe(404);
  });
});

describe('listing in tRPC', () => {
  it('pages and searches on the server', async () => {
    for (const n of ['Zeta Alpha', 'Zeta Beta', 'Zeta Gamma'])
      await t.api('POST', '/api/treatments', { token: admin, body: valid({ treatmentName: n }) });
    const page = await t
      .trpc(manager)
      .treatments.list.query({ search: 'zeta', pageSize: 2, sortBy: 'treatmentName', sortDir: 'asc' });
    expect(page.total).toBe(3);
    expect(page.items.map((x) => x.treatmentName)).toEqual(['Zeta Alpha', 'Zeta Beta']);
    const p2 = await t
      .trpc(manager)
      .treatments.list.query({ search: 'ZETA', pageSize: 2, page: 2, sortBy: 'treatmentName', sortDir: 'asc' });
    expect(p2.items.map((x) => x.treatmentName)).toEqual(['Zeta Gamma']);
  });
});

describe('roles', () => {
  it('lets staff read and only admins change the price list', async () => {
    const superadmin = (await t.userWithSession('superadmin')).token;
    const customer = (await t.userWithSession('customer')).token;
    expect((await t.api('GET', '/api/treatments', { token: manager })).status).toBe(200);
    expect((await t.api('GET', '/api/treatments', { token: customer })).status).toBe(403);
    expect((await t.api('GET', '/api/treatments')).status).toBe(401);
    expect((await t.api('POST', '/api/treatments', { token: manager, body: valid() })).status).toBe(403);
    expect((await t.api('POST', '/api/treatments', { token: superadmin, body: valid() })).status).toBe(201);
    const tr = (await t.api('POST', '/api/treatments', { token: admin, body: valid() })).body;
    expect((await t.api('PUT', `/api/treatments/${tr._id}`, { token: manager, body: valid() })).status).toBe(403);
    expect((await t.api('DELETE', `/api/treatments/${tr._id}`, { token: manager })).status).toBe(403);
    await expect(t.trpc(manager).treatments.delete.mutate({ id: tr._id })).rejects.toMatchObject({
      data: { code: 'FORBIDDEN' },
    });
    expect((await t.api('DELETE', `/api/treatments/${tr._id}`, { token: superadmin })).status).toBe(200);
  });
});
