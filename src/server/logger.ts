import { pino, type DestinationStream, type LoggerOptions } from 'pino';
import type { Config } from './config';
import { propOf, textOf } from './errors';
import { isReadMethod } from './http/methods';

/**
 * An error as logged: its type, a message without values, the SQL text and the database's error
 * code and constraint, never the statement's parameters (argon2 hashes, emails, phones and
 * addresses travel there) nor PostgreSQL's `detail`, which repeats the row's values
 * (docs/security.md#logs).
 */
export function safeError(err: unknown, depth = 0): unknown {
  if (!(err instanceof Error) || depth > 3) return err;
  const query = textOf(err, 'query');
  // drizzle puts the parameters in its message ("Failed query: ... params: ..."): keep the text only.
  const message = query && err.message.startsWith('Failed query:') ? `Failed query: ${query}` : err.message;
  const stackFrames = (err.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  return {
    type: err.name,
    message,
    ...(query ? { query } : {}),
    ...pick(err, ['code', 'severity', 'constraint_name', 'table_name', 'column_name', 'routine', 'statusCode']),
    stack: [`${err.name}: ${message}`, ...stackFrames].join('\n'),
    ...(err.cause ? { cause: safeError(err.cause, depth + 1) } : {}),
  };
}

function pick(e: Error, keys: string[]) {
  return Object.fromEntries(
    keys
      .map((k): [string, unknown] => [k, propOf(e, k)])
      .filter(([, v]) => typeof v === 'string' || typeof v === 'number'),
  );
}

/** Requests are logged by path: query strings carry search terms (names, emails, phones). */
function safeRequest(req: { method?: string; url?: string; ip?: string; socket?: { remoteAddress?: string } }) {
  return { method: req.method, url: req.url?.split('?')[0], remoteAddress: req.ip ?? req.socket?.remoteAddress };
}

/**
 * An answer is logged by its status only: its headers carry the session a sign-in hands out
 * (`Set-Cookie`), and serialising every header of every answer was measurable CPU.
 */
function safeResponse(res: { statusCode?: number }) {
  return { statusCode: res.statusCode };
}

/**
 * The level of a request's "request completed" line. Writes, refusals and failures (status 400 and
 * over) and slow answers are what an operator looks for, so they are logged at info; a read
 * answered with success within `slowMs` is logged at debug. One line per read was a third of the
 * server's CPU on a short answer, more than the answer itself (docs/performance.md#the-request-log).
 */
export function requestLogLevel(method: string, statusCode: number, ms: number, slowMs: number): 'info' | 'debug' {
  if (statusCode >= 400 || ms >= slowMs) return 'info';
  return isReadMethod(method) ? 'debug' : 'info';
}

/** Fields never written to the log, at the top of a logged object or one level down (`user.password`). */
const SECRET_FIELDS = ['password', 'otp', 'token', 'passwordHash'] as const;
/** Request headers never written to the log, in any logged value's `headers`. */
const SECRET_HEADERS = ['authorization', 'cookie'] as const;
const REDACTED = '[redacted]';

/** The keys whose serializers above write only named, safe fields: left to them. */
const SERIALIZED = new Set(['req', 'res', 'err', 'error']);

/** A shallow copy keeping the prototype (an Error stays an Error). */
function copyOf(value: object): Record<string, unknown> {
  const copy = Object.create(Object.getPrototypeOf(value) as object | null) as Record<string, unknown>;
  return Object.assign(copy, value);
}

/** `value` with `keys` replaced by REDACTED: a copy when one is present, else `value` itself. */
function censored(value: object, keys: readonly string[]): object {
  let copy: Record<string, unknown> | undefined;
  for (const key of keys) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    copy ??= copyOf(value);
    copy[key] = REDACTED;
  }
  return copy ?? value;
}

function hideInValue(value: object): object {
  let out = censored(value, SECRET_FIELDS);
  const headers = (value as { headers?: unknown }).headers;
  if (headers && typeof headers === 'object') {
    const safe = censored(headers, SECRET_HEADERS);
    if (safe !== headers) {
      if (out === value) out = copyOf(value);
      // Defined, not assigned: `headers` may be an accessor on the value's prototype.
      Object.defineProperty(out, 'headers', { value: safe, enumerable: true });
    }
  }
  return out;
}

/**
 * Secrets are replaced by "[redacted]" in whatever is logged (a secret field at the top of the
 * logged object or one level down, the Authorization and Cookie of any `headers`), and the
 * logged object itself is never changed. Written out instead of pino's `redact`, which copied
 * every top-level value of every line to look for them: about 10 µs a line, a fifth of the CPU
 * of a short answer (docs/performance.md#where-the-products-time-goes); this copies only a value
 * that holds a secret.
 */
function hideSecrets(object: Record<string, unknown>): Record<string, unknown> {
  let out = censored(object, SECRET_FIELDS) as Record<string, unknown>;
  for (const key in object) {
    const value = object[key];
    if (value === null || typeof value !== 'object' || SERIALIZED.has(key)) continue;
    const hidden = hideInValue(value);
    if (hidden === value) continue;
    if (out === object) out = { ...object };
    out[key] = hidden;
  }
  return out;
}

export function loggerOptions(config: Pick<Config, 'LOG_LEVEL'>): LoggerOptions {
  return {
    level: config.LOG_LEVEL,
    serializers: { err: safeError, error: safeError, req: safeRequest, res: safeResponse },
    formatters: { log: hideSecrets },
  };
}

export function createLogger(config: Pick<Config, 'LOG_LEVEL' | 'NODE_ENV'>, destination?: DestinationStream) {
  return destination ? pino(loggerOptions(config), destination) : pino(loggerOptions(config));
}
