/**
 * The portal on Lighthouse's mobile profile (`npm run bench:portal`, docs/performance.md#the-portal-on-a-phone):
 * performance score, Largest Contentful Paint and the script a phone downloads before the first
 * screen, for the portal's sign-in screen and a signed-in student's home, against a bare page
 * served the same way by the same server in the same run.
 *
 * 1. The product as production runs it (`npm run build`, `node dist/server/main.js`), embedded
 *    database with the demo data; a bare page (one heading, one paragraph, no script) is put in
 *    the built client's folder, so the same static handler, compression and headers serve it.
 * 2. `npx -y lighthouse@12.2.3` with the system Chromium, its default mobile profile (simulated
 *    slow 4G and a 4× slower CPU), performance only; the pages take turns, run after run.
 * 3. Medians per page, and each page's ratio to the bare page's.
 *
 * Environment: BENCH_RUNS=5 (runs per page), CHROMIUM_PATH=/usr/bin/chromium.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildProduct, embeddedEnv, productNodeArgs, root, startNode, stopAll } from './http/stack';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const LIGHTHOUSE = 'lighthouse@12.2.3';
const BASELINE_FILE = 'bench-baseline.html';

const BASELINE_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <meta name="description" content="A bare page: the floor of what this server and this phone profile allow." />
    <title>Baseline</title>
  </head>
  <body>
    <main>
      <h1>Sign in</h1>
      <p>See your courses, treatments, appointments and payments.</p>
    </main>
  </body>
</html>
`;

interface Sample {
  score: number;
  lcpMs: number;
  scriptBytes: number;
}

interface LighthouseReport {
  categories: { performance: { score: number | null } };
  audits: Record<
    string,
    { numericValue?: number; details?: { items?: Array<{ resourceType?: string; transferSize?: number }> } }
  >;
}

function lighthouse(url: string, headers: Record<string, string> | null): Promise<Sample> {
  const out = path.join(os.tmpdir(), `lh-${process.pid}-${Date.now()}.json`);
  const args = [
    '-y',
    LIGHTHOUSE,
    url,
    '--quiet',
    '--only-categories=performance',
    '--output=json',
    `--output-path=${out}`,
    '--chrome-flags=--headless=new --no-sandbox --disable-gpu',
  ];
  if (headers) args.push(`--extra-headers=${JSON.stringify(headers)}`);
  return new Promise((resolve, reject) => {
    execFile(
      'npx',
      args,
      { env: { ...process.env, CHROME_PATH: CHROMIUM }, maxBuffer: 64 * 1024 * 1024, timeout: 180_000 },
      (err, _stdout, stderr) => {
        if (err) {
          reject(new Error(`lighthouse failed on ${url}: ${err.message}\n${stderr}`));
          return;
        }
        const report = JSON.parse(fs.readFileSync(out, 'utf8')) as LighthouseReport;
        fs.rmSync(out, { force: true });
        const items = report.audits['network-requests']?.details?.items ?? [];
        resolve({
          score: Math.round((report.categories.performance.score ?? 0) * 100),
          lcpMs: report.audits['largest-contentful-paint']?.numericValue ?? NaN,
          scriptBytes: items
            .filter((i) => i.resourceType === 'Script')
            .reduce((sum, i) => sum + (i.transferSize ?? 0), 0),
        });
      },
    );
  });
}

/**
 * Lighthouse now and then fails to record the page load's trace (NO_NAVSTART, "Please run
 * Lighthouse again"); that run is repeated, up to twice, rather than ending the whole bench.
 */
async function lighthouseWithRetry(url: string, headers: Record<string, string> | null): Promise<Sample> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await lighthouse(url, headers);
    } catch (err) {
      if (attempt >= 3 || !String(err).includes('run Lighthouse again')) throw err;
      console.log(`lighthouse could not record ${url} (attempt ${attempt}); running it again`);
    }
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

async function main() {
  await buildProduct();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-portal-'));
  const baselinePath = path.join(root, 'dist/client', BASELINE_FILE);
  fs.writeFileSync(baselinePath, BASELINE_HTML);
  try {
    const server = await startNode(
      'portal',
      'dist/server/main.js',
      { ...embeddedEnv(dataDir), SEED_DEMO: 'true', LOG_LEVEL: 'warn' },
      { healthPath: '/api/health', nodeArgs: productNodeArgs(), timeoutMs: 300_000 },
    );
    // A demo student's session, sent by Lighthouse with every request of the signed-in page.
    const auth = await fetch(`${server.url}/api/users/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'student1@example.com', password: 'demo-pass-2025' }),
    });
    if (!auth.ok) throw new Error(`signing the demo student in failed: ${auth.status}`);
    const { token } = (await auth.json()) as { token: string };

    const pages = [
      { name: 'bare page', url: `${server.url}/${BASELINE_FILE}`, headers: null },
      { name: 'portal sign-in', url: `${server.url}/portal/sign-in`, headers: null },
      { name: 'portal home (signed in)', url: `${server.url}/portal`, headers: { Authorization: `Bearer ${token}` } },
    ];
    const samples = new Map<string, Sample[]>(pages.map((p) => [p.name, []]));
    // Interleaved: a slow moment of the machine falls on every page alike.
    for (let run = 1; run <= RUNS; run++) {
      for (const p of pages) {
        const s = await lighthouseWithRetry(p.url, p.headers);
        samples.get(p.name)!.push(s);
        console.log(
          `run ${run}/${RUNS} ${p.name}: score ${s.score}, LCP ${Math.round(s.lcpMs)} ms, script ${s.scriptBytes} B`,
        );
      }
    }

    const base = samples.get('bare page')!;
    const baseLcp = median(base.map((s) => s.lcpMs));
    const baseScore = median(base.map((s) => s.score));
    console.log(`\nLighthouse ${LIGHTHOUSE.split('@')[1]}, mobile profile, ${RUNS} runs per page, medians:\n`);
    console.log('| page | performance | LCP | script before first screen (gzip) | LCP vs bare page |');
    console.log('|---|---|---|---|---|');
    for (const p of pages) {
      const s = samples.get(p.name)!;
      const lcp = median(s.map((x) => x.lcpMs));
      const score = median(s.map((x) => x.score));
      const kb = median(s.map((x) => x.scriptBytes)) / 1024;
      const ratio = p.name === 'bare page' ? '1.00' : (lcp / baseLcp).toFixed(2);
      console.log(`| ${p.name} | ${score} | ${(lcp / 1000).toFixed(2)} s | ${kb.toFixed(1)} kB | ${ratio}× |`);
    }
    console.log(`\n(bare page: score ${baseScore}, LCP ${(baseLcp / 1000).toFixed(2)} s)`);
  } finally {
    fs.rmSync(baselinePath, { force: true });
    await stopAll();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
