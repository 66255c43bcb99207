import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import type { TestProject } from 'vitest/node';
import { DEMO_PASSWORD } from '../../../src/server/seed/demo-users';
import { freePort, startServices, withDatabase } from '../../setup/services';
import { startSmsGateway } from './sms-gateway';

export interface E2eEnv {
  /** http://127.0.0.1:PORT, the real server serving the built client. */
  baseUrl: string;
  /** The seeded superadmin (SEED_ADMIN_EMAIL / SEED_ADMIN_PASSWORD). */
  superadmin: { email: string; password: string };
  /** Password of every demo account (admin@, manager@, student1@, customer1@, user1@example.com ...). */
  demoPassword: string;
  /** The server's database, for reading what a user cannot see in a browser (the email outbox). */
  databaseUrl: string;
  /** The stand-in SMS gateway's control address: `POST { mode: 'accept' | 'refuse' | 'fail' }` (setup/sms-gateway.ts). */
  smsGatewayControl: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    e2e: E2eEnv;
  }
}

const root = path.resolve(import.meta.dirname, '../../..');
const SUPERADMIN = { email: 'superadmin@example.com', password: 'e2e-superadmin-pass' };

/**
 * Starts PostgreSQL (tests/setup/services.ts), a fresh database, and the real server as a child
 * process, doing at start what `npm start` does (migrations, seed with demo data, the built
 * client). It runs the server's sources through tsx rather than the bundle, and without the start
 * script's V8 flags, which change speed, not behaviour (tests/integration/start-flags.test.ts
 * checks that Node accepts them).
 */
export default async function setup(project: TestProject) {
  if (!fs.existsSync(path.join(root, 'dist/client/index.html'))) {
    throw new Error('The client is not built: run `npm run test:e2e` (it runs `vite build` first).');
  }
  const services = await startServices();
  const dbName = `e2e_${randomBytes(5).toString('hex')}`;
  const admin = postgres(services.databaseUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${dbName}`);
  await admin.end();
  const databaseUrl = withDatabase(services.databaseUrl, dbName);

  const port = await freePort();
  const sms = await startSmsGateway();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'backoffice-e2e-'));
  const output: string[] = [];
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      // No REDIS_URL: jobs run inside the server process, as in the embedded mode.
      REDIS_URL: '',
      DATA_DIR: dataDir,
      SEED_ADMIN_EMAIL: SUPERADMIN.email,
      SEED_ADMIN_PASSWORD: SUPERADMIN.password,
      SEED_DEMO: 'true',
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
      // SMS go through the real gateway driver to a local stand-in that tests can make refuse.
      SMS_GATEWAY_URL: sms.sendUrl,
      SMS_GATEWAY_MESSAGE_ID_PATH: 'id',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 200) output.shift();
    if (process.env.E2E_SERVER_OUTPUT) process.stderr.write(chunk);
  };
  server.stdout.on('data', keep);
  server.stderr.on('data', keep);

  const baseUrl = `http://127.0.0.1:${port}`;
  const stopAll = async () => {
    await stopProcess(server);
    await sms.close();
    const a = postgres(services.databaseUrl, { max: 1, onnotice: () => {} });
    await a.unsafe(`drop database if exists ${dbName} with (force)`).catch(() => {});
    await a.end();
    await services.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    await waitForHealth(baseUrl, server, 90_000);
  } catch (err) {
    await stopAll();
    throw new Error(`${(err as Error).message}\n--- server output ---\n${output.join('')}`);
  }
  console.log(`[e2e] server at ${baseUrl} on PostgreSQL from ${services.source}`);

  project.provide('e2e', {
    baseUrl,
    superadmin: SUPERADMIN,
    demoPassword: DEMO_PASSWORD,
    databaseUrl,
    smsGatewayControl: sms.controlUrl,
  });
  return stopAll;
}

async function waitForHealth(baseUrl: string, server: ChildProcess, timeoutMs: number) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (server.exitCode !== null)
      throw new Error(`The server exited with code ${server.exitCode} before it was ready.`);
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`The server did not answer /api/health within ${timeoutMs} ms.`);
}

async function stopProcess(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
