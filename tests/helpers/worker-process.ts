import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * `npm run worker` as a separate process with the given settings (database, Redis, queue
 * prefix...) on top of quiet test defaults; resolves once it logs that it is ready.
 */
export async function spawnWorker(env: Record<string, string>): Promise<ChildProcess> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'worker/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      REMINDER_SCHEDULE: 'false',
      RESEND_API_KEY: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const ready = new Promise<void>((resolve, reject) => {
    proc.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('"worker ready"')) resolve();
    });
    proc.stderr.on('data', (c: Buffer) => (out += c.toString()));
    proc.once('exit', (code) => reject(new Error(`worker exited with ${code} before it was ready:\n${out}`)));
    setTimeout(() => reject(new Error(`worker not ready in time:\n${out}`)), 45_000).unref();
  });
  // A worker that never got ready is nobody's to stop later.
  await ready.catch((err: unknown) => {
    proc.kill('SIGKILL');
    throw err;
  });
  proc.stdout.resume();
  return proc;
}

/** Signals the worker and answers its exit code (at once when it has already exited). */
export async function stopWorkerProcess(proc: ChildProcess, signal: NodeJS.Signals): Promise<number | null> {
  if (proc.exitCode !== null || proc.signalCode !== null) return proc.exitCode;
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  proc.kill(signal);
  return exited;
}
