import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * Real PostgreSQL and Redis for the tests, found in this order (issue 2):
 * testcontainers when a Docker engine answers, else `postgres`/`redis-server` binaries started
 * on free ports in temporary directories, else TEST_DATABASE_URL / TEST_REDIS_URL.
 */
export interface Services {
  databaseUrl: string;
  redisUrl: string;
  source: string;
  stop(): Promise<void>;
}

/** The same server URL naming another database. */
export function withDatabase(url: string, db: string) {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

async function viaTestcontainers(): Promise<Services | null> {
  try {
    const { GenericContainer, Wait, getContainerRuntimeClient } = await import('testcontainers');
    await getContainerRuntimeClient();
    const pg = await new GenericContainer('postgres:16-alpine')
      .withEnvironment({ POSTGRES_PASSWORD: 'postgres', POSTGRES_HOST_AUTH_METHOD: 'trust' })
      .withExposedPorts(5432)
      .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
      .start();
    const redis = await new GenericContainer('redis:7-alpine').withExposedPorts(6379).start();
    return {
      databaseUrl: `postgres://postgres:postgres@${pg.getHost()}:${pg.getMappedPort(5432)}/postgres`,
      redisUrl: `redis://${redis.getHost()}:${redis.getMappedPort(6379)}`,
      source: 'testcontainers',
      stop: async () => {
        await Promise.all([pg.stop(), redis.stop()]);
      },
    };
  } catch {
    return null;
  }
}

export function which(bin: string, extraDirs: string[] = []): string | null {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), ...extraDirs];
  for (const d of dirs) {
    const p = path.join(d, bin);
    if (fs.existsSync(p)) return p;
  }
  return null;
}

export function pgBinDirs(): string[] {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root)
    .sort((a, b) => Number(b) - Number(a))
    .map((v) => path.join(root, v, 'bin'));
}

export async function waitForPort(port: number, timeoutMs: number) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => {
        s.end();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`nothing answered on port ${port} within ${timeoutMs} ms`);
}

/**
 * A throwaway PostgreSQL cluster from the local binaries, on a free port in a temporary directory
 * (its log is `pg.log` beside the data directory). `stop` ends it (fast: sessions get 57P01, new
 * connections are refused), `start` brings it back, `remove` stops it and deletes the directory.
 */
export async function startPostgresCluster(prefix = 'backoffice-pg-') {
  const initdb = which('initdb', pgBinDirs());
  const pgCtl = which('pg_ctl', pgBinDirs());
  if (!initdb || !pgCtl) return null;
  const isRoot = process.getuid?.() === 0;
  // PostgreSQL refuses to run as root: run it as the postgres user in a directory it owns.
  const asPg = (cmd: string, args: string[]) =>
    (isRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args]) as [string, string[]];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  if (isRoot) execFileSync('chown', ['postgres:postgres', dir]);
  const dataDir = path.join(dir, 'data');
  const port = await freePort();
  execFileSync(...asPg(initdb, ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '--no-sync']), { stdio: 'ignore' });
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`;
  const start = async () => {
    execFileSync(...asPg(pgCtl, ['-D', dataDir, '-w', '-l', path.join(dir, 'pg.log'), '-o', options, 'start']), {
      stdio: 'ignore',
    });
    await waitForPort(port, 20_000);
  };
  const stop = async (mode: 'fast' | 'immediate' = 'fast') => {
    execFileSync(...asPg(pgCtl, ['-D', dataDir, '-m', mode, '-w', 'stop']), { stdio: 'ignore' });
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    async remove() {
      await stop('immediate').catch(() => {
        /* already gone */
      });
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function viaBinaries(): Promise<Services | null> {
  const redisServer = which('redis-server');
  if (!redisServer) return null;
  const pg = await startPostgresCluster();
  if (!pg) return null;

  const redisPort = await freePort();
  const redis = spawn(
    redisServer,
    ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  await waitForPort(redisPort, 10_000);

  return {
    databaseUrl: pg.url,
    redisUrl: `redis://127.0.0.1:${redisPort}`,
    source: 'local binaries',
    stop: async () => {
      redis.kill('SIGTERM');
      await pg.remove();
    },
  };
}

function viaEnv(): Services | null {
  const databaseUrl = process.env.TEST_DATABASE_URL;
  const redisUrl = process.env.TEST_REDIS_URL;
  if (!databaseUrl || !redisUrl) return null;
  return { databaseUrl, redisUrl, source: 'TEST_DATABASE_URL/TEST_REDIS_URL', stop: async () => {} };
}

export async function startServices(): Promise<Services> {
  const found = (await viaTestcontainers()) ?? (await viaBinaries()) ?? viaEnv();
  if (found) return found;
  throw new Error(
    [
      'The tests need a real PostgreSQL (15+) and Redis, and none was found. Provide one of:',
      '  - a Docker engine (testcontainers starts postgres:16 and redis:7),',
      '  - the binaries initdb, pg_ctl and redis-server on the PATH (Debian: apt-get install postgresql redis-server),',
      '  - TEST_DATABASE_URL and TEST_REDIS_URL pointing at servers the tests may create databases on.',
    ].join('\n'),
  );
}
