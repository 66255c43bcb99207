import fs from 'node:fs';
import path from 'node:path';
import { buildApp } from './app';
import { loadRuntime, openDeps } from './bootstrap';
import { seedIfEmpty } from './seed';
import { DEMO_PASSWORD, DEMO_USERS } from './seed/demo-users';

const { config, log } = loadRuntime();

/** PGlite is single-connection: one server per DATA_DIR (docs/architecture.md). */
function lockDataDir(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockFile = path.join(dataDir, 'server.lock');
  try {
    fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
  } catch {
    const pid = Number(fs.readFileSync(lockFile, 'utf8'));
    if (pid && pid !== process.pid && isAlive(pid)) {
      log.fatal(
        `Another server (pid ${pid}) is using ${path.resolve(dataDir)}. Stop it first, or set DATABASE_URL to run several servers.`,
      );
      process.exit(1);
    }
    fs.writeFileSync(lockFile, String(process.pid));
  }
  return () => fs.rmSync(lockFile, { force: true });
}

function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const unlock = config.DATABASE_URL ? () => {} : lockDataDir(config.DATA_DIR);
const deps = await openDeps(config, log);
const { dbHandle } = deps;

const seeded = await seedIfEmpty(deps);
const app = await buildApp(deps);
await app.listen({ port: config.PORT, host: config.HOST });
// Fastify has no logger of its own here (http/request-log.ts), so the lines it wrote are ours.
for (const a of app.addresses()) {
  const where = typeof a === 'string' ? a : `http://${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}`;
  log.info(`Server listening at ${where}`);
}

const address = app.server.address();
const url = `http://localhost:${typeof address === 'object' && address ? address.port : config.PORT}`;
const lines = [
  `Back office running at ${url} (${dbHandle.kind === 'pglite' ? `embedded database in ${path.resolve(config.DATA_DIR)}` : 'PostgreSQL'})`,
];
if (seeded.created) {
  lines.push(
    `Sign in as ${seeded.adminEmail} with ${seeded.generatedPassword ? `password ${seeded.generatedPassword} (shown once; change it)` : 'SEED_ADMIN_PASSWORD'}`,
  );
  if (config.SEED_DEMO) {
    lines.push(
      `Demo accounts use the password ${DEMO_PASSWORD}: ${DEMO_USERS.map((u) => `${u.username}@example.com (${u.role})`).join(', ')}`,
    );
  }
}
console.log(lines.join('\n'));

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  log.info({ signal }, 'shutting down');
  await app.close();
  await deps.jobs.close();
  await dbHandle.close();
  unlock();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
