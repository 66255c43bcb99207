import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTRPCClient, httpLink } from '@trpc/client';
import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { inject } from 'vitest';
import { buildApp } from '../../src/server/app';
import { createSession } from '../../src/server/auth/sessions';
import { assembleDeps } from '../../src/server/bootstrap';
import { loadConfig, type Config } from '../../src/server/config';
import { openDatabase } from '../../src/server/db/client';
import { createLogger } from '../../src/server/logger';
import type { AppDeps } from '../../src/server/deps';
import { unavailableError } from '../../src/server/errors';
import type { AppRouter } from '../../src/server/trpc/root';
import type { Role } from '../../src/shared/roles';
import { findSecretsInAudit } from './audit-secrets';
import { createTestDatabase } from './db';
import { makeUser, type MadeUser } from './factories';

export interface TestApp {
  app: FastifyInstance;
  deps: AppDeps;
  /** http://127.0.0.1:PORT */
  baseUrl: string;
  /**
   * A REST call as a bearer-token client (or anonymous). Answers status and parsed JSON body,
   * typed `T` when the test names the answer's shape, else read loosely as the caller would.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- an unnamed answer is read loosely on purpose
  api<T = any>(
    method: string,
    path: string,
    opts?: { token?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<{ status: number; body: T; headers: Headers }>;
  /** A typed tRPC client over real HTTP; with a token it is that user. */
  trpc(token?: string): ReturnType<typeof createTRPCClient<AppRouter>>;
  /** A user of the role with a live session (token for bearer calls). */
  userWithSession(
    role: Role,
    overrides?: Partial<Parameters<typeof makeUser>[1]>,
  ): Promise<MadeUser & { token: string }>;
  close(): Promise<void>;
}

/**
 * A folder for an embedded (PGlite) database, removed at close: a copy of the run's migrated
 * template (tests/setup/pglite-template.ts), so a test pays for a copy, not initdb and migrations.
 */
function embeddedDatabase() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'backoffice-embedded-'));
  fs.cpSync(inject('pgliteTemplate'), dataDir, { recursive: true });
  return {
    url: undefined,
    dataDir,
    drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
  };
}

/**
 * The real server on a real PostgreSQL database of its own, listening on a free port. With
 * `sameDatabaseAs`, a second server instance on another app's database (left to that app to drop);
 * with `embedded`, the server as `npm start` runs it without DATABASE_URL, on PGlite.
 */
export async function startTestApp(
  overrides: Partial<Config> = {},
  opts: {
    sameDatabaseAs?: TestApp;
    /** Where the server's log lines go (at info level), to read them. */
    logTo?: DestinationStream;
    /** A database of the test's own (migrated here, never dropped), e.g. on a server it restarts. */
    databaseUrl?: string;
    /** The embedded mode (`npm start` without DATABASE_URL): PGlite in a throwaway folder. */
    embedded?: boolean;
    /** PostgreSQL connections of the server's pool (5); 1 lets a test read that connection's state. */
    connections?: number;
  } = {},
): Promise<TestApp> {
  const sharedUrl = opts.sameDatabaseAs?.deps.config.DATABASE_URL ?? opts.databaseUrl;
  const database = opts.embedded
    ? embeddedDatabase()
    : sharedUrl
      ? { url: sharedUrl, drop: async () => {} }
      : await createTestDatabase();
  const config = {
    ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', REMINDER_SCHEDULE: 'false' }),
    DATABASE_URL: database.url,
    ...('dataDir' in database ? { DATA_DIR: database.dataDir } : {}),
    ...overrides,
  };
  const dbHandle = await openDatabase({
    databaseUrl: database.url,
    dataDir: config.DATA_DIR,
    max: opts.connections ?? 5,
  });
  // As the server does: the embedded database migrates at every start; a role that may not change
  // the schema starts with MIGRATE_ON_START=false.
  if (opts.embedded || (opts.databaseUrl && config.MIGRATE_ON_START)) await dbHandle.migrate();
  const log = opts.logTo
    ? createLogger({ LOG_LEVEL: 'info', NODE_ENV: 'test' }, opts.logTo)
    : createLogger({ LOG_LEVEL: (process.env.TEST_LOG_LEVEL ?? 'silent') as Config['LOG_LEVEL'], NODE_ENV: 'test' });
  const deps = await assembleDeps(config, log, dbHandle);
  const app = await buildApp(deps, { serveClient: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  /** Session tokens this server handed out, looked for in the audit log at close. */
  const tokens = new Set<string>();

  return {
    app,
    deps,
    baseUrl,
    async api<T>(method: string, path: string, opts: Parameters<TestApp['api']>[2] = {}) {
      const headers: Record<string, string> = { ...opts.headers };
      if (opts.token) headers.authorization = `Bearer ${opts.token}`;
      let body: string | undefined;
      if (opts.body !== undefined) {
        headers['content-type'] ??= 'application/json';
        body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
      }
      const res = await fetch(baseUrl + path, { method, headers, body });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        /* not JSON */
      }
      const token = (parsed as { token?: unknown } | null)?.token;
      if (typeof token === 'string') tokens.add(token);
      return { status: res.status, body: parsed as T, headers: res.headers };
    },
    trpc(token) {
      return createTRPCClient<AppRouter>({
        links: [
          httpLink({ url: `${baseUrl}/trpc`, headers: () => (token ? { authorization: `Bearer ${token}` } : {}) }),
        ],
      });
    },
    async userWithSession(role, o = {}) {
      const user = await makeUser(deps.db, { role, ...o });
      const { token } = await createSession(deps.db, user.id, deps.sessionPolicy);
      tokens.add(token);
      return { ...user, token };
    },
    async close() {
      await app.close();
      // A database this test stopped (an outage test) cannot be scanned; any other failure is a finding.
      const leaks = await findSecretsInAudit(deps.db, tokens).catch((err: unknown) => {
        if (unavailableError(err)) return [];
        throw err;
      });
      await deps.jobs.close();
      await dbHandle.close();
      await database.drop();
      if (leaks.length) throw new Error(`The audit log holds secrets:\n${leaks.join('\n')}`);
    },
  };
}
