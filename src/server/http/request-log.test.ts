import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger';
import { requestLoggerOptions } from './request-log';

function capture(level: 'info' | 'debug') {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const log = createLogger({ LOG_LEVEL: level, NODE_ENV: 'production' }, sink);
  const { childLoggerFactory } = requestLoggerOptions(log);
  // What Fastify does for each request: the factory gets the request id binding and options.
  const requestLog = (reqId: string) => childLoggerFactory!.call(null as never, log, { reqId }, {}, null as never);
  return { lines, requestLog };
}

describe("a request's logger", () => {
  it('writes with the request id bound, and nothing below the level', () => {
    const { lines, requestLog } = capture('info');
    const log = requestLog('req-7');
    expect(log.level).toBe('info');
    log.debug({ secretless: true }, 'quick read');
    log.trace('even quieter');
    expect(lines).toHaveLength(0);

    log.warn({ password: 'never-logged' }, 'refused');
    expect(lines).toEqual([
      expect.objectContaining({ level: 40, reqId: 'req-7', msg: 'refused', password: '[redacted]' }),
    ]);
  });

  it('writes debug lines when the level allows them, and keeps the id in its children', () => {
    const { lines, requestLog } = capture('debug');
    const log = requestLog('req-8');
    log.debug('quick read');
    log.child({ part: 'upload' }).error('failed');
    expect(lines).toEqual([
      expect.objectContaining({ level: 20, reqId: 'req-8', msg: 'quick read' }),
      expect.objectContaining({ level: 50, reqId: 'req-8', part: 'upload', msg: 'failed' }),
    ]);
  });

  it('follows a level set on it alone', () => {
    const { lines, requestLog } = capture('info');
    const log = requestLog('req-9');
    log.level = 'debug';
    log.debug('now shown');
    requestLog('req-10').debug('not this one');
    expect(lines).toEqual([expect.objectContaining({ level: 20, reqId: 'req-9', msg: 'now shown' })]);
  });
});
