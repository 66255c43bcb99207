/**
 * CPU per tRPC call through tRPC's Fastify plugin (docs/performance.md#where-the-products-time-goes),
 * in one process on an embedded (PGlite) database: the app answers the same call N times
 * (`app.inject`, no sockets), six rounds, and the median round is printed.
 *
 *   npx tsx bench/http/trpc-adapter.ts
 *   TRPC_URL='/trpc/users.list?batch=1&input=%7B%220%22%3A%7B%22page%22%3A1%7D%7D' N=1000 npx tsx bench/http/trpc-adapter.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../src/server/app';
import { createSession } from '../../src/server/auth/sessions';
import { assembleDeps } from '../../src/server/bootstrap';
import { loadConfig } from '../../src/server/config';
import { openDatabase } from '../../src/server/db/client';
import { createLogger } from '../../src/server/logger';
import { makeUser } from '../../tests/helpers/factories';

const URL_PATH = process.env.TRPC_URL ?? '/trpc/auth.me?batch=1';
const N = Number(process.env.N ?? 3000);
const ROUNDS = 6;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trpc-adapter-'));
const config = loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'silent', REMINDER_SCHEDULE: 'false', DATA_DIR: dir });
const handle = await openDatabase({ dataDir: dir });
await handle.migrate();
const deps = await assembleDeps(config, createLogger({ LOG_LEVEL: 'silent', NODE_ENV: 'production' }), handle);
const app = await buildApp(deps, { serveClient: false });
try {
  const user = await makeUser(deps.db, { role: 'admin' });
  const { token } = await createSession(deps.db, user.id, deps.sessionPolicy);

  /** Milliseconds of this process's CPU per call, over N calls one after another. */
  async function cpuPerCall(): Promise<number> {
    const start = process.cpuUsage();
    for (let i = 0; i < N; i++) {
      const res = await app.inject({ method: 'GET', url: URL_PATH, headers: { authorization: `Bearer ${token}` } });
      if (res.statusCode !== 200) throw new Error(`${res.statusCode}: ${res.body}`);
    }
    const used = process.cpuUsage(start);
    return (used.user + used.system) / 1000 / N;
  }

  await cpuPerCall(); // warm-up
  const rounds: number[] = [];
  for (let r = 0; r < ROUNDS; r++) rounds.push(await cpuPerCall());
  const median = [...rounds].sort((a, b) => a - b)[rounds.length >> 1] ?? NaN;
  console.log(`${URL_PATH}: ms CPU per call (median of ${ROUNDS} rounds of ${N})`);
  console.log(`  tRPC's Fastify plugin ${median.toFixed(3)}`);
} finally {
  await app.close();
  await deps.jobs.close();
  await handle.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
