import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { DEVICE_COOKIE, setDeviceCookie } from '../../auth/device-cookie';
import { clearSessionCookie, setSessionCookie } from '../../http/auth-hook';
import { route } from '../../http/rest';
import { ZLoginInput } from '@shared/schemas/auth';
import * as service from './auth.service';
import { ZSignedIn } from '@shared/schemas/auth.output';
import { ZMessage } from '@shared/schemas/output';

export function registerAuthRest(app: FastifyInstance, deps: AppDeps) {
  route(app, deps, {
    method: 'POST',
    url: '/api/users/auth',
    access: 'public',
    response: ZSignedIn,
    rateLimit: 'signIn',
    body: ZLoginInput,
    handler: async ({ ctx, body, req, reply }) => {
      const result = await service.login(ctx, body, { ip: req.ip, deviceCookie: req.cookies[DEVICE_COOKIE] });
      setSessionCookie(reply, result.token, new Date(Date.now() + deps.sessionPolicy.maxMs));
      setDeviceCookie(reply, result.deviceCookie);
      return { ...result.user, token: result.token };
    },
  });
  route(app, deps, {
    method: 'POST',
    url: '/api/users/logout',
    access: 'authed',
    response: ZMessage,
    handler: async ({ ctx, reply }) => {
      await service.logout(ctx);
      clearSessionCookie(reply);
      return { message: 'Logged out successfully.' };
    },
  });
}
