import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../src/server/db/schema';
import { startTestApp, type TestApp } from '../helpers/app';

/**
 * The audit log's time filter (docs/audit.md#reading-it): a day is that whole day in TIME_ZONE
 * (Asia/Colombo, +05:30, in the tests), a date-time is that instant, for `from` and `to` alike,
 * over REST and tRPC.
 */
let t: TestApp;
let admin: Awaited<ReturnType<TestApp['userWithSession']>>;

const instants = [
  '2026-12-01T18:29:00Z', // 2026-12-01 23:59 in Colombo
  '2026-12-01T18:31:00Z', // 2026-12-02 00:01 in Colombo
  '2026-12-02T17:19:08Z',
  '2026-12-02T17:19:09Z',
  '2026-12-03T10:00:00Z',
];

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.userWithSession('admin');
  await t.deps.db.insert(auditLog).values(
    instants.map((at, i) => ({
      createdAt: new Date(at),
      actorId: admin.id,
      actorUsername: admin.username,
      actorRole: 'admin',
      action: 'create',
      entityType: 'receipt',
      entityId: `b${i}`,
      summary: `Bounded entry ${i}`,
    })),
  );
});
afterAll(() => t.close());

const list = (query: string) => t.api('GET', `/api/audit?entityType=receipt&${query}`, { token: admin.token });
const ids = (body: { data: Array<{ entityId: string }> }) => body.data.map((e) => e.entityId).sort();

describe('audit from and to', () => {
  it('take date-times with Z or an offset: that instant, both bounds included', async () => {
    const res = await list('from=2026-12-02T17:19:08Z&to=2026-12-02T17:19:09Z');
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual(['b2', 'b3']);
    expect(ids((await list('from=2026-12-02T17:19:08.001Z')).body)).toEqual(['b3', 'b4']);
    expect(ids((await list('to=2026-12-02T22:49:08%2B05:30')).body)).toEqual(['b0', 'b1', 'b2']);
    // The createdAt an entry answers can be handed back as a bound.
    const newest = (await list('limit=1')).body.data[0].createdAt as string;
    expect(ids((await list(`from=${newest}`)).body)).toEqual(['b4']);
  });

  it('keep a day as that whole day in TIME_ZONE, and mix with a date-time', async () => {
    expect(ids((await list('from=2026-12-02&to=2026-12-02')).body)).toEqual(['b1', 'b2', 'b3']);
    expect(ids((await list('to=2026-12-01')).body)).toEqual(['b0']);
    expect(ids((await list('from=2026-12-02&to=2026-12-02T17:19:08Z')).body)).toEqual(['b1', 'b2']);
  });

  it('are the same over tRPC', async () => {
    const page = await t.trpc(admin.token).audit.list.query({
      entityType: 'receipt',
      from: '2026-12-02T17:19:08Z',
      to: '2026-12-02T17:19:09Z',
    });
    expect(page.items.map((e) => e.entityId).sort()).toEqual(['b2', 'b3']);
  });

  it('refuse what is neither, or out of order, with 400 and a message naming both forms', async () => {
    const bad = await list('from=2026-12-02T17:19:08');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(
      'from must be a date (YYYY-MM-DD) or an ISO date-time with an offset or Z (2026-12-01T17:19:08Z).',
    );
    expect((await list('to=yesterday')).status).toBe(400);
    const backwards = await list('from=2026-12-03T00:00:00Z&to=2026-12-02T00:00:00Z');
    expect(backwards.status).toBe(400);
    expect(backwards.body.message).toBe('from must be on or before to.');
  });
});
