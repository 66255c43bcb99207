import { initTRPC, TRPCError } from '@trpc/server';
import { AppError, fromBadInputDbError, propOf, TRPC_CODE, unavailableError } from '../errors';
import type { Access } from '../http/access';
import type { Context } from './context';

export interface Meta {
  /** Set by the composed procedures; the router walk test fails on a procedure without it. */
  access?: Access;
}

interface IssueLike {
  message: string;
  path?: ReadonlyArray<PropertyKey | { key: PropertyKey }>;
}

const isIssueLike = (i: unknown): i is IssueLike => typeof propOf(i, 'message') === 'string';

function issuesOf(cause: unknown): IssueLike[] | null {
  const issues = propOf(cause, 'issues');
  return Array.isArray(issues) ? issues.filter(isIssueLike) : null;
}

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    errorFormatter({ shape, error }) {
      const issues = error.code === 'BAD_REQUEST' ? issuesOf(error.cause) : null;
      const appError = error.cause instanceof AppError ? error.cause : null;
      let message = shape.message;
      // Zod issues: the first issue's message is the user-facing one (schemas carry the documented texts).
      if (issues) message = issues[0]?.message ?? 'Invalid input.';
      // An unexpected failure says nothing internal.
      if (error.code === 'INTERNAL_SERVER_ERROR' && !appError) message = 'Something went wrong. Please try again.';
      return {
        ...shape,
        message,
        data: {
          code: shape.data.code,
          httpStatus: shape.data.httpStatus,
          path: shape.data.path,
          details:
            issues?.map((i) => ({ path: (i.path ?? []).map(String).join('.'), message: i.message })) ??
            appError?.details,
        },
      };
    },
  });

export const router = t.router;

/**
 * Services throw AppError; this turns it into the matching tRPC error, for every procedure. It is a
 * function, not a middleware of its own, so that the signed-in procedures run it inside their one
 * middleware: tRPC copies its call state twice at every middleware layer
 * (docs/performance.md#where-the-products-time-goes).
 */
export function mapAppErrors<R extends { ok: true } | { ok: false; error: TRPCError }>(
  result: R,
  ctx: Pick<Context, 'deps'>,
  path: string,
): R {
  if (result.ok) return result;
  const cause = result.error.cause;
  if (cause instanceof AppError) throw new TRPCError({ code: TRPC_CODE[cause.code], message: cause.message, cause });
  const unavailable = unavailableError(cause);
  if (unavailable) {
    ctx.deps.log.warn({ err: cause, path }, 'dependency unavailable: answered 503');
    throw new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: unavailable.message, cause: unavailable });
  }
  // A database refusal of input a schema let through: 400, logged so the schema gets fixed.
  const badInput = fromBadInputDbError(cause);
  if (badInput) {
    ctx.deps.log.warn({ sqlstate: propOf(badInput.details, 'sqlstate'), path }, 'input refused by the database');
    throw new TRPCError({ code: 'BAD_REQUEST', message: badInput.message, cause: badInput });
  }
  return result;
}

/** Public procedures: the error mapping as their first middleware. */
export const baseProcedure = t.procedure.use(async ({ ctx, path, next }) => mapAppErrors(await next(), ctx, path));
/** No middleware yet: for a procedure builder whose one middleware calls mapAppErrors itself. */
export const bareProcedure = t.procedure;
