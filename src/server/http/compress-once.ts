import zlib from 'node:zlib';
import negotiate from '@fastify/accept-negotiator';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { isKeptBytes } from './answer-memo';

/**
 * How answers are compressed: brotli or gzip, as the client asks, for answers over 1 KiB. Quality 4
 * keeps on-the-fly brotli cheap; the client's assets are compressed at quality 11 once, at build
 * time (scripts/build.mjs). `app.ts` gives @fastify/compress these settings, and the hook below
 * uses the same.
 */
export const COMPRESSION = {
  threshold: 1024,
  encodings: ['br', 'gzip'] as Array<'br' | 'gzip'>,
  brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
};

const compressors = {
  br: (bytes: Buffer) => zlib.brotliCompressSync(bytes, COMPRESSION.brotliOptions),
  gzip: (bytes: Buffer) => zlib.gzipSync(bytes),
};
const compressed = { br: new WeakMap<Buffer, Buffer>(), gzip: new WeakMap<Buffer, Buffer>() };

/**
 * A reused answer's bytes are the same Buffer for every caller (`bytesOnce` in answer-memo.ts), so
 * each is compressed once per encoding and those bytes are sent to every caller that accepts it
 * (docs/performance.md#reused-answers). Browsers always ask for compression; before, every reused
 * page of 26 to 43 KB was compressed again on every request. Runs before @fastify/compress, which
 * leaves an answer that already has a Content-Encoding as it is; every other answer is its to
 * compress. The encoding is chosen as it chooses: the client's preference by q-value, then the
 * order above, with `*` and `x-gzip` read as gzip.
 */
export function registerCompressOnce(app: FastifyInstance) {
  app.addHook('onSend', (req, reply, payload, done) => {
    if (
      !Buffer.isBuffer(payload) ||
      payload.length < COMPRESSION.threshold ||
      !isKeptBytes(payload) ||
      reply.hasHeader('content-encoding') ||
      req.headers['x-no-compression'] !== undefined
    )
      return done(null, payload);
    const header = req.headers['accept-encoding'];
    const encoding = header
      ? negotiate(header.toLowerCase().replace(/\*|x-gzip/gu, 'gzip'), COMPRESSION.encodings)
      : null;
    if (!encoding) return done(null, payload);
    let bytes = compressed[encoding].get(payload);
    if (!bytes) compressed[encoding].set(payload, (bytes = compressors[encoding](payload)));
    varyOnEncoding(reply);
    reply.header('content-encoding', encoding);
    reply.header('content-length', bytes.length);
    done(null, bytes);
  });
}

function varyOnEncoding(reply: FastifyReply) {
  const vary = reply.getHeader('vary');
  if (vary === undefined) reply.header('vary', 'accept-encoding');
  else if (!String(vary).toLowerCase().includes('accept-encoding'))
    reply.header('vary', `${String(vary)}, accept-encoding`);
}
