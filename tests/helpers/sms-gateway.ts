import http from 'node:http';

/**
 * A stand-in for an HTTP SMS gateway on the loopback: POST with a JSON body `{ to, text, id }`.
 * By number: `…400` is refused (400), `…500` fails (503) `failuresLeft` times then accepts, `…999`
 * never answers (the driver's timeout). A real gateway that takes a client reference keeps one
 * delivery per reference, and so does this one (`delivered`), while `requests` keeps every call.
 */
export function fakeSmsGateway() {
  const requests: Array<{ to: string; text: string; id: string; headers: http.IncomingHttpHeaders }> = [];
  const delivered = new Map<string, string>();
  /** How many 2xx answers reached the caller for each reference. */
  const answered = new Map<string, number>();
  const behaviour = { failuresLeft: 2, hold: false };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw || '{}') as { to: string; text: string; id: string };
      requests.push({ ...body, headers: req.headers });
      const json = (status: number, v: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(v));
      if (body.to.endsWith('400')) return json(400, { error: 'invalid number' });
      if (body.to.endsWith('999')) return;
      if (body.to.endsWith('500') && behaviour.failuresLeft > 0) {
        behaviour.failuresLeft -= 1;
        return json(503, { error: 'try later' });
      }
      const known = delivered.get(body.id);
      const providerId = known ?? `sms_${delivered.size + 1}`;
      if (!known) delivered.set(body.id, providerId);
      if (behaviour.hold) return;
      answered.set(body.id, (answered.get(body.id) ?? 0) + 1);
      json(200, { data: { messageId: providerId } });
    });
  });
  return {
    requests,
    delivered,
    answered,
    behaviour,
    async start() {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      return `http://127.0.0.1:${(server.address() as { port: number }).port}/send`;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
