// `npm run build`: the client (Vite) and the server, worker and migration CLI bundled to plain
// JavaScript (esbuild), so production never compiles TypeScript at run time.
// `--if-stale` (used by `npm start` and `npm run worker`) skips the build when the inputs have not
// changed since the last one, so a restart is fast and a fresh clone still needs one command.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'dist');
const stampFile = path.join(dist, '.build-hash');

/** Everything the build reads; a change to any of it means a new build. */
const inputs = [
  'src',
  'worker',
  'public',
  'index.html',
  'portal.html',
  'vite.config.ts',
  'tsconfig.json',
  'package-lock.json',
  'scripts/build.mjs',
];

function* files(entry) {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return;
  if (fs.statSync(full).isFile()) {
    yield entry;
    return;
  }
  for (const name of fs.readdirSync(full).sort()) {
    // Test files are not part of the product.
    if (/\.test\.tsx?$/.test(name)) continue;
    yield* files(path.join(entry, name));
  }
}

function inputHash() {
  const hash = createHash('sha256');
  for (const entry of inputs) {
    for (const file of files(entry)) {
      hash.update(file);
      hash.update(fs.readFileSync(path.join(root, file)));
    }
  }
  return hash.digest('hex');
}

const hash = inputHash();
if (process.argv.includes('--if-stale') && fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8') === hash) {
  process.exit(0);
}

const started = Date.now();
console.log('Building the client and the server (first start, or the sources changed)...');
fs.rmSync(stampFile, { force: true });

const { build: viteBuild } = await import('vite');
await viteBuild({ root, logLevel: 'warn' });

// The assets never change once built, so they are compressed once, as hard as brotli goes;
// the server sends these files to browsers that accept them (preCompressed in app.ts).
for (const file of fs.readdirSync(path.join(dist, 'client/assets'))) {
  if (!/\.(js|css|svg)$/.test(file)) continue;
  const full = path.join(dist, 'client/assets', file);
  const raw = fs.readFileSync(full);
  fs.writeFileSync(
    `${full}.br`,
    zlib.brotliCompressSync(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
  );
  fs.writeFileSync(`${full}.gz`, zlib.gzipSync(raw, { level: 9 }));
}

const esbuild = await import('esbuild');
fs.rmSync(path.join(dist, 'server'), { recursive: true, force: true });
await esbuild.build({
  absWorkingDir: root,
  entryPoints: {
    'server/main': 'src/server/main.ts',
    'server/migrate': 'src/server/db/migrate-cli.ts',
    'worker/main': 'worker/main.ts',
  },
  outdir: dist,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  // Dependencies stay in node_modules as their authors publish them (native addons, PGlite's
  // wasm files); only our code is bundled.
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
  tsconfig: path.join(root, 'tsconfig.json'),
});

fs.writeFileSync(stampFile, hash);
console.log(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
