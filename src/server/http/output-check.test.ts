import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z, ZodError, type ZodType } from 'zod';
import * as audit from '../../shared/schemas/audit.output';
import * as auth from '../../shared/schemas/auth.output';
import * as bookings from '../../shared/schemas/bookings.output';
import * as branches from '../../shared/schemas/branches.output';
import * as courses from '../../shared/schemas/courses.output';
import * as enrollments from '../../shared/schemas/enrollments.output';
import * as installments from '../../shared/schemas/installments.output';
import * as output from '../../shared/schemas/output';
import * as payments from '../../shared/schemas/payments.output';
import * as reports from '../../shared/schemas/reports.output';
import * as settings from '../../shared/schemas/settings.output';
import * as treatments from '../../shared/schemas/treatments.output';
import * as users from '../../shared/schemas/users.output';
import { fastParse, takesFast } from './output-check';

/** Every output contract the server declares, by its exported name. */
const contracts: Array<[string, ZodType]> = Object.entries<unknown>({
  ...audit,
  ...auth,
  ...bookings,
  ...branches,
  ...courses,
  ...enrollments,
  ...installments,
  ...output,
  ...payments,
  ...reports,
  ...settings,
  ...treatments,
  ...users,
}).flatMap(([name, value]) => (value instanceof z.ZodType ? [[name, value] as [string, ZodType]] : []));

/** What zod's parse gives: the answer, or its error's issues. */
function byZod(schema: ZodType, value: unknown) {
  const r = schema.safeParse(value);
  return r.success ? { answer: r.data } : { issues: r.error.issues };
}
function byCompiled(schema: ZodType, value: unknown) {
  try {
    return { answer: fastParse(schema, value) };
  } catch (err) {
    if (err instanceof ZodError) return { issues: err.issues };
    throw err;
  }
}

// zod keeps its definitions out of its published types.
type AnyDef = Record<string, unknown> & { type: string };
const defOf = (s: ZodType) => (s as unknown as { _zod: { def: AnyDef } })._zod.def;

/**
 * Values for `schema`: with `valid`, values its contract takes; without, values near them that it
 * may refuse (a wrong kind, an impossible day, an unsafe whole number, a key missing or one too
 * many), so both sides of every check are tried.
 */
function valuesFor(schema: ZodType, valid: boolean): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  const wrong = fc.constantFrom<unknown>(undefined, null, 0, '', 'x', true, [], {}, Number.NaN, -0);
  // A near miss now and then: most values are valid, so a wrong one is usually alone in its answer.
  const or = (good: fc.Arbitrary<unknown>, ...bad: Array<fc.Arbitrary<unknown>>) =>
    valid
      ? good
      : fc.oneof({ arbitrary: good, weight: 12 }, ...bad.map((b) => ({ arbitrary: b, weight: 1 })), {
          arbitrary: wrong,
          weight: 1,
        });
  const oneOf = output.oneOfValues.get(schema);
  if (oneOf) return or(fc.constantFrom(...oneOf), fc.string());
  switch (def.type) {
    case 'string': {
      const instant = fc
        .date({ min: new Date('1900-01-01'), max: new Date('2199-12-31'), noInvalidDate: true })
        .map((d) => d.toISOString());
      if (def.format === 'datetime') {
        return or(
          instant,
          instant.map((s) => s.replace('Z', '+05:30')),
          instant.map((s) => s.slice(0, 19)),
          fc.constantFrom('2026-02-30T00:00:00.000Z', '2026-11-29 10:00:00Z'),
        );
      }
      if (def.format === 'date') {
        return or(
          instant.map((s) => s.slice(0, 10)),
          fc.constantFrom('2026-02-29', '2028-02-29', '2026-13-01', '2026-1-01', '2026-11-29T00:00:00.000Z'),
        );
      }
      return or(fc.oneof(fc.string(), fc.constantFrom('"', '\\', '\u0000', '__proto__', 'é ✓')), fc.integer());
    }
    case 'number': {
      const good = def.checks ? fc.nat({ max: 1e9 }) : fc.double({ noNaN: true, noDefaultInfinity: true });
      return or(
        good,
        fc.constantFrom(-1, 0.5, 2 ** 53, -(2 ** 53), Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY),
        fc.double(),
      );
    }
    case 'boolean':
      return or(fc.boolean(), fc.constantFrom('true', 1));
    case 'null':
      return or(fc.constant(null));
    case 'undefined':
      return or(fc.constant(undefined));
    case 'enum':
    case 'literal': {
      const values = [...(schema as unknown as { _zod: { values: Set<unknown> } })._zod.values];
      return or(fc.constantFrom(...values), fc.string());
    }
    case 'nullable':
      return fc.oneof(fc.constant(null), valuesFor(def.innerType as ZodType, valid));
    case 'optional':
      return fc.oneof(fc.constant(undefined), valuesFor(def.innerType as ZodType, valid));
    case 'array':
      return or(fc.array(valuesFor(def.element as ZodType, valid), { maxLength: 3 }), fc.constant({ 0: 'a' }));
    case 'union':
      return fc.oneof(...(def.options as ZodType[]).map((o) => valuesFor(o, valid)));
    case 'object':
      return objectValues(def.shape as Record<string, ZodType>, valid);
    case 'lazy':
      // z.json(): any JSON value.
      return fc.jsonValue();
    default:
      throw new Error(`No values written for zod's "${def.type}" yet: add them here.`);
  }
}

function objectValues(shape: Record<string, ZodType>, valid: boolean): fc.Arbitrary<unknown> {
  const keys = Object.keys(shape);
  // An optional field is sometimes absent, sometimes present as undefined, sometimes set.
  const fields = Object.fromEntries(
    keys.map((k) => [
      k,
      defOf(shape[k]!).type === 'optional' ? fc.option(valuesFor(shape[k]!, valid)) : valuesFor(shape[k]!, valid),
    ]),
  );
  const record = fc.record(fields, { requiredKeys: keys.filter((k) => defOf(shape[k]!).type !== 'optional') });
  // Invalid values may also overwrite one of the contract's own keys.
  const extraKeys = ['passwordHash', 'secret', 'constructor', ...(valid ? [] : keys.slice(0, 1))];
  const extra = fc.dictionary(fc.constantFrom(...extraKeys), fc.string(), { maxKeys: 2 });
  // A service's object with keys beyond the contract (valid: the contract drops them), in any order.
  const withExtra = fc
    .tuple(record, extra, fc.boolean())
    .map(([r, e, first]) => (first ? { ...e, ...r } : { ...r, ...e }));
  if (valid) return fc.oneof(record, withExtra);
  const missing = fc.tuple(record, fc.constantFrom(...(keys.length ? keys : ['a']))).map(([r, k]) => {
    const copy: Record<string, unknown> = { ...(r as object) };
    delete copy[k];
    return copy;
  });
  return fc.oneof(
    { arbitrary: record, weight: 12 },
    { arbitrary: withExtra, weight: 3 },
    { arbitrary: missing, weight: 2 },
    { arbitrary: fc.constant([]), weight: 1 },
  );
}

/** Every place in a value where one of its parts sits: an object's key or an array's index. */
function slotsOf(value: unknown, out: Array<[Record<string, unknown>, string]> = []) {
  if (typeof value === 'object' && value !== null) {
    for (const k of Object.keys(value)) {
      out.push([value as Record<string, unknown>, k]);
      slotsOf((value as Record<string, unknown>)[k], out);
    }
  }
  return out;
}

/**
 * A valid value with exactly one thing wrong, anywhere in it, however deep: one part replaced by a
 * value of another kind, or one key removed, or one key added (which the contract drops).
 */
function nearMisses(schema: ZodType): fc.Arbitrary<unknown> {
  const wrong = fc.constantFrom<unknown>(undefined, null, 0, -1, 0.5, '', 'x', true, [], {}, Number.NaN, 2 ** 53);
  return fc
    .tuple(valuesFor(schema, true), fc.nat(), fc.constantFrom('replace', 'remove', 'add'), wrong)
    .map(([valid, at, change, other]) => {
      // structuredClone keeps keys whose value is undefined, NaN and -0, as the generated values need.
      const value = structuredClone(valid);
      const slots = slotsOf(value);
      if (!slots.length) return other;
      const [holder, key] = slots[at % slots.length]!;
      if (change === 'remove' && !Array.isArray(holder)) delete holder[key];
      else if (change === 'add' && !Array.isArray(holder)) holder.passwordHash = other;
      else holder[key] = other;
      return value;
    });
}

describe('the compiled output check', () => {
  it('covers every output contract', () => {
    expect(contracts.length).toBeGreaterThan(40);
  });

  it.each(contracts)('answers as zod does for %s, whatever it is given', (_name, schema) => {
    fc.assert(
      fc.property(fc.oneof(valuesFor(schema, false), nearMisses(schema)), (value) => {
        const zod = byZod(schema, value);
        const compiled = byCompiled(schema, value);
        expect(compiled).toEqual(zod);
        // The same keys in the same order: the same JSON text is sent.
        if ('answer' in zod) expect(JSON.stringify(compiled.answer)).toBe(JSON.stringify(zod.answer));
      }),
      { numRuns: 300 },
    );
  });

  it.each(contracts)('takes a valid answer for %s without zod', (_name, schema) => {
    fc.assert(
      fc.property(valuesFor(schema, true), (value) => {
        expect(schema.safeParse(value).success).toBe(true);
        expect(takesFast(schema, value)).toBe(true);
        expect(JSON.stringify(fastParse(schema, value))).toBe(JSON.stringify(schema.parse(value)));
      }),
      { numRuns: 100 },
    );
  });

  it('drops what the contract leaves out and keeps its order', () => {
    const page = {
      nextCursor: null,
      pageSize: 25,
      page: 1,
      total: 1,
      items: [{ passwordHash: 'h', ...userRow }],
    };
    const answer = fastParse(users.ZUserPage, page);
    expect(Object.keys(answer)).toEqual(['items', 'total', 'page', 'pageSize', 'nextCursor']);
    expect(answer.items[0]).not.toHaveProperty('passwordHash');
    expect(Object.keys(answer.items[0]!)).toEqual(Object.keys(users.ZUser.shape));
  });

  it('refuses an absent key that zod requires, even when its schema takes undefined', () => {
    const schema = z.object({ a: z.string().or(z.undefined()), b: z.string() });
    expect(byCompiled(schema, { b: 'x' })).toEqual(byZod(schema, { b: 'x' }));
    expect(() => fastParse(schema, { b: 'x' })).toThrow(ZodError);
    expect(fastParse(schema, { a: undefined, b: 'x' })).toEqual({ a: undefined, b: 'x' });
  });

  it("refuses a wrong answer with zod's own error", () => {
    const bad = { items: [{ ...userRow, createdAt: '2026-02-30T00:00:00.000Z' }], total: -1, page: 1, pageSize: 25 };
    expect(() => fastParse(users.ZUserPage, bad)).toThrow(ZodError);
    expect(byCompiled(users.ZUserPage, bad)).toEqual(byZod(users.ZUserPage, bad));
  });
});

const userRow = {
  _id: '3f1c1a52-8d0e-4e0b-9a59-0c1f2b3c4d5e',
  username: 'ada',
  fullName: 'Ada Lovelace',
  email: 'ada@example.com',
  role: 'admin',
  branch: null,
  phone: null,
  address: null,
  image: null,
  createdAt: '2025-01-31T10:00:00.000Z',
  updatedAt: '2025-01-31T10:00:00.000Z',
};
