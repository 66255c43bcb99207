import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
let admin: { token: string };
let manager: { token: string };

const course = (o: Record<string, unknown> = {}) => ({
  courseName: 'Diploma in Counselling',
  duration: '6 months',
  totalFee: 120000,
  installments: 3,
  category: 'Psychology',
  admissionFee: 5000,
  currency: 'LKR',
  ...o,
});

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.userWithSession('admin');
  manager = await t.userWithSession('manager');
});
afterAll(() => t.close());

describe('course validation', () => {
  it.each(['courseName', 'duration', 'totalFee', 'installments', 'category', 'admissionFee'])(
    'refuses a course without %s with the required-fields message',
    async (field) => {
      const body: Record<string, unknown> = course();
      delete body[field];
      const res = await t.api('POST', '/api/course', { token: admin.token, body });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Please fill all the required fields.');
      const blank = await t.api('POST', '/api/course', { token: admin.token, body: { ...course(), [field]: '  ' } });
      expect(blank.status).toBe(400);
      expect(blank.body.message).toBe('Please fill all the required fields.');
    },
  );

  it('refuses negative fees, fractional or zero installments and fees with more than two decimals', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ totalFee: -1 }, 'Total fee cannot be negative.'],
      [{ admissionFee: -0.5 }, 'Admission fee cannot be negative.'],
      [{ installments: 0 }, 'Installments must be a whole number of at least 1.'],
      [{ installments: 2.5 }, 'Installments must be a whole number of at least 1.'],
      [{ totalFee: 100.005 }, 'Total fee can have at most two decimals.'],
      [{ totalFee: 'abc' }, 'Fees and installments must be valid numbers.'],
    ];
    for (const [patch, message] of cases) {
      const res = await t.api('POST', '/api/course', { token: admin.token, body: course(patch) });
      expect(res.status, JSON.stringify(patch)).toBe(400);
      expect(res.body.message).toBe(message);
    }
  });

  it('accepts numbers sent as strings by the old form, and a zero admission fee', async () => {
    const res = await t.api('POST', '/api/course', {
      token: admin.token,
      body: course({ totalFee: '75000.50', installments: '2', admissionFee: '0' }),
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ totalFee: 75000.5, installments: 2, admissionFee: 0 });
  });
});

describe('course CRUD over REST', () => {
  it('creates, reads, updates and deletes with docs/product.md#records-and-their-fields field names', async () => {
    const created = await t.api('POST', '/api/course', {
      token: manager.token,
      body: course({ description: 'Evening classes' }),
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      _id: expect.any(String),
      courseName: 'Diploma in Counselling',
      duration: '6 months',
      totalFee: 120000,
      installments: 3,
      category: 'Psychology',
      admissionFee: 5000,
      currency: 'LKR',
      description: 'Evening classes',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const id = created.body._id as string;

    const got = await t.api('GET', `/api/course/${id}`, { token: manager.token });
    expect(got.status).toBe(200);
    expect(got.body.courseName).toBe('Diploma in Counselling');

    const list = await t.api('GET', '/api/course', { token: manager.token });
    expect(Array.isArray(list.body)).toBe(true);
    expect(list.body.map((c: { _id: string }) => c._id)).toContain(id);

    // The old inline edit sends the whole row back, including fields the server owns.
    const updated = await t.api('PUT', `/api/course/${id}`, {
      token: manager.token,
      body: { ...created.body, totalFee: 130000.25, courseName: 'Diploma in Counselling (2025)' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      _id: id,
      totalFee: 130000.25,
      courseName: 'Diploma in Counselling (2025)',
      installments: 3,
    });

    const partial = await t.api('PUT', `/api/course/${id}`, { token: manager.token, body: { duration: '7 months' } });
    expect(partial.body).toMatchObject({ duration: '7 months', totalFee: 130000.25 });

    const bad = await t.api('PUT', `/api/course/${id}`, { token: manager.token, body: { courseName: '' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Please fill all the required fields.');

    const del = await t.api('DELETE', `/api/course/${id}`, { token: manager.token });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ message: 'Course deleted successfully!' });
    expect((await t.api('GET', `/api/course/${id}`, { token: manager.token })).status).toBe(404);
    expect((await t.api('DELETE', `/api/course/${id}`, { token: manager.token })).status).toBe(404);
  });

  it('answers 404 for unknown and malformed ids', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      const res = await t.api('GET', `/api/course/${id}`, { token: admin.token });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Course not found.');
      expect((await t.api('PUT', `/api/course/${id}`, { token: admin.token, body: { duration: 'x' } })).status).toBe(
        404,
      );
    }
  });
});

describe('GET /api/course/filtered', () => {
  it('filters by category, fee range, creation dates and search, answering an array', async () => {
    const tag = `F${Date.now()}`;
    const a = (
      await t.api('POST', '/api/course', {
        token: admin.token,
        body: course({ courseName: `${tag} Yoga Basics`, category: `${tag}-Wellness`, totalFee: 20000 }),
      })
    ).body;
    const b = (
      await t.api('POST', '/api/course', {
        token: admin.token,
        body: course({ courseName: `${tag} Advanced Yoga`, category: `${tag}-Wellness`, totalFee: 60000 }),
      })
    ).body;
    await t.api('POST', '/api/course', {
      token: admin.token,
      body: course({ courseName: `${tag} Nursing`, category: `${tag}-Health`, totalFee: 60000 }),
    });

    const byCategory = await t.api('GET', `/api/course/filtered?category=${tag}-wellness`, { token: admin.token });
    expect(byCategory.status).toBe(200);
    expect(byCategory.body.map((c: { _id: string }) => c._id).sort()).toEqual([a._id, b._id].sort());

    const byFee = await t.api('GET', `/api/course/filtered?category=${tag}-Wellness&minFee=30000&maxFee=70000`, {
      token: admin.token,
    });
    expect(byFee.body.map((c: { _id: string }) => c._id)).toEqual([b._id]);

    const bySearch = await t.api('GET', `/api/course/filtered?search=${tag}%20advanced`, { token: admin.token });
    expect(bySearch.body.map((c: { _id: string }) => c._id)).toEqual([b._id]);

    const today = new Date().toISOString().slice(0, 10);
    const byDate = await t.api('GET', `/api/course/filtered?search=${tag}&startDate=${today}&endDate=${today}`, {
      token: admin.token,
    });
    expect(byDate.body).toHaveLength(3);
    const past = await t.api('GET', `/api/course/filtered?search=${tag}&endDate=2000-01-01`, { token: admin.token });
    expect(past.body).toEqual([]);

    const invalid = await t.api('GET', '/api/course/filtered?minFee=abc', { token: admin.token });
    expect(invalid.status).toBe(400);
    const inverted = await t.api('GET', '/api/course/filtered?minFee=10&maxFee=5', { token: admin.token });
    expect(inverted.status).toBe(400);
  });
});

describe('tRPC courses', () => {
  it('pages, sorts, searches and filters by category on the server', async () => {
    const tag = `P${Date.now()}`;
    for (let i = 0; i < 5; i++) {
      await t.trpc(admin.token).courses.create.mutate(
        course({
          courseName: `${tag} Course ${i}`,
          category: i < 3 ? `${tag}-A` : `${tag}-B`,
          totalFee: 1000 * (i + 1),
        }),
      );
    }
    const page1 = await t
      .trpc(admin.token)
      .courses.list.query({ search: tag, pageSize: 2, page: 1, sortBy: 'totalFee', sortDir: 'asc' });
    expect(page1.total).toBe(5);
    expect(page1.items.map((c) => c.totalFee)).toEqual([1000, 2000]);
    const page3 = await t
      .trpc(admin.token)
      .courses.list.query({ search: tag, pageSize: 2, page: 3, sortBy: 'totalFee', sortDir: 'asc' });
    expect(page3.items.map((c) => c.totalFee)).toEqual([5000]);
    const catB = await t.trpc(admin.token).courses.list.query({ category: `${tag}-B` });
    expect(catB.total).toBe(2);
    const categories = await t.trpc(admin.token).courses.categories.query();
    expect(categories).toEqual(expect.arrayContaining([`${tag}-A`, `${tag}-B`]));
  });

  it('answers validation failures with the documented message', async () => {
    await expect(t.trpc(admin.token).courses.create.mutate(course({ category: '' }) as never)).rejects.toThrow(
      'Please fill all the required fields.',
    );
  });
});

describe('course roles', () => {
  it('lets every staff role manage courses and refuses other roles and anonymous callers', async () => {
    for (const role of ['manager', 'admin', 'superadmin'] as const) {
      const u = await t.userWithSession(role);
      const res = await t.api('POST', '/api/course', { token: u.token, body: course({ courseName: `By ${role}` }) });
      expect(res.status, role).toBe(201);
      expect((await t.api('DELETE', `/api/course/${res.body._id}`, { token: u.token })).status).toBe(200);
      expect((await t.trpc(u.token).courses.list.query({})).total).toBeGreaterThanOrEqual(0);
    }
    for (const role of ['user', 'student', 'customer'] as const) {
      const u = await t.userWithSession(role);
      expect((await t.api('GET', '/api/course', { token: u.token })).status).toBe(403);
      const post = await t.api('POST', '/api/course', { token: u.token, body: course() });
      expect(post.status).toBe(403);
      expect(post.body.message).toBe('You do not have permission to access this page.');
      await expect(t.trpc(u.token).courses.create.mutate(course() as never)).rejects.toMatchObject({
        data: { code: 'FORBIDDEN' },
      });
    }
    expect((await t.api('GET', '/api/course/filtered')).status).toBe(401);
  });
});
