import {
  getErrorShape,
  getTRPCErrorFromUnknown,
  transformTRPCResponse,
  TRPCError,
  type AnyTRPCProcedure,
  type AnyTRPCRouter,
} from '@trpc/server';
import { fastifyRequestHandler, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import { getHTTPStatusCode } from '@trpc/server/http';
import type { TRPCErrorShape, TRPCResponse } from '@trpc/server/rpc';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/*
 * tRPC over Fastify (docs/performance.md#where-the-products-time-goes). tRPC v11's Fastify adapter
 * turns every call into a Fetch `Request` (undici, with an `AbortController` tied to the socket),
 * resolves it into a Fetch `Response` and streams that back through a web stream: a tenth of the
 * CPU of a list page. The calls the client makes (`httpBatchLink` and `httpLink`: a GET of
 * queries or a POST of mutations, JSON in, JSON out) are answered here straight from Fastify's
 * request, with tRPC's own pieces for everything that decides the answer (the procedure and its
 * middlewares, `getErrorShape` through the router's error formatter, `getHTTPStatusCode`, the
 * transformer, `responseMeta`, `onError`), so the status, headers and JSON are the ones the stock
 * adapter gives. Anything else (HEAD, a streaming or subscription call, another content type,
 * an unknown procedure, a wrong method, a batch over the limit, input that is not JSON) goes to
 * the stock adapter untouched, which answers it as before.
 */

type Options = FastifyTRPCPluginOptions<AnyTRPCRouter>['trpcOptions'];
type TransformConfig = Parameters<typeof transformTRPCResponse>[0];
type CallResult = { error: TRPCError; data?: undefined } | { error?: undefined; data: unknown };

/** The request info's signal: no procedure here listens for the client going away. */
const neverAborted = new AbortController().signal;

const isObject = (v: unknown): v is Record<string, unknown> => !!v && !Array.isArray(v) && typeof v === 'object';
const isPromise = (v: unknown) => isObject(v) && typeof v.then === 'function';
const isAsyncIterable = (v: unknown) => isObject(v) && Symbol.asyncIterator in v;
/** As tRPC's `isDataStream`: a value only a streaming link can carry. */
const isDataStream = (v: unknown) =>
  isObject(v) && (isAsyncIterable(v) || Object.values(v).some((x) => isPromise(x) || isAsyncIterable(x)));

/** The response's bytes: the items (one, or a batch's list) as `JSON.stringify` writes them. */
function answerBytes(json: TRPCResponse[], isBatchCall: boolean): Buffer {
  return Buffer.from(JSON.stringify(isBatchCall ? json : json[0]!));
}

/** Whether the router sends answers as they are (no transformer such as superjson): then the
 *  response is the stock adapter's `transformTRPCResponse` output without a copy. */
function isIdentity(config: AnyTRPCRouter['_def']['_config']): boolean {
  const probe = {};
  return config.transformer.output.serialize(probe) === probe;
}

/** The media type of a Content-Type header, as tRPC compares it. */
const mediaType = (h: string | undefined) => h?.toLowerCase().split(';', 1)[0]?.trim();

/**
 * Answers a plain tRPC call and returns true, or returns false without having done anything when
 * the call is one for the stock adapter.
 */
async function answerPlainCall(
  req: FastifyRequest,
  reply: FastifyReply,
  rawPath: string,
  o: Options,
  /** isIdentity of the router, asked once when the plugin is registered: the transformer is fixed then. */
  sentAsIs: boolean,
) {
  const method = req.method;
  if (method !== 'GET' && method !== 'POST') return false;
  const h = req.headers;
  const accept = h.accept;
  if (h['trpc-accept'] !== undefined) return false;
  if (accept && accept.split(',').some((t) => t.trim() === 'application/jsonl')) return false;
  const type = mediaType(h['content-type']);
  if (type !== 'application/json' && (method === 'POST' || type !== undefined)) return false;
  const q = req.url.indexOf('?');
  const search = new URLSearchParams(q < 0 ? '' : req.url.slice(q + 1));
  if (search.has('connectionParams')) return false;
  const isBatchCall = search.get('batch') === '1';

  let path: string;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    return false;
  }
  const paths = isBatchCall ? path.split(',') : [path];
  if (isBatchCall && typeof o.maxBatchSize === 'number' && paths.length > o.maxBatchSize) return false;
  const router = o.router;
  const procedures = router._def.procedures as Record<string, AnyTRPCProcedure | undefined>;
  const procs: AnyTRPCProcedure[] = [];
  for (const p of paths) {
    const proc = procedures[p];
    if (!proc) return false;
    procs.push(proc);
  }
  const procType = method === 'GET' ? 'query' : 'mutation';
  if (procs.some((p) => p._def.type !== procType)) return false;

  let raw: unknown;
  try {
    if (method === 'GET') {
      const input = search.get('input');
      raw = input ? JSON.parse(input) : undefined;
    } else {
      if (typeof req.body !== 'string') return false;
      raw = JSON.parse(req.body);
    }
  } catch {
    return false;
  }
  const config = router._def._config;
  const deserialize = (v: unknown) => config.transformer.input.deserialize(v) as unknown;
  const inputs: unknown[] = [];
  if (raw !== undefined) {
    if (!isBatchCall) inputs[0] = deserialize(raw);
    else if (!isObject(raw)) return false;
    else for (const i of paths.keys()) if (raw[i] !== undefined) inputs[i] = deserialize(raw[i]);
  }

  const calls = paths.map((p, i) => ({
    batchIndex: i,
    path: p,
    procedure: procs[i]!,
    getRawInput: () => Promise.resolve(inputs[i]),
    result: () => inputs[i],
  }));
  const info = {
    accept: null,
    type: procType,
    isBatchCall,
    calls,
    connectionParams: null,
    signal: neverAborted,
    url: null,
  } as const;
  let ctx: unknown;
  try {
    ctx = await o.createContext?.({ req, res: reply, info });
  } catch {
    // The stock adapter answers a context that cannot be made (it has no side effects to repeat).
    return false;
  }

  const results = await Promise.all(
    calls.map(async (call): Promise<CallResult> => {
      try {
        const data: unknown = await call.procedure({
          path: call.path,
          getRawInput: call.getRawInput,
          ctx,
          type: procType,
          signal: undefined,
          batchIndex: call.batchIndex,
        });
        if (isDataStream(data)) {
          const error = new TRPCError({
            code: 'UNSUPPORTED_MEDIA_TYPE',
            message: 'Cannot use stream-like response in non-streaming request - use httpBatchStreamLink',
          });
          if (!isBatchCall) o.onError?.({ error, path: call.path, input: inputs[0], ctx, type: procType, req });
          return { error };
        }
        return { data };
      } catch (cause) {
        const error = getTRPCErrorFromUnknown(cause);
        o.onError?.({ error, path: call.path, input: inputs[call.batchIndex], ctx, type: procType, req });
        return { error };
      }
    }),
  );
  const json = results.map((r, i): TRPCResponse => {
    if (!r.error) return { result: { data: r.data } };
    const shape = getErrorShape({
      config,
      ctx,
      error: r.error,
      input: inputs[i],
      path: paths[i]!,
      type: procType,
    }) as TRPCErrorShape;
    return { error: shape };
  });
  let status = getHTTPStatusCode(json);
  // The headers as the stock adapter's `Headers` hold them: set replaces, append adds ", value"
  // (a Set-Cookie is kept apart), then copied onto the reply.
  const headers = new Map<string, string[]>([
    ['vary', ['trpc-accept, accept']],
    ['content-type', ['application/json']],
  ]);
  const errors = results.flatMap((r) => (r.error ? [r.error] : []));
  const meta = o.responseMeta?.({ ctx, info, paths, data: json, errors, eagerGeneration: false, type: procType }) ?? {};
  if (meta.headers) {
    const entries = meta.headers instanceof Headers ? [...meta.headers.entries()] : Object.entries(meta.headers);
    for (const [name, value] of entries) {
      const key = name.toLowerCase();
      if (Array.isArray(value)) for (const v of value) headers.set(key, [...(headers.get(key) ?? []), v]);
      else if (typeof value === 'string') headers.set(key, [value]);
    }
  }
  if (meta.status) status = meta.status;
  for (const [key, values] of headers) {
    if (key === 'set-cookie') for (const v of values) reply.header(key, v);
    else reply.header(key, values.join(', '));
  }
  const body = sentAsIs
    ? answerBytes(json, isBatchCall)
    : Buffer.from(JSON.stringify(transformTRPCResponse(config as TransformConfig, isBatchCall ? json : json[0]!)));
  // A Buffer, so Fastify sends the content type as set (it adds a charset to a string's).
  await reply.code(status).send(body);
  return true;
}

/** `fastifyTRPCPlugin`'s routes and body parsers, answering plain calls itself (above). */
export function trpcPlugin<TRouter extends AnyTRPCRouter>(
  app: FastifyInstance,
  opts: { trpcOptions: FastifyTRPCPluginOptions<TRouter>['trpcOptions'] },
  done: (err?: Error) => void,
) {
  const trpcOptions = opts.trpcOptions as unknown as Options;
  const sentAsIs = isIdentity(trpcOptions.router._def._config);
  // As the stock plugin: the JSON body stays text for tRPC to parse, multipart goes through as is.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, next) => next(null, body));
  app.removeContentTypeParser('multipart/form-data');
  app.addContentTypeParser('multipart/form-data', {}, (_req, body, next) => next(null, body));
  app.all<{ Params: { path: string } }>('/:path', async (req, reply) => {
    const path = req.params.path;
    if (await answerPlainCall(req, reply, path, trpcOptions, sentAsIs)) return reply;
    await fastifyRequestHandler({ ...trpcOptions, req, res: reply, path });
    return reply;
  });
  done();
}
