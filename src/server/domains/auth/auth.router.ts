import { authedProcedure, limitedProcedure, serve } from '../../trpc/procedures';
import { router } from '../../trpc/init';
import { ZLoginInput } from '@shared/schemas/auth';
import { ZMe, ZSignedIn } from '@shared/schemas/auth.output';
import { ZMessage } from '@shared/schemas/output';
import * as service from './auth.service';

export const authRouter = router({
  login: limitedProcedure('signIn')
    .input(ZLoginInput)
    .output(ZSignedIn)
    .mutation(async ({ ctx, input }) => {
      const result = await service.login(ctx.svc, input, { ip: ctx.clientIp, deviceCookie: ctx.deviceCookie });
      ctx.setSession(result.token, new Date(Date.now() + ctx.deps.sessionPolicy.maxMs));
      ctx.setDeviceCookie(result.deviceCookie);
      return { ...result.user, token: result.token };
    }),
  logout: authedProcedure.output(ZMessage).mutation(async ({ ctx }) => {
    await service.logout(ctx.svc);
    ctx.clearSession();
    return { message: 'Logged out successfully.' };
  }),
  /** The signed-in user; UNAUTHORIZED without a session (the client's guard reads it). */
  me: authedProcedure.output(ZMe).query(serve(service.me)),
});
