import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type GatewayMode = 'accept' | 'refuse' | 'fail';

export interface SmsGateway {
  /** Where the server sends SMS (its SMS_GATEWAY_URL). */
  sendUrl: string;
  /** `POST {mode}` here sets how the gateway answers from now on (tests drive it). */
  controlUrl: string;
  close: () => Promise<void>;
}

/**
 * A stand-in for an SMS provider, so that browser tests see SMS go through the real server path:
 * `accept` answers 200 with a message id, `refuse` 400 (as for an invalid number: no retry), `fail`
 * 503 (the gateway down: retried). It accepts by default, so other tests' SMS simply go.
 */
export async function startSmsGateway(): Promise<SmsGateway> {
  let mode: GatewayMode = 'accept';
  let count = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (req.url === '/control' && req.method === 'POST') {
        const next = (JSON.parse(body || '{}') as { mode?: GatewayMode }).mode;
        if (next === 'accept' || next === 'refuse' || next === 'fail') mode = next;
        return json(200, { mode });
      }
      if (req.url === '/sms') {
        if (mode === 'refuse') return json(400, { error: 'Invalid destination number' });
        if (mode === 'fail') return json(503, { error: 'Service unavailable' });
        count += 1;
        return json(200, { id: `gw-${count}` });
      }
      json(404, { error: 'not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  return {
    sendUrl: `${base}/sms`,
    controlUrl: `${base}/control`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
