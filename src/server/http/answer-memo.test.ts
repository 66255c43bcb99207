import { initTRPC, TRPCError } from '@trpc/server';
import { describe, expect, it, vi } from 'vitest';
import { z, ZodError } from 'zod';
import type { AppDeps } from '../deps';
import { reusedRead } from '../domains/read-cache';
import { bytesOnce, checkOnce, outputOnce } from './answer-memo';

/** A server as the reused reads see it: only its config's lifetime matters (and its identity). */
const server = { config: { DASHBOARD_CACHE_SECONDS: 30 } } as unknown as AppDeps;
let keys = 0;

/** `value` as a reused read answers it: the object every later caller is given too. */
async function reused<T extends object>(value: T): Promise<T> {
  const key = `answer ${++keys}`;
  const first = await reusedRead(server, key, () => Promise.resolve(value));
  expect(await reusedRead(server, key, () => Promise.resolve({ ...value }))).toBe(first);
  return first;
}

/** A contract that counts how often it checked something, and drops fields it does not name. */
function countingContract() {
  let checks = 0;
  const schema = z.object({
    name: z.string().transform((s) => {
      checks++;
      return s.trim();
    }),
  });
  return { schema, checks: () => checks };
}

describe('checkOnce', () => {
  it('checks a reused answer once, and gives every caller the same checked answer', async () => {
    const { schema, checks } = countingContract();
    const answer = await reused({ name: ' Nimal ', secret: 'not in the contract' });
    const first = checkOnce(schema, answer);
    expect(first).toEqual({ name: 'Nimal' });
    expect(checkOnce(schema, answer)).toBe(first);
    expect(checks()).toBe(1);
  });

  it('checks a fresh answer every time it is given', () => {
    const { schema, checks } = countingContract();
    const answer = { name: ' Nimal ', secret: 'not in the contract' };
    expect(checkOnce(schema, answer)).toEqual({ name: 'Nimal' });
    expect(checkOnce(schema, answer)).toEqual({ name: 'Nimal' });
    expect(checks()).toBe(2);
  });

  it('refuses a reused answer that breaks the contract every time it is given', async () => {
    const { schema } = countingContract();
    const bad = await reused({ name: 42 });
    expect(() => checkOnce(schema, bad)).toThrow(ZodError);
    expect(() => checkOnce(schema, bad)).toThrow(ZodError);
  });

  it('checks the same answer against each contract on its own', async () => {
    const a = z.object({ n: z.number() });
    const b = z.object({ n: z.number().transform((n) => n * 2) });
    const answer = await reused({ n: 2 });
    expect(checkOnce(a, answer)).toEqual({ n: 2 });
    expect(checkOnce(b, answer)).toEqual({ n: 4 });
  });
});

describe('outputOnce', () => {
  const t = initTRPC.create();
  const { schema, checks } = countingContract();
  let answer = { name: '' };
  const router = t.router({
    reused: t.procedure.output(outputOnce(schema)).query(() => answer),
    broken: t.procedure.output(outputOnce(schema)).query(() => ({ name: 7 }) as unknown as { name: string }),
  });
  const caller = t.createCallerFactory(router)({});

  it('answers the checked answer, checked once for a reused answer', async () => {
    answer = await reused({ name: ' Kamala ', secret: 'kept out' });
    expect(await caller.reused()).toEqual({ name: 'Kamala' });
    expect(await caller.reused()).toEqual({ name: 'Kamala' });
    expect(checks()).toBe(1);
  });

  it('fails an answer that breaks the contract as a server error, as the schema itself would', async () => {
    const err = await caller.broken().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TRPCError);
    expect(err).toMatchObject({ code: 'INTERNAL_SERVER_ERROR', message: 'Output validation failed' });
  });
});

describe('bytesOnce', () => {
  it("sends a reused answer's UTF-8 bytes, written once per envelope", async () => {
    const answer = await reused({ name: 'Zoë Ångström' });
    const write = vi.fn((v: object) => `{"data":${JSON.stringify(v)}}`);
    const first = bytesOnce(answer, 'data envelope', write);
    expect(first.toString('utf8')).toBe('{"data":{"name":"Zoë Ångström"}}');
    expect(first.length).toBe(Buffer.byteLength('{"data":{"name":"Zoë Ångström"}}'));
    expect(bytesOnce(answer, 'data envelope', write)).toBe(first);
    expect(write).toHaveBeenCalledTimes(1);
    // Another envelope is written on its own, and kept on its own.
    const bare = vi.fn((v: object) => JSON.stringify(v));
    expect(bytesOnce(answer, 'bare', bare).toString('utf8')).toBe('{"name":"Zoë Ångström"}');
    expect(bytesOnce(answer, 'bare', bare).toString('utf8')).toBe('{"name":"Zoë Ångström"}');
    expect(bare).toHaveBeenCalledTimes(1);
    expect(bytesOnce(answer, 'data envelope', write)).toBe(first);
  });

  it("keeps a reused answer's checked form's bytes too", async () => {
    const { schema } = countingContract();
    const checkedAnswer = checkOnce(schema, await reused({ name: ' Ada ' }));
    const write = vi.fn((v: object) => JSON.stringify(v));
    expect(bytesOnce(checkedAnswer, 'bare', write).toString('utf8')).toBe('{"name":"Ada"}');
    bytesOnce(checkedAnswer, 'bare', write);
    expect(write).toHaveBeenCalledTimes(1);
  });

  it('writes a fresh answer each time', () => {
    const value = { a: 1 };
    const write = vi.fn((v: object) => JSON.stringify(v));
    expect(bytesOnce(value, 'bare', write).toString('utf8')).toBe('{"a":1}');
    value.a = 2;
    expect(bytesOnce(value, 'bare', write).toString('utf8')).toBe('{"a":2}');
    expect(write).toHaveBeenCalledTimes(2);
  });
});
