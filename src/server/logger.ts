import { pino, stdSerializers, type DestinationStream, type LoggerOptions } from 'pino';
import type { Config } from './config';

/**
 * An error as logged: its type, a message without values, the SQL text and the database's error
 * code and constraint, never the statement's parameters (argon2 hashes, emails, phones and
 * addresses travel there) nor PostgreSQL's `detail`, which repeats the row's values
 * (docs/security.md#logs).
 */
export function safeError(err: unknown, depth = 0): unknown {
  if (!(err instanceof Error) || depth > 3) return err;
  const e = err as Error & Record<string, unknown>;
  const query = typeof e.query === 'string' ? e.query : undefined;
  // drizzle puts the parameters in its message ("Failed query: ... params: ..."): keep the text only.
  const message = query && e.message.startsWith('Failed query:') ? `Failed query: ${query}` : e.message;
  const stackFrames = (e.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  return {
    type: e.name,
    message,
    ...(query ? { query } : {}),
    ...pick(e, ['code', 'severity', 'constraint_name', 'table_name', 'column_name', 'routine', 'statusCode']),
    stack: [`${e.name}: ${message}`, ...stackFrames].join('\n'),
    ...(e.cause ? { cause: safeError(e.cause, depth + 1) } : {}),
  };
}

function pick(e: Record<string, unknown>, keys: string[]) {
  return Object.fromEntries(
    keys.filter((k) => typeof e[k] === 'string' || typeof e[k] === 'number').map((k) => [k, e[k]]),
  );
}

/** Requests are logged by path: query strings carry search terms (names, emails, phones). */
function safeRequest(req: { method?: string; url?: string; ip?: string; socket?: { remoteAddress?: string } }) {
  return { method: req.method, url: req.url?.split('?')[0], remoteAddress: req.ip ?? req.socket?.remoteAddress };
}

export function loggerOptions(config: Pick<Config, 'LOG_LEVEL'>): LoggerOptions {
  return {
    level: config.LOG_LEVEL,
    serializers: { err: safeError, error: safeError, req: safeRequest, res: stdSerializers.res },
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.otp', '*.token', '*.passwordHash'],
      censor: '[redacted]',
    },
  };
}

export function createLogger(config: Pick<Config, 'LOG_LEVEL' | 'NODE_ENV'>, destination?: DestinationStream) {
  return destination ? pino(loggerOptions(config), destination) : pino(loggerOptions(config));
}
