// tRPC's object-spread helper, made cheap in the server build (docs/performance.md#trpcs-object-spread).
//
// @trpc/server is compiled with a helper for object spread (`{ ...a, ...b }`), `_objectSpread2`,
// that lists each source's keys, filters its symbols, and defines every property one by one
// through a closure, or copies an object literal's property descriptors whole. tRPC spreads its
// call state at every middleware of every call, so on a page the embedded server reuses, the
// helper was a sixth of the server's time. The server build bundles @trpc/server and puts in its
// place a helper that copies each object argument with `Object.assign`: the same own enumerable
// properties, symbols included, in the same order, read the same way. That is the helper's own
// result for the arguments tRPC passes: objects spread, and object literals of plain values (no
// getter or setter), into a target built of the same. An object with its own `__proto__` key,
// which assigning would turn into a prototype, and any argument that is not an object still go
// through the original code. scripts/trpc-spread.test.ts checks the two helpers against each
// other on such calls, that every call in the installed tRPC has that shape, and that it carries
// the helper this replaces. After an upgrade that changes any of it, that test fails; the build
// warns and keeps tRPC's own helper when it does not find it.

import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The helper as @trpc/server 11 ships it (oxc's runtime helper `objectSpread2`). */
export const ORIGINAL = `function _objectSpread2(e) {
	for (var r = 1; r < arguments.length; r++) {
		var t = null != arguments[r] ? arguments[r] : {};
		r % 2 ? ownKeys(Object(t), !0).forEach(function(r) {
			_defineProperty(e, r, t[r]);
		}) : Object.getOwnPropertyDescriptors ? Object.defineProperties(e, Object.getOwnPropertyDescriptors(t)) : ownKeys(Object(t)).forEach(function(r) {
			Object.defineProperty(e, r, Object.getOwnPropertyDescriptor(t, r));
		});
	}
	return e;
}`;

/** The same helper, copying an object with `Object.assign` unless it has its own `__proto__`. */
export const FAST = `function _objectSpread2(e) {
	for (var r = 1; r < arguments.length; r++) {
		var t = null != arguments[r] ? arguments[r] : {};
		"object" == typeof t && !Object.prototype.hasOwnProperty.call(t, "__proto__") ? Object.assign(e, t) : r % 2 ? ownKeys(Object(t), !0).forEach(function(r) {
			_defineProperty(e, r, t[r]);
		}) : Object.getOwnPropertyDescriptors ? Object.defineProperties(e, Object.getOwnPropertyDescriptors(t)) : ownKeys(Object(t)).forEach(function(r) {
			Object.defineProperty(e, r, Object.getOwnPropertyDescriptor(t, r));
		});
	}
	return e;
}`;

/** `source` with the helper replaced, or null when it does not carry the helper as above. */
export function withFastSpread(source) {
  const at = source.indexOf(ORIGINAL);
  if (at < 0 || source.indexOf(ORIGINAL, at + 1) >= 0) return null;
  return source.slice(0, at) + FAST + source.slice(at + ORIGINAL.length);
}

const trpcImport = /^@trpc\/server(\/.*)?$/;

/**
 * An esbuild plugin: @trpc/server is bundled (every other package stays in node_modules), and its
 * file that defines the helper is loaded with the fast one. `warn` is told when no file had it.
 */
export function trpcFastSpread(warn) {
  return {
    name: 'trpc-fast-spread',
    setup(build) {
      let patched = 0;
      build.onResolve({ filter: trpcImport }, (args) => ({
        path: fileURLToPath(import.meta.resolve(args.path)),
      }));
      build.onLoad({ filter: /[\\/]@trpc[\\/]server[\\/]dist[\\/].*\.mjs$/ }, (args) => {
        const source = fs.readFileSync(args.path, 'utf8');
        const fast = withFastSpread(source);
        if (fast !== null) patched++;
        return { contents: fast ?? source, loader: 'js' };
      });
      build.onEnd(() => {
        if (patched === 0) warn("@trpc/server's object-spread helper was not found: its own is kept (slower).");
        patched = 0;
      });
    },
  };
}
