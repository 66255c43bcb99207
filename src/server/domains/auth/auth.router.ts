import { authedProcedure, limitedProcedure } from '../../trpc/procedures';
import { router } from '../../trpc/init';
import { ZLoginInput } from '@shared/schemas/auth';
import * as service from './auth.service';

export const authRouter = router({
  login: limitedProcedure('signIn')
    .input(ZLoginInput)
    .mutation(async ({ ctx, input }) => {
      const result = await service.login(ctx.deps, input, ctx.request);
      ctx.setSession(result.token, new Date(Date.now() + ctx.deps.sessionPolicy.maxMs));
      return { ...result.user, token: result.token };
    }),
  logout: authedProcedure.mutation(async ({ ctx }) => {
    await service.logout(ctx.deps, ctx.actor, ctx.request);
    ctx.clearSession();
    return { message: 'Logged out successfully.' };
  }),
  /** The signed-in user; UNAUTHORIZED without a session (the client's guard reads it). */
  me: authedProcedure.query(({ ctx }) => service.me(ctx.deps, ctx.actor)),
});
