import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain JavaScript module of the build, without types.
import { FAST, ORIGINAL, withFastSpread } from './trpc-spread.mjs';

type Spread = (target: object, ...sources: unknown[]) => object;

/**
 * The compiler's runtime helpers as the installed tRPC defines them (`_objectSpread2` and the
 * helpers it calls), read from its own file, and the same text with the helper replaced.
 */
const runtime = trpcFiles()
  .flatMap((f) => [...f.text.matchAll(/\/\/#region [^\n]*oxc-project\+runtime[^\n]*\n([\s\S]*?)\/\/#endregion/g)])
  .map((m) => m[1])
  .join('\n');
const compile = (helpers: string) =>
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- tRPC's helpers and their replacement, compiled to compare them
  new Function(`${helpers}\nreturn _objectSpread2;`)() as Spread;
const original = compile(runtime);
const fast = compile((withFastSpread(runtime) as string | null) ?? '');

/** Everything an object is made of, in order: its prototype and each own property's descriptor. */
function anatomy(o: object) {
  return {
    proto: Object.getPrototypeOf(o) as unknown,
    props: Reflect.ownKeys(o).map((k) => [k, Object.getOwnPropertyDescriptor(o, k)]),
  };
}

const shared = [Symbol('a'), Symbol('b')];
const key = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'toString', 'ctx', 'input', '0', '10', '-1'),
  fc.string({ maxLength: 4 }),
  fc.constantFrom(...shared),
);
/** Own properties of every kind: some not enumerable, some getters. */
const anyObject = fc
  .array(fc.record({ key, value: fc.jsonValue({ maxDepth: 1 }), enumerable: fc.boolean(), getter: fc.boolean() }), {
    maxLength: 8,
  })
  .map((props) => {
    const o: Record<PropertyKey, unknown> = {};
    for (const p of props) {
      Object.defineProperty(o, p.key, {
        ...(p.getter ? { get: () => p.value } : { value: p.value, writable: true }),
        enumerable: p.enumerable,
        configurable: true,
      });
    }
    return o;
  });
/** What an object literal makes: plain enumerable values, under any key (`__proto__` as a computed key). */
const literal = fc.array(fc.tuple(key, fc.jsonValue({ maxDepth: 1 })), { maxLength: 6 }).map((entries) => {
  const o: Record<PropertyKey, unknown> = {};
  for (const [k, v] of entries)
    Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  return o;
});
/** An object spread: any object, a primitive, nothing. */
const spread = fc.oneof(
  { weight: 6, arbitrary: anyObject },
  { weight: 1, arbitrary: fc.constantFrom(null, undefined, 'ab', 7, true) },
);

/**
 * A call as tRPC's compiled code makes it: `{ ...a, x, ...b }` becomes
 * `_objectSpread2(_objectSpread2(_objectSpread2({}, a), {}, { x }), b)`, so the target is a new
 * object or a literal, what is spread comes at the odd positions, and the even positions carry
 * object literals (the helper copies those whole, descriptors included).
 */
const call = fc
  .tuple(literal, fc.array(fc.tuple(spread, literal), { maxLength: 3 }), fc.option(spread))
  .map(([target, pairs, last]) => ({
    target,
    args: [...pairs.flat(), ...(last === null ? [] : [last])],
  }));

describe("the server build's object-spread helper for tRPC", () => {
  it("makes the same object as tRPC's own, for the calls tRPC makes", () => {
    fc.assert(
      fc.property(call, ({ target, args }) => {
        const copy = () => Object.defineProperties({}, Object.getOwnPropertyDescriptors(target));
        expect(anatomy(fast(copy(), ...args))).toEqual(anatomy(original(copy(), ...args)));
      }),
      { numRuns: 3000 },
    );
  });

  it('keeps an own __proto__ key a property, as tRPC does, instead of setting the prototype', () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as object;
    const made = fast({}, parsed) as Record<string, unknown>;
    expect(Object.getPrototypeOf(made)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(made, '__proto__')?.value).toEqual({ polluted: true });
    expect(made.a).toBe(1);
  });

  it('replaces the helper the installed @trpc/server carries, exactly once', () => {
    const carriers = trpcFiles()
      .filter((f) => f.text.includes('function _objectSpread2('))
      .map((f) => f.name);
    expect(carriers).toHaveLength(1);
    const source = fs.readFileSync(path.join(trpcDist(), carriers[0]!), 'utf8');
    const patched = withFastSpread(source) as string | null;
    expect(patched).not.toBeNull();
    expect(patched).toContain(FAST);
    expect(patched).not.toContain(ORIGINAL);
    expect(patched!.length - source.length).toBe((FAST as string).length - (ORIGINAL as string).length);
  });

  it('is only called by the installed @trpc/server with the shapes compared above', () => {
    const odd: string[] = [];
    let calls = 0;
    for (const file of trpcFiles()) {
      const source = ts.createSourceFile(file.name, file.text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
      const visit = (node: ts.Node) => {
        if (
          ts.isCallExpression(node) &&
          ts.isIdentifier(node.expression) &&
          node.expression.text === '_objectSpread2'
        ) {
          calls++;
          const where = `${file.name}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
          const [target, ...rest] = node.arguments;
          if (!target || !(isPlainLiteral(target) || isSpreadCall(target))) odd.push(`${where} target`);
          rest.forEach((arg, i) => {
            // The arguments at even positions (2, 4...) must be literals of plain values.
            if (i % 2 === 1 && !isPlainLiteral(arg)) odd.push(`${where} argument ${i + 1}`);
          });
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(calls).toBeGreaterThan(0);
    expect(odd).toEqual([]);
  });
});

function trpcDist(): string {
  return path.dirname(fileURLToPath(import.meta.resolve('@trpc/server')));
}

/** The installed @trpc/server's built modules, with their text. */
function trpcFiles(): Array<{ name: string; text: string }> {
  return fs
    .readdirSync(trpcDist())
    .filter((f) => f.endsWith('.mjs'))
    .map((name) => ({ name, text: fs.readFileSync(path.join(trpcDist(), name), 'utf8') }));
}

/** An object literal whose members are all plain values (`a: x`, `a`, `a() {}`): no getter, setter or spread. */
function isPlainLiteral(node: ts.Node): boolean {
  return (
    ts.isObjectLiteralExpression(node) &&
    node.properties.every(
      (p) => ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p) || ts.isMethodDeclaration(p),
    )
  );
}

/** A call of the helper itself: its result is built from such literals and spreads too. */
function isSpreadCall(node: ts.Node): boolean {
  return ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === '_objectSpread2';
}
