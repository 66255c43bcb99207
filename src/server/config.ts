import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const ZConfig = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  /** Public origin of the app (scheme://host[:port]); when unset, the request's Host is trusted. */
  APP_ORIGIN: z.string().url().optional(),
  APP_NAME: z.string().default('Institute & Clinic Back Office'),
  /**
   * The proxies whose X-Forwarded-For is believed: a hop count ("1") or a comma-separated list of
   * addresses and CIDR ranges. Unset, the address of the connection is the client's.
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .regex(
      /^(\d+|[0-9a-fA-F.:/]+(\s*,\s*[0-9a-fA-F.:/]+)*)$/,
      'TRUST_PROXY takes a hop count or a comma-separated list of addresses or CIDR ranges',
    )
    .optional(),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  /**
   * Apply pending migrations at start (PostgreSQL). Off when the server runs under a role that
   * may not change the schema: the owner runs `npm run db:migrate` instead (docs/audit.md).
   */
  MIGRATE_ON_START: bool.default(true),
  REDIS_URL: z.string().optional(),
  RESEND_API_KEY: z.string().optional(),
  EMAIL_FROM: z.string().default('Back Office <no-reply@example.com>'),
  SEED_ADMIN_EMAIL: z.string().email().default('admin@example.com'),
  SEED_ADMIN_PASSWORD: z.string().min(8).optional(),
  SEED_DEMO: bool.default(true),
  /**
   * Signs the device cookies that let a browser which signed in before past an address's lock-out
   * (docs/security.md#device-cookies). Unset: a random secret stored in the database at first start.
   */
  DEVICE_COOKIE_SECRET: z.string().min(32, 'DEVICE_COOKIE_SECRET must be at least 32 characters').optional(),
  SESSION_IDLE_HOURS: z.coerce.number().positive().default(12),
  SESSION_MAX_DAYS: z.coerce.number().positive().default(7),
  /** How long a server may reuse a session it validated; other servers see a sign-out within it. */
  SESSION_CACHE_SECONDS: z.coerce.number().min(0).max(10).default(5),
  /** How long the payments dashboard may reuse an answer when this server has written nothing (0 = never). */
  DASHBOARD_CACHE_SECONDS: z.coerce.number().min(0).max(30).default(30),
  /**
   * How many days back a manager may date a payment's receipt; admins may go further, never before
   * the enrolment or booking existed (docs/payments.md#recording-a-payment).
   */
  BACKDATE_DAYS: z.coerce.number().int().min(0).max(3650).default(31),
  /** Daily reminder time, HH:MM, in TIME_ZONE. */
  REMINDER_TIME: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/)
    .default('08:00'),
  TIME_ZONE: z.string().default('Asia/Colombo'),
  /** Appointment availability offers a start every this many minutes from each working period's start. */
  SLOT_STEP_MINUTES: z.coerce.number().int().min(5).max(120).default(15),
  /** A student under this attendance rate (per cent) is falling behind (docs/classes.md#falling-behind). */
  ATTENDANCE_THRESHOLD: z.coerce.number().min(0).max(100).default(75),
  /** Reports with more rows than this are built by the worker. */
  REPORT_JOB_THRESHOLD: z.coerce.number().int().positive().default(2000),
  /** BullMQ key prefix: lets several deployments (or test files) share one Redis. */
  JOB_QUEUE_PREFIX: z.string().min(1).default('bull'),
  /** How often a dead worker's active jobs are looked for (and how long a job lock lasts). */
  JOB_STALLED_INTERVAL_MS: z.coerce.number().int().min(200).default(30_000),
  /** First retry delay; each further retry doubles it. */
  JOB_BACKOFF_MS: z.coerce.number().int().min(0).default(5_000),
  JOB_ATTEMPTS: z.coerce.number().int().min(1).default(3),
  JOB_CONCURRENCY: z.coerce.number().int().min(1).default(4),
  /** How long a stopping worker waits for its jobs and stores before it exits anyway (exit code 1). */
  JOB_SHUTDOWN_MS: z.coerce.number().int().min(100).default(10_000),
  /** Run the daily reminder schedule in this process (off for test servers that share nothing with a clock). */
  REMINDER_SCHEDULE: bool.default(true),
  /** Resend's API origin (a local stand-in in tests); the SDK's default otherwise. */
  RESEND_BASE_URL: z.string().url().optional(),
  /**
   * Audit retention (docs/audit.md#retention): entries older than this many months are archived to
   * a JSON-lines file in AUDIT_ARCHIVE_DIR and removed, once a day by the job worker. Unset: kept forever.
   */
  AUDIT_RETENTION_MONTHS: z.coerce.number().int().min(1).max(1200).optional(),
  /** Where the archive files go; `<DATA_DIR>/audit-archive` when unset. */
  AUDIT_ARCHIVE_DIR: z.string().optional(),
  /**
   * Messages (docs/messages.md): the SMS gateway. Unset URL: SMS go to the development outbox (the
   * delivery log) and nothing leaves. The body and URL take {to}, {text} and {id} (the message's
   * own unique key, for a gateway that accepts a client reference).
   */
  SMS_GATEWAY_URL: z.string().url().optional(),
  SMS_GATEWAY_METHOD: z.enum(['GET', 'POST', 'PUT']).default('POST'),
  /** Request headers as a JSON object, e.g. {"Authorization":"Bearer …","Content-Type":"application/json"}. */
  SMS_GATEWAY_HEADERS: z
    .string()
    .refine((s) => {
      try {
        const v: unknown = JSON.parse(s);
        return typeof v === 'object' && v !== null && !Array.isArray(v);
      } catch {
        return false;
      }
    }, 'SMS_GATEWAY_HEADERS must be a JSON object')
    .default('{"Content-Type":"application/json"}'),
  SMS_GATEWAY_BODY: z.string().default('{"to":"{to}","text":"{text}"}'),
  /** Dot path of the provider's message id in the JSON answer (e.g. data.id, messages.0.id). */
  SMS_GATEWAY_MESSAGE_ID_PATH: z.string().optional(),
  SMS_GATEWAY_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /** Signs the opt-out links in e-mails. Unset: a random secret stored in the database at first start. */
  MESSAGE_LINK_SECRET: z.string().min(32, 'MESSAGE_LINK_SECRET must be at least 32 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * A read (GET, HEAD, OPTIONS) answered with success in less than this many milliseconds is logged
   * at debug; every other request at info (docs/security.md#logs).
   */
  LOG_SLOW_MS: z.coerce.number().int().min(0).default(1000),
});

export type Config = z.infer<typeof ZConfig>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ZConfig.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  return parsed.data;
}

/** TRUST_PROXY as Fastify's trustProxy option: false when unset (trust no forwarded header). */
export function trustProxyOf(
  config: Pick<Config, 'TRUST_PROXY'>,
): boolean | string | ((address: string, hop: number) => boolean) {
  const v = config.TRUST_PROXY;
  if (!v) return false;
  if (/^\d+$/.test(v)) {
    const hops = Number(v);
    // The closest `hops` proxies are believed, whatever their addresses.
    return (_address, hop) => hop < hops;
  }
  // Fastify takes the list as one comma-separated string.
  return v
    .split(',')
    .map((s) => s.trim())
    .join(',');
}
