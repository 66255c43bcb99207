import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z, type ZodType } from 'zod';
import { restSchemas } from '../../src/server/http/rest';
import { startTestApp, type TestApp } from '../helpers/app';
import { procedureList } from '../helpers/procedures';

/**
 * Property: whatever a caller sends to any tRPC procedure or documented /api path, the answer is
 * never a 5xx, and the server is still healthy afterwards (docs/security.md, "Input limits").
 * Inputs are generated from the routes' own zod schemas (as JSON Schema), mixed with hostile
 * values. FUZZ_RUNS sets the number of requests (`npm run fuzz` runs many more); FUZZ_SEED
 * replays a run (the seed is printed).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 2500);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2_147_483_647);

/**
 * Left out because they would end the fuzzer's own session, not because they could fail:
 * signing out (auth.logout, POST /api/users/logout). The superadmin's own id is never in the id
 * pool, so it cannot delete or demote itself either.
 */
const SKIPPED = new Set(['auth.logout', 'POST /api/users/logout']);

// ------------------------------------------------------------------ hostile values

/** Written into the JSON text as they are (numbers JSON.stringify would round or refuse). */
const RAW_NUMBERS = [
  '1e308',
  '-1e308',
  '9223372036854775808',
  '2147483648',
  '-2147483649',
  '1e-7',
  '123456789012345678901234567890',
];
const raw = (n: string) => `__RAW__${n}__`;

const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0001\u0002\u001f\u007f',
  'tab\there',
  'line\nbreak',
  '\ud800',
  '0000-01-01',
  '+275760-09-13',
  '9999-12-31',
  '1899-12-31',
  '2101-01-01',
  '2024-02-30',
  '0000-01-01T00:00:00Z',
  '+275760-09-13T00:00:00.000Z',
  '9999-12-31T23:59:59Z',
  '1e308',
  '9223372036854775808',
  '2147483648',
  '-1',
  '0.001',
  'NaN',
  'Infinity',
  'x'.repeat(10_000),
  "'; drop table users; --",
  '%_\\',
  '../../etc/passwd',
  'not-a-uuid',
  '00000000-0000-0000-0000-000000000000',
];
const HOSTILE_NUMBERS: unknown[] = [
  0,
  -1,
  0.001,
  1.005,
  2147483647,
  -2147483648,
  Number.MAX_SAFE_INTEGER,
  1e21,
  ...RAW_NUMBERS.map(raw),
];
const WRONG_TYPES: unknown[] = [null, true, false, [], [1, 'a'], {}, { nested: { deep: '\u0000' } }, ['\u0000']];

const idPool: string[] = [];
const emailPool: string[] = [];

const hostileString = fc.oneof(
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.uuid(),
);
const hostile: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.constantFrom(...HOSTILE_NUMBERS, ...WRONG_TYPES),
  fc.double(),
  fc.integer(),
);
const anId = () =>
  fc.oneof(
    { weight: 4, arbitrary: fc.nat().map((i) => idPool[i % idPool.length]!) },
    { weight: 1, arbitrary: fc.uuid() },
  );
const saneText = fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ]{0,15}$/);

const DATE_NAME = /date/i;
const MONEY_NAME = /fee|price|amount/i;
const INT_NAME = /index|page|limit|number|sessions|installments|weeks|days|months/i;

/** A value a screen could send for a field of this name (the schema cannot say: a preprocess step). */
function saneByName(key: string): fc.Arbitrary<unknown> {
  if (DATE_NAME.test(key))
    return fc.constantFrom('2025-01-31', '2024-02-29', '2025-06-01T10:00:00Z', '1900-01-01', '2100-12-31');
  if (MONEY_NAME.test(key)) return fc.constantFrom(0, 100, 1500.5, '2500', 9_999_999_999.99);
  if (INT_NAME.test(key)) return fc.integer({ min: 0, max: 6 });
  if (/email/i.test(key))
    return fc.oneof(
      fc.nat().map((i) => emailPool[i % emailPool.length]!),
      fc.emailAddress(),
    );
  if (/id$/i.test(key)) return anId();
  return saneText;
}

/** A value meant to break a field of this name. */
function hostileByName(key: string): fc.Arbitrary<unknown> {
  if (DATE_NAME.test(key))
    return fc.oneof(
      fc.constantFrom(
        '0000-01-01',
        '+275760-09-13',
        '9999-12-31',
        '1899-12-31',
        '2024-02-30',
        '0000-01-01T00:00:00Z',
        '+275760-09-13T00:00:00.000Z',
        '9999-12-31T23:59:59.999Z',
      ),
      hostile,
    );
  if (MONEY_NAME.test(key))
    return fc.oneof(
      fc.constantFrom('1e308', '9223372036854775808', '-1', '0.001', 10_000_000_000, ...HOSTILE_NUMBERS),
      hostile,
    );
  if (INT_NAME.test(key)) return fc.oneof(fc.constantFrom(...HOSTILE_NUMBERS, '2147483648', '1e308'), hostile);
  return hostile;
}

type Json = { [k: string]: unknown };

/**
 * Values valid for a JSON Schema (as zod writes it), except that an object gets, most of the
 * time, one field replaced by a hostile value: the rest valid, so the bad value gets past the
 * other checks and reaches the service and the database.
 */
function fromJsonSchema(js: Json, key: string, depth: number): fc.Arbitrary<unknown> {
  if (depth > 5) return hostile;
  if (Array.isArray(js.enum) && js.enum.length) return fc.constantFrom(...(js.enum as unknown[]));
  if ('const' in js) return fc.constant(js.const);
  const alts = (js.anyOf ?? js.oneOf) as Json[] | undefined;
  if (alts?.length) return fc.oneof(...alts.map((a) => fromJsonSchema(a, key, depth + 1)));
  if (Array.isArray(js.allOf)) {
    const merged: Json = { type: 'object', properties: {} };
    for (const part of js.allOf as Json[]) Object.assign(merged.properties as Json, (part.properties as Json) ?? {});
    return fromJsonSchema(merged, key, depth + 1);
  }
  switch (js.type) {
    case 'string':
      if (js.format === 'email') return saneByName('email');
      if (js.format === 'date-time') return saneByName('date');
      if (js.format === 'uuid') return anId();
      if (typeof js.pattern === 'string' && /\\d\{6\}/.test(js.pattern)) return fc.stringMatching(/^\d{6}$/);
      return saneByName(key);
    case 'number':
    case 'integer':
      return INT_NAME.test(key) || js.type === 'integer'
        ? fc.integer({ min: 0, max: 6 })
        : fc.oneof(fc.integer({ min: 0, max: 5000 }), saneByName(key));
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(js.items ? fromJsonSchema(js.items as Json, key, depth + 1) : saneText, { maxLength: 3 });
    case 'object': {
      const props = (js.properties as Record<string, Json> | undefined) ?? {};
      const keys = Object.keys(props);
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const k of keys) model[k] = fromJsonSchema(props[k]!, k, depth + 1);
      const required = new Set((js.required as string[] | undefined) ?? []);
      const record = fc.record(model, { requiredKeys: keys.filter((k) => required.has(k) || k === 'report') });
      if (!keys.length) return record;
      const mutation = fc.constantFrom(...keys).chain((k) => hostileByName(k).map((v) => [k, v] as const));
      return fc.tuple(record, fc.option(mutation, { freq: 5 })).map(([r, m]) => (m ? { ...r, [m[0]]: m[1] } : r));
    }
    default:
      return key ? fc.oneof(saneByName(key), hostileByName(key)) : hostile;
  }
}

function arbitraryFor(schema: ZodType | undefined): fc.Arbitrary<unknown> {
  if (!schema)
    return fc.oneof(
      fc.constant(undefined),
      fc.dictionary(
        fc.constantFrom(
          'id',
          'username',
          'fullName',
          'phone',
          'address',
          'email',
          'otp',
          'startDate',
          'minFee',
          'page',
        ),
        hostile,
        { maxKeys: 3 },
      ),
    );
  const js = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json;
  return fc.oneof({ weight: 12, arbitrary: fromJsonSchema(js, '', 0) }, { weight: 1, arbitrary: hostile });
}

const toJson = (v: unknown) => JSON.stringify(v ?? null).replace(/"__RAW__(.*?)__"/g, '$1');

function toQuery(v: unknown): string {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return '';
  const q = new URLSearchParams();
  for (const [k, x] of Object.entries(v)) {
    const s =
      typeof x === 'string'
        ? x.replace(/^__RAW__(.*)__$/, '$1')
        : x === undefined
          ? undefined
          : typeof x === 'object'
            ? toJson(x)
            : String(x);
    if (s !== undefined) q.append(k, s);
  }
  const text = q.toString();
  return text ? `?${text}` : '';
}

// ------------------------------------------------------------------ the run

interface Target {
  name: string;
  arbitrary: fc.Arbitrary<{ method: string; url: string; body?: string }>;
}

let t: TestApp;
let token: string;

/** Real rows, so that hostile values also reach the code past "not found". Deletes remove some: re-run now and then. */
async function seedRows(n: number) {
  const api = t.trpc(token);
  const branch = await api.branches.create.mutate({ name: `Fuzz branch ${n}`, location: 'Fuzz street' });
  const student = await t.userWithSession('student', { branchId: branch._id });
  const customer = await t.userWithSession('customer', { branchId: branch._id });
  const course = await api.courses.create.mutate({
    courseName: `Fuzz course ${n}`,
    duration: '3 months',
    totalFee: 30000,
    installments: 3,
    category: 'Fuzz',
    admissionFee: 1000,
  });
  const enrollment = await api.enrollments.create.mutate({
    email: student.email,
    courseId: course._id,
    paymentType: 'installment',
  });
  const treatment = await api.treatments.create.mutate({
    treatmentName: `Fuzz therapy ${n}`,
    localPrice: 9000,
    foreignPrice: 90,
    maxSessions: 6,
    installments: 3,
  });
  const booking = await api.bookings.book.mutate({
    treatmentId: treatment._id,
    email: customer.email,
    userType: 'local',
    paymentType: 'installment',
  });
  idPool.push(branch._id, student.id, customer.id, course._id, enrollment._id, treatment._id, booking._id);
  emailPool.push(student.email, customer.email);
}

beforeAll(async () => {
  t = await startTestApp();
  token = (await t.userWithSession('superadmin')).token;
  await seedRows(0);
}, 60_000);
afterAll(() => t?.close());

function targets(): Target[] {
  const out: Target[] = [];
  for (const { path, type, input: schema } of procedureList) {
    if (SKIPPED.has(path)) continue;
    const input = arbitraryFor(schema);
    out.push({
      name: path,
      arbitrary: input.map((v) =>
        type === 'query'
          ? {
              method: 'GET',
              url: `/trpc/${path}?input=${encodeURIComponent(toJson(v).replace(/[\uD800-\uDFFF]/g, '\uFFFD'))}`,
            }
          : { method: 'POST', url: `/trpc/${path}`, body: toJson(v) },
      ),
    });
  }
  for (const r of t.app.apiRoutes) {
    const key = `${r.method} ${r.url}`;
    if (SKIPPED.has(key) || r.url === '/api/health') continue;
    const schemas = restSchemas.get(key) ?? {};
    const names = [...r.url.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);
    const params = fc.tuple(
      ...names.map(() => fc.oneof({ weight: 3, arbitrary: anId() }, { weight: 1, arbitrary: hostileString })),
    );
    const query = schemas.query ? arbitraryFor(schemas.query) : fc.constant(undefined);
    const body = r.method === 'GET' ? fc.constant(undefined) : arbitraryFor(schemas.body);
    out.push({
      name: key,
      arbitrary: fc.tuple(params, query, body).map(([ps, q, b]) => {
        let i = 0;
        const path = r.url.replace(
          /:[A-Za-z]+/g,
          () => encodeURIComponent(String(ps[i++] ?? '').replace(/[\uD800-\uDFFF]/g, '\uFFFD')) || 'x',
        );
        return { method: r.method, url: path + toQuery(q), body: b === undefined ? undefined : toJson(b) };
      }),
    });
  }
  return out;
}

describe('no input makes the server fail', () => {
  it(`answers every generated request below 500 (${RUNS} requests, seed ${SEED})`, async () => {
    console.info(`fuzz: ${RUNS} requests, replay with FUZZ_SEED=${SEED}`);
    const all = targets();
    expect(all.length).toBeGreaterThan(100);
    const failures = new Map<string, string>();
    let sent = 0;
    const request = fc
      .tuple(fc.constantFrom(...all), fc.integer({ min: 0, max: 9 }))
      .chain(([target, who]) => target.arbitrary.map((req) => ({ target: target.name, anonymous: who === 0, ...req })));
    await fc.assert(
      fc.asyncProperty(request, async (req) => {
        if (++sent % 250 === 0) await seedRows(sent);
        const headers: Record<string, string> = req.anonymous ? {} : { authorization: `Bearer ${token}` };
        if (req.body !== undefined) headers['content-type'] = 'application/json';
        const what = `${req.method} ${req.url.slice(0, 300)} ${req.body?.slice(0, 300) ?? ''}`;
        try {
          const res = await fetch(t.baseUrl + req.url, { method: req.method, headers, body: req.body });
          // Read the whole body: a 200 that is cut off mid-stream fails here too.
          const text = await res.text();
          if (res.status >= 500 && !failures.has(req.target))
            failures.set(req.target, `${res.status} ${what} -> ${text.slice(0, 200)}`);
        } catch (err) {
          if (!failures.has(req.target))
            failures.set(req.target, `connection failed (${String((err as Error).cause ?? err)}) ${what}`);
        }
        return true;
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    expect([...failures.values()]).toEqual([]);
    const health = await t.api('GET', '/api/health');
    expect(health).toMatchObject({ status: 200, body: { status: 'ok' } });
  }, 600_000);
});
