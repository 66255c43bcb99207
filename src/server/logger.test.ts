import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, requestLogLevel } from './logger';

function capture() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const log = createLogger({ LOG_LEVEL: 'info', NODE_ENV: 'production' }, sink);
  return { log, lines, last: () => JSON.parse(lines.at(-1)!) as Record<string, unknown> };
}

describe('log lines hide secrets', () => {
  it('redacts secret fields at the top and one level down, and headers that carry a session', () => {
    const { log, lines, last } = capture();
    const user = { email: 'nurse@example.com', password: 'pw-Secret-1', passwordHash: '$argon2id$abc' };
    const sent = { to: 'a@example.com', otp: '482913', token: 'reset-token-9' };
    const call = { headers: { authorization: 'Bearer session-abc', cookie: 'session=session-def', accept: 'json' } };
    log.info({ user, sent, call, password: 'top-level-pw', note: 'kept' }, 'something happened');

    expect(last()).toMatchObject({
      msg: 'something happened',
      note: 'kept',
      password: '[redacted]',
      user: { email: 'nurse@example.com', password: '[redacted]', passwordHash: '[redacted]' },
      sent: { to: 'a@example.com', otp: '[redacted]', token: '[redacted]' },
      call: { headers: { authorization: '[redacted]', cookie: '[redacted]', accept: 'json' } },
    });
    for (const secret of [
      'pw-Secret-1',
      '$argon2id',
      '482913',
      'reset-token-9',
      'session-abc',
      'session-def',
      'top-level-pw',
    ])
      expect(lines.join('')).not.toContain(secret);
  });

  it('leaves the logged objects as they were', () => {
    const { log } = capture();
    const user = { email: 'nurse@example.com', password: 'pw-Secret-1' };
    const call = { headers: { authorization: 'Bearer session-abc' } };
    log.info({ user, call }, 'logged');
    expect(user.password).toBe('pw-Secret-1');
    expect(call.headers.authorization).toBe('Bearer session-abc');
  });

  it('writes a request by its method, path and address only', () => {
    const { log, last } = capture();
    const req = {
      method: 'GET',
      url: '/api/users?search=private%40example.com',
      ip: '10.0.0.7',
      headers: { authorization: 'Bearer session-abc' },
    };
    log.info({ req, res: { statusCode: 200, getHeaders: () => ({ 'set-cookie': 'session=x' }) } }, 'request completed');
    expect(last()).toMatchObject({
      req: { method: 'GET', url: '/api/users', remoteAddress: '10.0.0.7' },
      res: { statusCode: 200 },
    });
    expect(JSON.stringify(last())).not.toMatch(/session|private/);
  });
});

describe('request log level', () => {
  it('logs writes, refusals, failures and slow answers at info, quick successful reads at debug', () => {
    expect(requestLogLevel('GET', 200, 12, 1000)).toBe('debug');
    expect(requestLogLevel('HEAD', 304, 1, 1000)).toBe('debug');
    expect(requestLogLevel('OPTIONS', 204, 1, 1000)).toBe('debug');
    expect(requestLogLevel('GET', 200, 1000, 1000)).toBe('info');
    expect(requestLogLevel('GET', 404, 3, 1000)).toBe('info');
    expect(requestLogLevel('GET', 500, 3, 1000)).toBe('info');
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) expect(requestLogLevel(method, 200, 3, 1000)).toBe('info');
    expect(requestLogLevel('GET', 200, 0, 0)).toBe('info');
  });
});
