import { pino, type DestinationStream, type LoggerOptions } from 'pino';
import type { Config } from './config';
import { propOf, textOf } from './errors';

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

export function loggerOptions(config: Pick<Config, 'LOG_LEVEL'>): LoggerOptions {
  return {
    level: config.LOG_LEVEL,
    serializers: { err: safeError, error: safeError, req: safeRequest, res: safeResponse },
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.otp', '*.token', '*.passwordHash'],
      censor: '[redacted]',
    },
  };
}

export function createLogger(config: Pick<Config, 'LOG_LEVEL' | 'NODE_ENV'>, destination?: DestinationStream) {
  return destination ? pino(loggerOptions(config), destination) : pino(loggerOptions(config));
}
