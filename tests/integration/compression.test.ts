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

  it('compresses a tRPC page as the client prefers, by q-value, and names the encoding in Vary', async () => {
    const input = { 0: { page: 1, pageSize: 25, sortBy: 'createdAt', sortDir: 'desc' } };
    const path = `/trpc/users.list?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`;
    const plain = await rawGet(path, 'identity');
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);

    const br = await rawGet(path, 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(zlib.brotliDecompressSync(br.body)).toEqual(plain.body);

    const gzip = await rawGet(path, 'br;q=0, gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.body)).toEqual(plain.body);
  });

  it('leaves small answers uncompressed', async () => {
    const health = await rawGet('/api/health', 'br, gzip');
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(health.body.toString('utf8'))).toEqual({ status: 'ok' });
  });
});
