import { ADMIN_ROLES, STAFF_ROLES, type Role } from '../../shared/roles';
import { AppError } from '../errors';
import { FORBIDDEN_MESSAGE, UNAUTHORIZED_MESSAGE } from '../http/access';
import type { LimitName } from '../http/rate-limits';
import type { ServiceContext } from '../domains/context';
import { baseProcedure } from './init';

/** Anyone: the error mapping (init.ts) and nothing else. */
export const publicProcedure = baseProcedure.meta({ access: 'public' });

/**
 * Anyone signed in. The context gains the actor and a service context carrying it; tRPC merges
 * them into the rest.
 */
export const authedProcedure = publicProcedure
  .use(({ ctx, next }) => {
    const actor = ctx.actor;
    if (!actor) throw new AppError('UNAUTHORIZED', UNAUTHORIZED_MESSAGE);
    const svc: ServiceContext = { ...ctx.svc, actor };
    return next({ ctx: { actor, svc } });
  })
  .meta({ access: 'authed' });

/** A signed-in caller of one of `roles`. */
function withRole(roles: readonly Role[]) {
  return authedProcedure.use(({ ctx, next }) => {
    if (!roles.includes(ctx.actor.role)) throw new AppError('FORBIDDEN', FORBIDDEN_MESSAGE);
    return next();
  });
}

/** manager, admin, superadmin: the back-office. */
export const staffProcedure = withRole(STAFF_ROLES).meta({ access: 'staff' });
/** admin, superadmin: creating, deleting and money toggles. */
export const adminProcedure = withRole(ADMIN_ROLES).meta({ access: 'admin' });

export const NOT_BATCHED = 'Sign-in and password-reset calls must be sent on their own, not in a batch.';

/**
 * Public procedures an attacker would hammer (sign-in, password reset): each call is counted
 * against its per-client request limit, and may not share a batch, so one request can never
 * carry many guesses (docs/security.md#rate-limits-and-lock-outs).
 */
export function limitedProcedure(limit: LimitName) {
  return publicProcedure.use(async ({ ctx, next }) => {
    if (ctx.callsInRequest > 1) throw new AppError('BAD_REQUEST', NOT_BATCHED);
    await ctx.limit(limit);
    return next();
  });
}

/**
 * The body of a procedure that hands its validated input, with the caller's service context, to one
 * service function: `staffProcedure.input(ZListCoursesInput).output(ZCoursePage).query(serve(listCourses))`.
 * The role, the input and the contract stay on the procedure itself, where a reviewer reads them
 * (docs/architecture.md#conventions); a procedure that shapes its input writes its own body.
 */
export function serve<C, I, O>(fn: (svc: C, input: I) => O) {
  return ({ ctx, input }: { ctx: { svc: C }; input: I }) => fn(ctx.svc, input);
}

/** `serve` for an `{ id }` input whose service function takes the id alone. */
export function serveId<C, O>(fn: (svc: C, id: string) => O) {
  return ({ ctx, input }: { ctx: { svc: C }; input: { id: string } }) => fn(ctx.svc, input.id);
}
