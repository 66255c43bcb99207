import type { z, ZodType } from 'zod';
import { oneOfValues } from '../../shared/schemas/output';

/*
 * The output contracts' check, compiled (docs/performance.md#the-output-check-compiled).
 *
 * Every answer is checked against its contract (src/shared/schemas/output.ts): zod's parse keeps
 * only the keys the contract names, in its order, and refuses a value of the wrong kind. zod does
 * it with two objects per field (a result and its list of issues): on a page of 25 enrolments with
 * their instalments that was 150 KB a request, a third of all the server allocated. This file
 * writes, once per schema, a function that makes the same answer from the same value with one
 * object per object checked: the contract's keys in one object literal, each value tested inline.
 *
 * It answers exactly as `schema.parse` does, or leaves the value to it:
 * - it knows a small set of zod's kinds (object in its default strip mode, array, string, the ISO
 *   date and instant formats, number with its whole-number and bound checks, boolean, null, enum,
 *   literal, nullable, optional as an object's field, and `zOneOf`), and hands any other node of a
 *   schema (a union, `z.json()`, a refinement, a transform, ...) to zod's own `safeParse`;
 * - when a value fails the compiled check, `fastParse` calls `schema.parse` on the whole value, so
 *   an answer that breaks its contract fails with zod's own error, as before.
 * A compiled check can only be wrong by accepting what zod refuses, or by making another answer;
 * output-check.test.ts compares the two on generated values for every output contract.
 */

const FAIL: unique symbol = Symbol('fails the compiled check');
type Check = (value: unknown) => unknown;

/** `schema.parse(value)`, through the schema's compiled check. */
export function fastParse<S extends ZodType>(schema: S, value: unknown): z.output<S> {
  const out = checkerOf(schema)(value);
  return (out === FAIL ? schema.parse(value) : out) as z.output<S>;
}

/**
 * Whether the compiled check of `schema` takes `value` by itself (without falling back to zod at the
 * top). For the tests: a contract whose answers keep falling back gains nothing from this file.
 */
export const takesFast = (schema: ZodType, value: unknown) => checkerOf(schema)(value) !== FAIL;

const checkers = new WeakMap<ZodType, Check>();

/** The compiled check of `schema` (the compiler keeps each one in `checkers`). */
const checkerOf = (schema: ZodType): Check => checkers.get(schema) ?? new Compiler().checker(schema);

/** What the generated code reads besides the value: the sub-checks, patterns and sets of values. */
interface Scope {
  C: Check[];
  P: RegExp[];
  S: Array<ReadonlySet<unknown>>;
}

// zod keeps its definitions out of the types it publishes for schemas.
interface Def {
  type: string;
  checks?: Array<{ _zod: { def: CheckDef } }>;
  format?: string;
  pattern?: RegExp;
  innerType?: ZodType;
  element?: ZodType;
  shape?: Record<string, ZodType>;
  catchall?: ZodType;
}
interface CheckDef {
  check: string;
  format?: string;
  value?: unknown;
  inclusive?: boolean;
}
const defOf = (s: ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;
const valuesOf = (s: ZodType) => (s as unknown as { _zod: { values?: ReadonlySet<unknown> } })._zod.values;
const optinOf = (s: ZodType) => (s as unknown as { _zod: { optin?: string } })._zod.optin;

/** Formats whose whole check is their pattern (zod's `$ZodISODate`, `$ZodISODateTime`). */
const PATTERN_FORMATS = new Set(['date', 'datetime']);

class Compiler {
  /** Schemas being compiled: a schema met again inside itself (a recursive one) is left to zod. */
  private readonly open = new Set<ZodType>();

  checker(schema: ZodType): Check {
    const known = checkers.get(schema);
    if (known) return known;
    if (this.open.has(schema)) return zodCheck(schema);
    this.open.add(schema);
    try {
      const check = this.build(schema);
      checkers.set(schema, check);
      return check;
    } finally {
      this.open.delete(schema);
    }
  }

  private build(schema: ZodType): Check {
    const scope: Scope = { C: [], P: [], S: [] };
    const test = this.leaf(schema, 'v', scope);
    if (test !== null) return generate(scope, `return ${test} ? v : FAIL;`);
    const def = defOf(schema);
    if (def.type === 'nullable' && def.innerType) {
      const inner = this.checker(def.innerType);
      return (v) => (v === null ? null : inner(v));
    }
    if (def.type === 'array' && def.element && !def.checks?.length) return this.array(def.element, scope);
    if (def.type === 'object' && def.shape && def.catchall === undefined && !def.checks?.length) {
      return this.object(def.shape, scope) ?? zodCheck(schema);
    }
    return zodCheck(schema);
  }

  /**
   * An expression true when `v` (a variable's name) passes `schema`, whose answer is then `v`
   * itself; null when the schema is not such a leaf.
   */
  private leaf(schema: ZodType, v: string, scope: Scope): string | null {
    const def = defOf(schema);
    const allowed = oneOfValues.get(schema);
    if (allowed) return `(typeof ${v} === "string" && S[${scope.S.push(new Set(allowed)) - 1}].has(${v}))`;
    switch (def.type) {
      case 'string': {
        if (def.checks?.length) return null;
        if (def.format === undefined) return `typeof ${v} === "string"`;
        if (!PATTERN_FORMATS.has(def.format) || !def.pattern || def.pattern.global || def.pattern.sticky) return null;
        return `(typeof ${v} === "string" && P[${scope.P.push(def.pattern) - 1}].test(${v}))`;
      }
      case 'number': {
        // Number.isFinite is false for anything but a finite number (it does not convert).
        const tests = [`Number.isFinite(${v})`];
        for (const c of def.checks ?? []) {
          const t = numberCheck(c._zod.def, v);
          if (t === null) return null;
          tests.push(t);
        }
        return `(${tests.join(' && ')})`;
      }
      case 'boolean':
        return `typeof ${v} === "boolean"`;
      case 'null':
        return `${v} === null`;
      case 'enum':
      case 'literal': {
        const values = valuesOf(schema);
        if (!values || def.checks?.length) return null;
        return `S[${scope.S.push(values) - 1}].has(${v})`;
      }
      case 'nullable': {
        const inner = def.innerType && this.leaf(def.innerType, v, scope);
        return inner ? `(${v} === null || ${inner})` : null;
      }
      default:
        return null;
    }
  }

  private array(element: ZodType, scope: Scope): Check {
    const test = this.leaf(element, 'x', scope);
    const each =
      test !== null
        ? `if (!(${test})) return FAIL; out[i] = x;`
        : `const y = C[${scope.C.push(this.checker(element)) - 1}](x); if (y === FAIL) return FAIL; out[i] = y;`;
    return generate(
      scope,
      `if (!Array.isArray(v)) return FAIL;
      const n = v.length, out = new Array(n);
      for (let i = 0; i < n; i++) { const x = v[i]; ${each} }
      return out;`,
    );
  }

  /** null when a field is of a kind this compiler does not write (the object is then left to zod). */
  private object(shape: Record<string, ZodType>, scope: Scope): Check | null {
    const keys = Object.keys(shape);
    if (keys.includes('__proto__')) return null;
    const optional = keys.map((key) => {
      const def = defOf(shape[key]!);
      return def.type === 'optional' && def.innerType !== undefined && optinOf(shape[key]!) === 'optional';
    });
    const lines = [`if (typeof v !== "object" || v === null || Array.isArray(v)) return FAIL;`];
    for (let i = 0; i < keys.length; i++) {
      const k = JSON.stringify(keys[i]);
      const field = shape[keys[i]!]!;
      if (optional[i]) {
        // As zod: an absent key stays absent; a present one, even undefined, is checked and kept.
        const check = this.value(defOf(field).innerType!, `x${i}`, scope);
        lines.push(`const p${i} = ${k} in v; let x${i};`);
        lines.push(`if (p${i}) { x${i} = v[${k}]; if (x${i} !== undefined) { ${check} } }`);
      } else {
        // A field that may be absent in another way (a default, say) leaves its object to zod.
        if (optinOf(field) !== undefined) return null;
        // zod refuses a required key that is absent even when its schema takes undefined.
        lines.push(`let x${i} = v[${k}]; if (x${i} === undefined && !(${k} in v)) return FAIL;`);
        lines.push(this.value(field, `x${i}`, scope));
      }
    }
    if (optional.includes(true)) {
      // The contract's keys in its order, as zod writes them, absent optional keys left out.
      const set = keys.map((key, i) => `${optional[i] ? `if (p${i}) ` : ''}o[${JSON.stringify(key)}] = x${i};`);
      lines.push(`const o = {};\n${set.join('\n')}\nreturn o;`);
    } else {
      lines.push(`return { ${keys.map((key, i) => `${JSON.stringify(key)}: x${i}`).join(', ')} };`);
    }
    return generate(scope, lines.join('\n'));
  }

  /** Statements that check the variable `x` against `schema` and leave its answer in it. */
  private value(schema: ZodType, x: string, scope: Scope): string {
    const test = this.leaf(schema, x, scope);
    if (test !== null) return `if (!(${test})) return FAIL;`;
    return `${x} = C[${scope.C.push(this.checker(schema)) - 1}](${x}); if (${x} === FAIL) return FAIL;`;
  }
}

function numberCheck(c: CheckDef, v: string): string | null {
  if (c.check === 'number_format' && c.format === 'safeint') return `Number.isSafeInteger(${v})`;
  if ((c.check === 'greater_than' || c.check === 'less_than') && typeof c.value === 'number') {
    const op = c.check === 'greater_than' ? (c.inclusive ? '>=' : '>') : c.inclusive ? '<=' : '<';
    return `${v} ${op} ${c.value}`;
  }
  return null;
}

function generate(scope: Scope, body: string): Check {
  // Written from the schema's keys (as JSON strings) and kinds only, never from an answer.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- one function per schema is the point
  const make = new Function('FAIL', 'C', 'P', 'S', `return function check(v) {\n${body}\n};`) as (
    fail: typeof FAIL,
    c: Check[],
    p: RegExp[],
    s: Array<ReadonlySet<unknown>>,
  ) => Check;
  return make(FAIL, scope.C, scope.P, scope.S);
}

/** A node this file does not compile: zod checks it, and its answer is zod's. */
function zodCheck(schema: ZodType): Check {
  return (v) => {
    const r = schema.safeParse(v);
    return r.success ? r.data : FAIL;
  };
}
