// `npm run check:docs`: the repository explains itself. Fails when a comment, README or doc line
// points at a document outside the repository, or when a `docs/<file>.md#heading` reference names
// a file or heading that does not exist.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\n')
  .filter((f) => /\.(ts|tsx|js|mjs|md|css|html|yml|yaml|sh)$/.test(f) || f === '.ci/run')
  .filter((f) => f !== 'scripts/check-doc-links.mjs' && !f.startsWith('drizzle/') && fs.existsSync(path.join(root, f)));

const OUTSIDE = /\b(RULES\.md|DESIGN\.md|spec\.md)\b|\bspec sections? \d|\.\.\/shared\/[A-Z]/;

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

const anchors = new Map();
function anchorsOf(doc) {
  if (!anchors.has(doc)) {
    const full = path.join(root, doc);
    const set = new Set();
    if (fs.existsSync(full)) {
      for (const line of fs.readFileSync(full, 'utf8').split('\n')) {
        const m = /^#{1,6}\s+(.*)$/.exec(line);
        if (m) set.add(slug(m[1]));
        // An explicit anchor (`<a id="x"></a>`) names a place inside a section, as GitHub renders it.
        for (const a of line.matchAll(/<a id="([^"]+)"><\/a>/g)) set.add(a[1]);
      }
      anchors.set(doc, set);
    } else anchors.set(doc, null);
  }
  return anchors.get(doc);
}

const problems = [];
for (const file of files) {
  const lines = fs.readFileSync(path.join(root, file), 'utf8').split('\n');
  lines.forEach((line, i) => {
    const where = `${file}:${i + 1}`;
    if (OUTSIDE.test(line)) problems.push(`${where}: points outside the repository: ${line.trim()}`);
    for (const m of line.matchAll(/((?:\.\.\/)*(?:docs\/)?[\w-]+\.md)(?:#([\w-]+))?/g)) {
      const [, ref, anchor] = m;
      // A bare name inside docs/ is relative to docs/; elsewhere only docs/… references are checked.
      let doc;
      if (ref.startsWith('docs/')) doc = ref;
      else if (file.startsWith('docs/') && !ref.includes('/')) doc = `docs/${ref}`;
      else continue;
      const set = anchorsOf(doc);
      if (set === null) problems.push(`${where}: no such document ${doc}`);
      else if (anchor && !set.has(anchor)) problems.push(`${where}: no heading #${anchor} in ${doc}`);
    }
  });
}

if (problems.length > 0) {
  console.error(problems.join('\n'));
  console.error(`\n${problems.length} reference(s) to fix.`);
  process.exit(1);
}
console.log(`Doc references: ${files.length} files checked, all point inside the repository.`);
