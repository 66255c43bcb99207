import { ZodError } from 'zod';
import type { Refusal } from '@shared/refusals';

export type AppErrorCode =
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'PAYLOAD_TOO_LARGE'
  | 'TOO_MANY_REQUESTS'
  | 'SERVICE_UNAVAILABLE'
  | 'INTERNAL';

export const HTTP_STATUS: Record<AppErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL: 500,
};

/** tRPC has no 415 code; those map to BAD_REQUEST there. */
export const TRPC_CODE = {
  BAD_REQUEST: 'BAD_REQUEST',
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE: 'BAD_REQUEST',
  TOO_MANY_REQUESTS: 'TOO_MANY_REQUESTS',
  SERVICE_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
  INTERNAL: 'INTERNAL_SERVER_ERROR',
} as const satisfies Record<AppErrorCode, string>;

/**
 * The one error type services throw; tRPC's formatter and Fastify's handler map it. `refusal` is
 * the stable code (and its values) the portal translates (src/shared/refusals.ts); the message
 * stays the English answer every caller reads.
 */
export class AppError extends Error {
  constructor(
    public readonly code: AppErrorCode,
    message: string,
    public readonly details?: unknown,
    public readonly refusal?: Refusal,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/** An AppError that names its refusal for the portal. */
export function refusal(code: AppErrorCode, message: string, why: Refusal, details?: unknown): AppError {
  return new AppError(code, message, details, why);
}

function zodIssues(err: ZodError) {
  return err.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
}

/** The first issue's message is the user-facing one: schemas carry docs/product.md's exact texts. */
export function fromZodError(err: ZodError): AppError {
  const first = err.issues[0];
  const field = first?.path.map(String).join('.') ?? '';
  return new AppError('BAD_REQUEST', first?.message ?? 'Invalid input.', zodIssues(err), {
    code: 'invalid_input',
    params: { field },
  });
}

/** A property of a thrown value, whatever was thrown (drivers shape their errors differently). */
export function propOf(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? Reflect.get(value, key) : undefined;
}

/** A text property of a thrown value, or undefined. */
export function textOf(value: unknown, key: string): string | undefined {
  const v = propOf(value, key);
  return typeof v === 'string' ? v : undefined;
}

/** A text property of a database error or of the error it wraps (drizzle wraps the driver's). */
export function dbErrorText(err: unknown, key: string): string | undefined {
  return textOf(err, key) ?? textOf(propOf(err, 'cause'), key);
}

/** The error or the one it wraps carries this SQLSTATE. */
function hasSqlState(err: unknown, code: string): boolean {
  return textOf(err, 'code') === code || textOf(propOf(err, 'cause'), 'code') === code;
}

/** Postgres unique violations that slip past a service's own check (a race) become 409, not 500. */
export function isUniqueViolation(err: unknown): boolean {
  return hasSqlState(err, '23505');
}

export function isForeignKeyViolation(err: unknown): boolean {
  return hasSqlState(err, '23503');
}

/**
 * An exclusion constraint refused the row (two appointments overlapping: migration 0021). The
 * services answer it with the clash named; one that slips past them is still a 409.
 */
export function isExclusionViolation(err: unknown): boolean {
  return hasSqlState(err, '23P01');
}

/**
 * PostgreSQL "data exception" codes that only bad input can cause. The input schemas refuse such
 * values first (docs/security.md, "Input limits"); these turn one that slips through into a 400
 * instead of a 500. Every other database error stays a server fault.
 */
const BAD_INPUT_SQLSTATES: Record<string, string> = {
  '22P05': 'The text contains characters that are not allowed (such as NUL).',
  '22021': 'The text contains characters that are not allowed.',
  '22008': 'A date is out of range (years 1900 to 2100).',
  '22007': 'A date is not valid.',
  '22003': 'A number is out of range.',
  '22P02': 'A value has the wrong format.',
};

/** The 400 answer for a database error caused by input, or null for a real fault. */
export function fromBadInputDbError(err: unknown): AppError | null {
  const code = dbErrorText(err, 'code');
  const message = code ? BAD_INPUT_SQLSTATES[code] : undefined;
  return message ? new AppError('BAD_REQUEST', message, { sqlstate: code }) : null;
}

/** Seconds a throttled or turned-away caller should wait (a 429 or 503), for the Retry-After header. */
export function retryAfterOf(err: AppError): number | null {
  if (err.code !== 'TOO_MANY_REQUESTS' && err.code !== 'SERVICE_UNAVAILABLE') return null;
  const s = propOf(err.details, 'retryAfterSeconds');
  return typeof s === 'number' && s > 0 ? Math.ceil(s) : null;
}

export const UNAVAILABLE_MESSAGE = 'The service is briefly unavailable. Please try again in a moment.';

/** PostgreSQL is shutting down, restarting, or refusing connections (classes 08 and 57P, 53300). */
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '53300',
]);
/** postgres.js's and Node's own codes for a lost or refused connection. */
const UNAVAILABLE_CODES = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
]);

/**
 * A failure of the database or Redis connection rather than of the request: answered 503 with
 * Retry-After (docs/jobs.md#when-redis-or-postgresql-is-down) instead of 500, so callers retry.
 */
export function unavailableError(err: unknown): AppError | null {
  for (let e = err, depth = 0; e && depth < 4; e = propOf(e, 'cause'), depth++) {
    const code = textOf(e, 'code') ?? '';
    const message = textOf(e, 'message') ?? '';
    if (
      UNAVAILABLE_SQLSTATES.has(code) ||
      UNAVAILABLE_CODES.has(code) ||
      propOf(e, 'name') === 'MaxRetriesPerRequestError' ||
      message === 'Connection is closed.' ||
      message.startsWith("Stream isn't writeable")
    ) {
      return new AppError('SERVICE_UNAVAILABLE', UNAVAILABLE_MESSAGE, { retryAfterSeconds: 5 });
    }
  }
  return null;
}

/** A line the transport writes to its log for an answered error (it adds where: url or path). */
export interface ErrorLog {
  level: 'warn' | 'error';
  msg: string;
  fields: Record<string, unknown>;
}

/** What to answer for a thrown value, and what to log. */
export interface ErrorAnswer {
  /** The answer: its message, code and details are what the caller reads, on REST and tRPC alike. */
  error: AppError;
  /** The HTTP status: the code's, or Fastify's own for a request it refused before any route ran. */
  status: number;
  /** The `code` a REST answer carries: the AppError's, or Fastify's own (`FST_…`) for such a refusal. */
  code: string;
  log: ErrorLog | null;
}

const INTERNAL_MESSAGE = 'Something went wrong. Please try again.';

/** Our code for a status Fastify gave a request it refused (a body too large, a content type no parser takes). */
const CODE_OF_STATUS = new Map<number, AppErrorCode>(
  Object.entries(HTTP_STATUS).map(([code, status]) => [status, code as AppErrorCode]),
);

const answer = (error: AppError, log: ErrorLog | null = null): ErrorAnswer => ({
  error,
  status: HTTP_STATUS[error.code],
  code: error.code,
  log,
});

/**
 * The one mapping of anything thrown while answering a request to its answer: Fastify's error
 * handler and the tRPC middleware both call it, so a rule answers the same on /api and /trpc.
 * A service's AppError is answered as it is; a refused input (ZodError) is a 400 naming its first
 * issue; a unique, foreign-key or exclusion violation a check could not see (two writes at once) is a 409; a
 * database refusal of input a schema let through is a 400; an outage is a 503 to retry; anything
 * else is a 500 that says nothing internal and is logged.
 */
export function answerFor(err: unknown): ErrorAnswer {
  if (err instanceof AppError) {
    return answer(
      err,
      HTTP_STATUS[err.code] >= 500 ? { level: 'error', msg: 'request failed', fields: { err } } : null,
    );
  }
  if (err instanceof ZodError) return answer(fromZodError(err));
  const unavailable = unavailableError(err);
  if (unavailable) {
    return answer(unavailable, { level: 'warn', msg: 'dependency unavailable: answered 503', fields: { err } });
  }
  const badInput = fromBadInputDbError(err);
  if (badInput) {
    // A schema let this value through: answered 400, and logged so that the schema gets fixed.
    const sqlstate = propOf(badInput.details, 'sqlstate');
    return answer(badInput, { level: 'warn', msg: 'input refused by the database', fields: { sqlstate } });
  }
  if (isUniqueViolation(err)) return answer(new AppError('CONFLICT', 'That record already exists.'));
  if (isForeignKeyViolation(err)) return answer(new AppError('CONFLICT', 'That record is still referenced elsewhere.'));
  if (isExclusionViolation(err)) return answer(new AppError('CONFLICT', 'That time overlaps another record.'));
  const status = propOf(err, 'statusCode');
  if (typeof status === 'number' && status >= 400 && status < 500) {
    // Fastify refused the request itself; its status and code are kept as it gives them.
    const message = textOf(err, 'message') ?? 'Bad request.';
    return {
      error: new AppError(CODE_OF_STATUS.get(status) ?? 'BAD_REQUEST', message),
      status,
      code: textOf(err, 'code') ?? 'BAD_REQUEST',
      log: null,
    };
  }
  return answer(new AppError('INTERNAL', INTERNAL_MESSAGE), {
    level: 'error',
    msg: 'unexpected error',
    fields: { err },
  });
}
