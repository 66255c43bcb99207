import { spawn, type ChildProcess } from 'node:child_process';
import { freePort, startPostgresCluster, waitForPort, which } from '../setup/services';

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
  const pg = await startPostgresCluster('backoffice-own-pg-');
  if (!pg) throw new Error('PostgreSQL binaries are not installed (Debian: apt-get install postgresql)');
  return pg;
}
