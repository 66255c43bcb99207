/**
 * Summarises a `.cpuprofile` (from `BENCH_CPU_PROF`, docs/performance.md#http-benchmark): self
 * time by package or file, and the busiest functions.
 *
 *   npx tsx bench/http/profile-summary.ts <file.cpuprofile> [top=30]
 */
import fs from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error('usage: profile-summary <file.cpuprofile> [top]');
const top = Number(topArg ?? 30);
const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const sampled = [...self.values()].reduce((a, b) => a + b, 0);
// Percentages are of the busy time: waiting for I/O ("(idle)") is left out.
const idle = [...self]
  .filter(([id]) => byId.get(id)!.callFrame.functionName === '(idle)')
  .reduce((a, [, t]) => a + t, 0);
const total = sampled - idle;

/** A package name (`drizzle-orm`, `@trpc/server`), a file of the product, or node's own. */
function area(url: string): string {
  if (!url) return '(native / V8)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (url.startsWith('node:')) return url;
  return url.replace(/^file:\/\//, '').replace(process.cwd() + '/', '');
}

const areas = new Map<string, number>();
const fns = new Map<string, number>();
for (const [id, t] of self) {
  const n = byId.get(id)!;
  if (n.callFrame.functionName === '(idle)') continue;
  const a = area(n.callFrame.url);
  const name = n.callFrame.functionName || '(anonymous)';
  areas.set(a, (areas.get(a) ?? 0) + t);
  const key = `${name}  ${a}:${n.callFrame.lineNumber + 1}`;
  fns.set(key, (fns.get(key) ?? 0) + t);
}
const pct = (t: number) => `${((100 * t) / total).toFixed(1).padStart(5)} %`;
const wall = (profile.endTime - profile.startTime) / 1e6;
console.log(
  `${file}: ${(total / 1e6).toFixed(1)} s busy of ${(sampled / 1e6).toFixed(1)} s sampled over ${wall.toFixed(1)} s\n\nBy area (self time, % of busy):`,
);
for (const [a, t] of [...areas].sort((x, y) => y[1] - x[1]).slice(0, top)) console.log(`${pct(t)}  ${a}`);
console.log('\nBusiest functions (self time):');
for (const [f, t] of [...fns].sort((x, y) => y[1] - x[1]).slice(0, top)) console.log(`${pct(t)}  ${f}`);
