import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../../deps';
import { route, ZIdParam } from '../../http/rest';
import { AppError } from '../../errors';
import {
  ZContactPreferences,
  ZListMessagesInput,
  ZMessageItem,
  ZMessagePage,
  ZMessageSettings,
  ZOptOutInput,
  ZPreviewAnswer,
  ZPreviewInput,
  ZSaveTemplatesInput,
  ZTemplateItem,
} from '@shared/schemas/messages';
import { loadOrganisation } from '../settings/organisation.service';
import * as service from './messages.service';
import { emailText } from '../../email/locales';

/** Query strings arrive as text: the limit is a number once parsed. */
const ZListQuery = ZListMessagesInput.extend({
  limit: z.coerce
    .number({ error: 'Rows per page must be a whole number.' })
    .int('Rows per page must be a whole number.')
    .min(1, 'Rows per page must be between 1 and 200.')
    .max(200, 'Rows per page must be between 1 and 200.')
    .default(50),
});

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string, language = 'en') {
  return `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head><body style="font-family:system-ui,sans-serif;max-width:560px;margin:48px auto;padding:0 16px;color:#111827"><h1 style="font-size:20px">${escapeHtml(title)}</h1>${body}</body></html>`;
}

export function registerMessagesRest(app: FastifyInstance, deps: AppDeps) {
  route(app, deps, {
    method: 'GET',
    url: '/api/messages',
    access: 'admin',
    query: ZListQuery,
    response: ZMessagePage,
    handler: ({ ctx, query }) => service.listMessages(ctx, query),
  });
  route(app, deps, {
    method: 'POST',
    url: '/api/messages/:id/resend',
    access: 'admin',
    params: ZIdParam,
    response: ZMessageItem,
    handler: ({ ctx, params }) => service.resendMessage(ctx, params.id),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/message-templates',
    access: 'staff',
    response: z.array(ZTemplateItem),
    handler: ({ ctx }) => service.getTemplates(ctx),
  });
  route(app, deps, {
    method: 'PUT',
    url: '/api/message-templates',
    access: 'admin',
    body: ZSaveTemplatesInput,
    response: z.array(ZTemplateItem),
    handler: ({ ctx, body }) => service.saveTemplates(ctx, body),
  });
  route(app, deps, {
    method: 'POST',
    url: '/api/message-templates/preview',
    access: 'staff',
    body: ZPreviewInput,
    response: ZPreviewAnswer,
    handler: ({ ctx, body }) => service.previewTemplate(ctx, body),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/message-settings',
    access: 'staff',
    response: ZMessageSettings,
    handler: ({ ctx }) => service.getMessageSettings(ctx),
  });
  route(app, deps, {
    method: 'PUT',
    url: '/api/message-settings',
    access: 'admin',
    body: ZMessageSettings,
    response: ZMessageSettings,
    handler: ({ ctx, body }) => service.saveMessageSettings(ctx, body),
  });
  route(app, deps, {
    method: 'PUT',
    url: '/api/users/:id/contact-preferences',
    access: 'authed',
    params: ZIdParam,
    body: ZContactPreferences,
    response: ZContactPreferences,
    handler: ({ ctx, params, body }) => service.setContactPreferences(ctx, { ...body, id: params.id }),
  });

  // The opt-out link (RFC 8058): a mail client's one-click POST sends a form body, which only
  // these two paths accept.
  void app.register(async (scoped) => {
    scoped.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
      done(null, body),
    );
    for (const method of ['GET', 'POST'] as const) {
      route(scoped, deps, {
        method,
        url: '/api/messages/opt-out',
        access: 'public',
        rateLimit: 'optOut',
        query: ZOptOutInput,
        handler: async ({ ctx, query, reply }) => {
          const org = await loadOrganisation(ctx.db, deps.config);
          const who = await optOutOrPage(() => service.applyOptOutLink(ctx, query.token, true), reply);
          if (!who) return reply;
          const undo = `/api/messages/opt-in?token=${encodeURIComponent(query.token)}`;
          // The person reads this page in their own language (the link carries no session).
          const t = emailText(who.language);
          const body = t('optOut.body', {
            name: escapeHtml(who.fullName),
            channel: t(who.channel === 'email' ? 'optOut.email' : 'optOut.sms'),
            organisation: escapeHtml(org.name),
          });
          return reply
            .type('text/html; charset=utf-8')
            .send(
              page(
                t('optOut.title'),
                `<p>${body}</p><form method="post" action="${escapeHtml(undo)}"><button type="submit">${t('optOut.undo')}</button></form>`,
                who.language,
              ),
            );
        },
      });
    }
    route(scoped, deps, {
      method: 'POST',
      url: '/api/messages/opt-in',
      access: 'public',
      rateLimit: 'optOut',
      query: ZOptOutInput,
      handler: async ({ ctx, query, reply }) => {
        const who = await optOutOrPage(() => service.applyOptOutLink(ctx, query.token, false), reply);
        if (!who) return reply;
        return reply
          .type('text/html; charset=utf-8')
          .send(
            page(
              emailText(who.language)('optIn.title'),
              `<p>${emailText(who.language)('optIn.body', { name: escapeHtml(who.fullName) })}</p>`,
              who.language,
            ),
          );
      },
    });
  });
}

/** A refused link answers a page saying so (400), never the JSON error a screen reads. */
async function optOutOrPage<T>(run: () => Promise<T>, reply: import('fastify').FastifyReply): Promise<T | null> {
  try {
    return await run();
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    await reply
      .status(err.code === 'NOT_FOUND' ? 404 : 400)
      .type('text/html; charset=utf-8')
      .send(page('This link does not work', `<p>${escapeHtml(err.message)}</p>`));
    return null;
  }
}
