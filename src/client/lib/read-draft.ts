import type { z } from 'zod';

/**
 * A row edited in place read by the procedure's own input schema (`@shared/schemas/<domain>`),
 * which holds the rules, their order and their messages, as the server reads it: the input to
 * send, or the first message to show instead.
 *   toInput: readWith(ZUpdateBranchInput)
 */
export function readWith<TOut>(schema: z.ZodType<TOut>) {
  return (draft: unknown): TOut | string => {
    const read = schema.safeParse(draft);
    // A failed parse always has an issue; the whole error's text only satisfies the type.
    return read.success ? read.data : (read.error.issues[0]?.message ?? read.error.message);
  };
}
