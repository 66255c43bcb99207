import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeUser } from '../helpers/factories';

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await startTestApp();
  token = (await t.userWithSession('admin')).token;
  for (let i = 0; i < 30; i++) await makeUser(t.deps.db, { role: 'student' });
});
afterAll(() => t?.close());

/** A raw request, so the answer's bytes and encoding are seen as sent (fetch would decode them). */
function rawGet(
  path: string,
  acceptEncoding: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      t.baseUrl + path,
      { headers: { authorization: `Bearer ${token}`, 'accept-encoding': acceptEncoding } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('error', reject);
  });
}

describe('compressed answers', () => {
  it('sends a large JSON list with brotli or gzip as the client asks, and plain otherwise', async () => {
    const br = await rawGet('/api/users', 'br, gzip');
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    const users = JSON.parse(zlib.brotliDecompressSync(br.body).toString('utf8')) as unknown[];
    expect(users.length).toBeGreaterThanOrEqual(31);

    const gzip = await rawGet('/api/users', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(gzip.body).toString('utf8'))).toEqual(users);

    const plain = await rawGet('/api/users', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(plain.body.toString('utf8'))).toEqual(users);
    expect(br.body.length).toBeLessThan(plain.body.length / 3);
  });

  it('leaves small answers uncompressed', async () => {
    const health = await rawGet('/api/health', 'br, gzip');
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(health.body.toString('utf8'))).toEqual({ status: 'ok' });
  });
});
