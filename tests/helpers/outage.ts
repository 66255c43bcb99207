import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, pgBinDirs, waitForPort, which } from '../setup/services';

/**
 * Servers of a test's own, which it may stop and start again to see how the product behaves
 * through an outage (the shared ones serve other test files running at the same time).
 */
export async function ownRedis() {
  const bin = which('redis-server');
  if (!bin) throw new Error('redis-server is not installed (Debian: apt-get install redis-server)');
  const port = await freePort();
  let proc: ChildProcess | null = null;
  const start = async () => {
    // No persistence, as a Redis restarted from scratch: whatever it held is gone.
    proc = spawn(bin, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    await waitForPort(port, 10_000);
  };
  const stop = async () => {
    const p = proc;
    proc = null;
    if (!p || p.exitCode !== null) return;
    const exited = new Promise((r) => p.once('exit', r));
    p.kill('SIGKILL');
    await exited;
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, start, stop };
}

export async function ownPostgres() {
  const initdb = which('initdb', pgBinDirs());
  const pgCtl = which('pg_ctl', pgBinDirs());
  if (!initdb || !pgCtl) throw new Error('PostgreSQL binaries are not installed (Debian: apt-get install postgresql)');
  const isRoot = process.getuid?.() === 0;
  const asPg = (cmd: string, args: string[]) =>
    (isRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args]) as [string, string[]];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'backoffice-own-pg-'));
  if (isRoot) execFileSync('chown', ['postgres:postgres', dir]);
  const dataDir = path.join(dir, 'data');
  const port = await freePort();
  execFileSync(...asPg(initdb, ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '--no-sync']), { stdio: 'ignore' });
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  const start = async () => {
    execFileSync(...asPg(pgCtl, ['-D', dataDir, '-w', '-l', path.join(dir, 'pg.log'), '-o', opts, 'start']), {
      stdio: 'ignore',
    });
    await waitForPort(port, 20_000);
  };
  /** A fast shutdown: sessions are ended (57P01), new connections refused until start(). */
  const stop = async () => {
    execFileSync(...asPg(pgCtl, ['-D', dataDir, '-m', 'fast', '-w', 'stop']), { stdio: 'ignore' });
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    async remove() {
      await stop().catch(() => {});
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
