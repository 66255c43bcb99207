import { initTRPC, TRPCError } from '@trpc/server';
import { ZodError } from 'zod';
import { AppError, answerFor, propOf, TRPC_CODE } from '../errors';
import type { Access } from '../http/access';
import type { Context } from './context';

export interface Meta {
  /**
   * Set by the composed procedures. Tests do not read it: their catalogue states each procedure's
   * access and the role walk checks the answers (tests/helpers/procedures.ts).
   */
  access?: Access;
}

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    errorFormatter({ shape, error }) {
      // Inside a procedure every failure became an AppError (mapErrors below), whose message and
      // details are the answer. tRPC's own refusals (an unknown procedure, a wrong method, a batch
      // too long, input that is not JSON) keep tRPC's message; any other failure says nothing internal.
      const appError = error.cause instanceof AppError ? error.cause : null;
      let message = appError?.message ?? shape.message;
      if (error.code === 'INTERNAL_SERVER_ERROR' && !appError) message = 'Something went wrong. Please try again.';
      return {
        ...shape,
        message,
        data: {
          code: shape.data.code,
          httpStatus: shape.data.httpStatus,
          path: shape.data.path,
          details: appError?.details,
          refusal: appError?.refusal,
        },
      };
    },
  });

export const router = t.router;

/**
 * What a procedure's failure was, for answerFor. tRPC hands on a value the procedure threw as the
 * cause of an INTERNAL_SERVER_ERROR, and an input its schema refused as the cause of a
 * BAD_REQUEST. An answer that breaks its `.output()` contract is an INTERNAL_SERVER_ERROR caused
 * by a schema's issues: a fault of ours, answered 500 like any other, never a 400. Undefined for
 * an error of tRPC's own, which is answered as tRPC gives it.
 */
function thrownIn(error: TRPCError): unknown {
  const cause = error.cause;
  if (error.code === 'BAD_REQUEST' && cause instanceof ZodError) return cause;
  if (error.code !== 'INTERNAL_SERVER_ERROR') return cause instanceof AppError ? cause : undefined;
  const isOutputCheck = cause instanceof ZodError || Array.isArray(propOf(cause, 'issues'));
  return cause && !isOutputCheck ? cause : error;
}

/**
 * Every procedure's first middleware: whatever failed inside is answered through answerFor
 * (errors.ts), the same mapping Fastify's error handler uses for /api, and logged as it says.
 */
const mapErrors = t.middleware(async ({ ctx, path, next }) => {
  const result = await next();
  if (result.ok) return result;
  const thrown = thrownIn(result.error);
  if (thrown === undefined) return result;
  const { error, log } = answerFor(thrown);
  if (log) ctx.deps.log[log.level]({ ...log.fields, path }, log.msg);
  throw new TRPCError({ code: TRPC_CODE[error.code], message: error.message, cause: error });
});

/** The procedure every other is built on: errors mapped, nothing checked yet (procedures.ts). */
export const baseProcedure = t.procedure.use(mapErrors);
