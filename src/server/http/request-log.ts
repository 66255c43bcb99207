import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { pino } from 'pino';
import { requestLogLevel } from '../logger';

declare module 'fastify' {
  interface FastifyRequest {
    /** performance.now() when the request's first hook ran: the request log's clock. */
    startedAt: number;
    /** Whether the request's line waits for the end of its answer (logAtEnd). */
    loggedAtEnd: boolean;
  }
}

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type Bindings = Record<string, unknown>;

/** Whether `log` writes lines of `level`, by pino's level numbers; 'silent' has none and writes nothing. */
const isEnabled = (log: FastifyBaseLogger, level: Level) =>
  pino.levels.values[level]! >= (pino.levels.values[log.level] ?? Infinity);

/**
 * A request's logger (`req.log`, which Fastify and its plugins log to as well), made into a pino
 * child, with the request id bound, only when something is written. Most requests write nothing
 * (a quick successful read logs at debug), and a pino child per request, with its bindings
 * written out as JSON, was a measurable part of a short answer
 * (docs/performance.md#the-request-log).
 */
class RequestLogger implements FastifyBaseLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly base: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: object | undefined,
  ) {}

  get level(): string {
    return (this.made ?? this.base).level;
  }

  set level(level: string) {
    this.logger().level = level;
  }

  fatal(...args: unknown[]) {
    this.write('fatal', args);
  }
  error(...args: unknown[]) {
    this.write('error', args);
  }
  warn(...args: unknown[]) {
    this.write('warn', args);
  }
  info(...args: unknown[]) {
    this.write('info', args);
  }
  debug(...args: unknown[]) {
    this.write('debug', args);
  }
  trace(...args: unknown[]) {
    this.write('trace', args);
  }
  silent() {}

  child(bindings: Bindings, options?: object): FastifyBaseLogger {
    return this.logger().child(bindings, options);
  }

  /** The level is checked before the child is made. */
  private write(level: Level, args: unknown[]) {
    if (!isEnabled(this.made ?? this.base, level)) return;
    const logger = this.logger();
    Reflect.apply(logger[level], logger, args);
  }

  private logger(): FastifyBaseLogger {
    return (this.made ??= this.options ? this.base.child(this.bindings, this.options) : this.base.child(this.bindings));
  }
}

/**
 * Fastify's logger options for the server: none of its own, and a request logger made from `log`
 * when used. Fastify given a logger makes a child for every request and listens for the end of
 * every answer to run its request logging (turned off here: ours is below); without one it does
 * neither, and `childLoggerFactory` still gives every request its `req.log`.
 */
export function requestLoggerOptions(log: FastifyBaseLogger): Pick<FastifyServerOptions, 'childLoggerFactory'> {
  return {
    childLoggerFactory: (_logger, bindings, options) =>
      new RequestLogger(log, bindings, Object.keys(options).length > 0 ? options : undefined),
  };
}

/**
 * One line per request (method, path without its query, address), its status and how long it
 * took, written when the answer is finished: what Fastify's "incoming request" and "request
 * completed" lines said together, at half the writes. A quick successful read is logged at debug
 * (`requestLogLevel`): when debug is off, such an answer waits for nothing after it is sent. A
 * stream (a report, a file) is timed to its end, since its time is in the sending.
 */
export function registerRequestLog(app: FastifyInstance, log: FastifyBaseLogger, slowMs: number) {
  app.decorateRequest('startedAt', 0);
  app.decorateRequest('loggedAtEnd', false);
  // The first hook of every request (registered before any other), so the time counts them all.
  app.addHook('onRequest', (req, _reply, done) => {
    req.startedAt = performance.now();
    done();
  });
  app.addHook('onSend', (req, reply, payload, done) => {
    // onSend runs again when a later onSend hook fails and the error is sent instead: one line.
    if (!req.loggedAtEnd) {
      const inMemory = payload === null || typeof payload === 'string' || Buffer.isBuffer(payload);
      const soFar = requestLogLevel(req.method, reply.statusCode, performance.now() - req.startedAt, slowMs);
      if (!inMemory || soFar !== 'debug' || isEnabled(log, 'debug')) logAtEnd(req, reply, slowMs);
    }
    done(null, payload);
  });
}

/** Writes the request's line when its answer ends: sent in full ('finish') or failed ('error'). */
function logAtEnd(req: FastifyRequest, reply: FastifyReply, slowMs: number) {
  req.loggedAtEnd = true;
  const res = reply.raw;
  const ended = () => {
    res.off('finish', ended);
    res.off('error', ended);
    const ms = performance.now() - req.startedAt;
    const level = requestLogLevel(req.method, reply.statusCode, ms, slowMs);
    req.log[level]({ req, res, responseTime: ms }, 'request completed');
  };
  res.on('finish', ended);
  res.on('error', ended);
}
