import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { clearSessionCookie, setSessionCookie } from '../../http/auth-hook';
import { route } from '../../http/rest';
import { ZLoginInput } from '@shared/schemas/auth';
import * as service from './auth.service';

export function registerAuthRest(app: FastifyInstance, deps: AppDeps) {
  route(app, deps, {
    method: 'POST',
    url: '/api/users/auth',
    access: 'public',
    rateLimit: 'signIn',
    body: ZLoginInput,
    handler: async ({ ctx, body, reply }) => {
      const result = await service.login(ctx.deps, body, ctx.request);
      setSessionCookie(reply, result.token, new Date(Date.now() + deps.sessionPolicy.maxMs));
      return { ...result.user, token: result.token };
    },
  });
  route(app, deps, {
    method: 'POST',
    url: '/api/users/logout',
    access: 'authed',
    handler: async ({ ctx, reply }) => {
      await service.logout(ctx.deps, ctx.actor, ctx.request);
      clearSessionCookie(reply);
      return { message: 'Logged out successfully.' };
    },
  });
}
