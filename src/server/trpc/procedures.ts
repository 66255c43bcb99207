import { TRPCError } from '@trpc/server';
import { ADMIN_ROLES, STAFF_ROLES, type Role } from '../../shared/roles';
import { FORBIDDEN_MESSAGE, UNAUTHORIZED_MESSAGE } from '../http/access';
import type { LimitName } from '../http/rate-limits';
import type { ServiceContext } from '../domains/common';
import { bareProcedure, baseProcedure, mapAppErrors } from './init';

export const publicProcedure = baseProcedure.meta({ access: 'public' });

/**
 * A signed-in caller, of one of `roles` when given: one middleware for both checks and the error
 * mapping, because tRPC copies its call state twice at every middleware
 * (docs/performance.md#where-the-products-time-goes). The context gains the actor and a service
 * context carrying it; tRPC merges them into the rest.
 */
function signedIn(roles: readonly Role[] | null) {
  return bareProcedure.use(async ({ ctx, path, next }) => {
    const actor = ctx.actor;
    if (!actor) throw new TRPCError({ code: 'UNAUTHORIZED', message: UNAUTHORIZED_MESSAGE });
    if (roles && !roles.includes(actor.role)) throw new TRPCError({ code: 'FORBIDDEN', message: FORBIDDEN_MESSAGE });
    const svc: ServiceContext = { ...ctx.svc, actor };
    return mapAppErrors(await next({ ctx: { actor, svc } }), ctx, path);
  });
}

/** Anyone signed in. */
export const authedProcedure = signedIn(null).meta({ access: 'authed' });
/** manager, admin, superadmin: the back-office. */
export const staffProcedure = signedIn(STAFF_ROLES).meta({ access: 'staff' });
/** admin, superadmin: creating, deleting and money toggles. */
export const adminProcedure = signedIn(ADMIN_ROLES).meta({ access: 'admin' });

export const NOT_BATCHED = 'Sign-in and password-reset calls must be sent on their own, not in a batch.';

/**
 * Public procedures an attacker would hammer (sign-in, password reset): each call is counted
 * against its per-client request limit, and may not share a batch, so one request can never
 * carry many guesses (docs/security.md#rate-limits-and-lock-outs).
 */
export function limitedProcedure(limit: LimitName) {
  return publicProcedure.use(async ({ ctx, next }) => {
    if (ctx.callsInRequest > 1) throw new TRPCError({ code: 'BAD_REQUEST', message: NOT_BATCHED });
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
