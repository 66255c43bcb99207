import { z } from 'zod';

/*
 * Building blocks of the output contracts (`<domain>.output.ts`): what procedures answer, declared
 * with `.output()` on tRPC procedures and `response` on REST paths. A zod object drops the keys it
 * does not name, so an answer can never carry a field its contract leaves out (a password hash,
 * say), and the client's types come from the same schemas.
 */

/** An instant as `Date.toISOString()` writes it. */
export const zInstantOut = z.iso.datetime();
/** A calendar day, YYYY-MM-DD. */
export const zDayOut = z.iso.date();
/** Money as the API speaks it: a decimal amount with at most two places (docs/money.md). */
export const zMoneyOut = z.number();
/** A whole number a record holds (installments, sessions, a duration part). */
export const zIntOut = z.number().int();
/** A count of rows. */
export const zCountOut = z.number().int().nonnegative();

/**
 * Text that must be one of `values`. Unlike z.enum it takes any string in, so a service that types
 * the field as plain text still meets the contract, and the answer's type names the values.
 */
export function zOneOf<const T extends readonly [string, ...string[]]>(values: T) {
  const allowed: readonly string[] = values;
  const isOneOf = (s: string): s is T[number] => allowed.includes(s);
  return z.string().transform((s, ctx) => {
    if (isOneOf(s)) return s;
    ctx.addIssue({ code: 'custom', message: `Expected one of ${values.join(', ')}.` });
    return z.NEVER;
  });
}

/**
 * A stored record's answer: its `_id`, its own fields, then when it was created and last changed
 * (docs/product.md#records-and-their-fields).
 */
export function zRecordOut<const T extends z.ZodRawShape>(fields: T) {
  return z.object({ _id: z.string(), ...fields, createdAt: zInstantOut, updatedAt: zInstantOut });
}

/** One page of a server-paged list (`Page<T>` in shared/pagination.ts). */
export function zPageOf<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    total: zCountOut,
    page: z.number().int(),
    pageSize: z.number().int(),
    nextCursor: z.string().nullable().optional(),
  });
}

export const ZMessage = z.object({ message: z.string() });
export type TMessage = z.infer<typeof ZMessage>;

/**
 * A queued e-mail's answer: `delivery` says where it goes, `email` through the configured
 * provider, `outbox` into the development outbox only (no provider configured), and the message
 * says the same in words.
 */
export const ZEmailDelivery = z.enum(['email', 'outbox']);
export type TEmailDelivery = z.infer<typeof ZEmailDelivery>;
