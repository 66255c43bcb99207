import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { route } from '../../http/rest';
import { sendRemindersNow } from './reminders.service';

export function registerRemindersRest(app: FastifyInstance, deps: AppDeps) {
  route(app, deps, {
    method: 'POST',
    url: '/api/enrollments/send-reminders',
    access: 'admin',
    handler: ({ ctx }) => sendRemindersNow(ctx),
  });
}
