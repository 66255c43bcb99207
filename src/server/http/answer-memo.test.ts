import { initTRPC, TRPCError } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { z, ZodError } from 'zod';
import { checkOnce, jsonOnce, outputOnce } from './answer-memo';

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
  it('checks an answer object once, and gives every caller the same checked answer', () => {
    const { schema, checks } = countingContract();
    const answer = { name: ' Nimal ', secret: 'not in the contract' };
    const first = checkOnce(schema, answer);
    expect(first).toEqual({ name: 'Nimal' });
    expect(checkOnce(schema, answer)).toBe(first);
    expect(checks()).toBe(1);
    // An equal but different object (a fresh answer) is checked anew.
    expect(checkOnce(schema, { ...answer })).toEqual({ name: 'Nimal' });
    expect(checks()).toBe(2);
  });

  it('refuses an answer that breaks the contract every time it is given', () => {
    const { schema } = countingContract();
    const bad = { name: 42 };
    expect(() => checkOnce(schema, bad)).toThrow(ZodError);
    expect(() => checkOnce(schema, bad)).toThrow(ZodError);
  });

  it('checks the same object against each contract on its own', () => {
    const a = z.object({ n: z.number() });
    const b = z.object({ n: z.number().transform((n) => n * 2) });
    const answer = { n: 2 };
    expect(checkOnce(a, answer)).toEqual({ n: 2 });
    expect(checkOnce(b, answer)).toEqual({ n: 4 });
  });
});

describe('outputOnce', () => {
  const t = initTRPC.create();
  const { schema, checks } = countingContract();
  const reused = { name: ' Kamala ', secret: 'kept out' };
  const router = t.router({
    reused: t.procedure.output(outputOnce(schema)).query(() => reused),
    broken: t.procedure.output(outputOnce(schema)).query(() => ({ name: 7 }) as unknown as { name: string }),
  });
  const caller = t.createCallerFactory(router)({});

  it('answers the checked answer, checked once for a reused object', async () => {
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

describe('jsonOnce', () => {
  it("is the object's JSON text, the same text each time", () => {
    const value = { a: [1, 'two', null], b: { c: true } };
    expect(jsonOnce(value)).toBe(JSON.stringify(value));
    expect(jsonOnce(value)).toBe(jsonOnce(value));
  });
});
