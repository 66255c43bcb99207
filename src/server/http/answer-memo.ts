import { ZodError, type z, type ZodType } from 'zod';
import { isReusedAnswer } from '../domains/read-cache';
import { fastParse } from './output-check';

/*
 * Work done once per reused answer (docs/performance.md#reused-answers). A reused answer
 * (src/server/domains/read-cache.ts) is the very same object every time it is given, so what
 * depends on that object alone is done for its first caller only: the check against the contract
 * its procedure or route declares and the bytes sent. All are kept in WeakMaps keyed
 * by the object. A fresh answer is checked and written as always and not kept: one entry per request
 * would only give the garbage collector more to trace. Nothing changes an answer after it is made;
 * the reuse relies on that already.
 */

const checked = new WeakMap<ZodType, WeakMap<object, unknown>>();
/** The checked forms of reused answers: their bytes are kept too. */
const checkedReused = new WeakSet<object>();

/**
 * `schema.parse(value)` (through its compiled form, output-check.ts), done once per schema and reused
 * answer; throws the ZodError as parse does.
 */
export function checkOnce<S extends ZodType>(schema: S, value: unknown): z.output<S> {
  if (typeof value !== 'object' || value === null || !isReusedAnswer(value)) return fastParse(schema, value);
  let bySchema = checked.get(schema);
  if (!bySchema) checked.set(schema, (bySchema = new WeakMap()));
  if (bySchema.has(value)) return bySchema.get(value) as z.output<S>;
  const parsed = fastParse(schema, value);
  bySchema.set(value, parsed);
  if (typeof parsed === 'object' && parsed !== null) checkedReused.add(parsed);
  return parsed;
}

/**
 * A tRPC output parser checking each answer object once (`.output(outputOnce(ZUserPage))`), for
 * the procedures whose answers are reused: the schema's own Standard Schema interface (so the
 * procedure's types are the schema's), validating through `checkOnce`. tRPC turns a failure into
 * the same "Output validation failed" server error the schema itself would give.
 */
export function outputOnce<S extends ZodType>(schema: S): { readonly '~standard': S['~standard'] } {
  const validate = (value: unknown) => {
    try {
      return { value: checkOnce(schema, value) };
    } catch (err) {
      if (err instanceof ZodError) return { issues: err.issues };
      throw err;
    }
  };
  return { '~standard': { ...schema['~standard'], validate } };
}

/** Whether the bytes written of `value` are kept: a reused answer, or the checked form of one. */
const isKept = (value: object) => checkedReused.has(value) || isReusedAnswer(value);

/** Per envelope kind: the bytes of reused answers written in that envelope. */
const bytesByKind = new Map<string, WeakMap<object, Buffer>>();
/** The bytes `bytesOnce` keeps: each is sent again as it is, so its compressed forms can be kept too. */
const keptBytes = new WeakSet<Buffer>();
export const isKeptBytes = (bytes: Buffer) => keptBytes.has(bytes);

/**
 * The UTF-8 bytes of `write(value)`: `value` written into the envelope its caller sends it in
 * (`kind` names that envelope, say a REST path's bare JSON). A reused answer's are written and encoded once
 * per envelope, and the same bytes are sent to every caller (nothing writes into a sent buffer);
 * a fresh answer's are made each time.
 */
export function bytesOnce(value: object, kind: string, write: (value: object) => string): Buffer {
  if (!isKept(value)) return Buffer.from(write(value));
  let memo = bytesByKind.get(kind);
  if (!memo) bytesByKind.set(kind, (memo = new WeakMap()));
  let bytes = memo.get(value);
  if (!bytes) {
    memo.set(value, (bytes = Buffer.from(write(value))));
    keptBytes.add(bytes);
  }
  return bytes;
}
