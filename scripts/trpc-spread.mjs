// tRPC's object-spread helper, made cheap in the server build (docs/performance.md#trpcs-object-spread).
//
// @trpc/server is compiled with a helper for object spread (`{ ...a, ...b }`), `_objectSpread2`,
// that lists each source's keys, filters its symbols, and defines every property one by one
// through a closure. tRPC spreads its call state at every middleware of every call, so on a page
// the embedded server reuses, the helper was a sixth of the server's time. The server build
// bundles @trpc/server and puts in its place a helper that copies each object spread (the odd
// arguments) with `Object.assign`: the same own enumerable properties, symbols included, in the
// same order, read the same way. An object with its own `__proto__` key, which assigning would
// turn into a prototype, and the object literals at the even arguments (copied whole,
// descriptors included) still go through the original code. For every call tRPC's compiled code
// makes, the object made is the same; scripts/trpc-spread.test.ts checks the two helpers against
// each other on such calls, and that the installed tRPC carries the helper this replaces. After an
// upgrade that changes it, that test fails and the build warns and keeps tRPC's own helper.

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

/** The same helper, copying a spread object with `Object.assign` unless it has its own `__proto__`. */
export const FAST = `function _objectSpread2(e) {
	for (var r = 1; r < arguments.length; r++) {
		var t = null != arguments[r] ? arguments[r] : {};
		r % 2 && !Object.prototype.hasOwnProperty.call(t, "__proto__") ? Object.assign(e, t) : r % 2 ? ownKeys(Object(t), !0).forEach(function(r) {
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
        if (!source.includes('function _objectSpread2(')) return { contents: source, loader: 'js' };
        const fast = withFastSpread(source);
        if (fast === null) return { contents: source, loader: 'js' };
        patched++;
        return { contents: fast, loader: 'js' };
      });
      build.onEnd(() => {
        if (patched === 0) warn("@trpc/server's object-spread helper was not found: its own is kept (slower).");
        patched = 0;
      });
    },
  };
}
