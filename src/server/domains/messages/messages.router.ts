import { z } from 'zod';
import { router } from '../../trpc/init';
import { adminProcedure, authedProcedure, serve, serveId, staffProcedure } from '../../trpc/procedures';
import {
  ZContactPreferences,
  ZContactPreferencesInput,
  ZListMessagesInput,
  ZMessageIdInput,
  ZMessageItem,
  ZMessagePage,
  ZMessageSettings,
  ZPreviewAnswer,
  ZPreviewInput,
  ZSaveTemplatesInput,
  ZTemplateItem,
} from '@shared/schemas/messages';
import * as service from './messages.service';

export const messagesRouter = router({
  list: adminProcedure.input(ZListMessagesInput).output(ZMessagePage).query(serve(service.listMessages)),
  resend: adminProcedure.input(ZMessageIdInput).output(ZMessageItem).mutation(serveId(service.resendMessage)),
});

export const messageTemplatesRouter = router({
  list: staffProcedure.output(z.array(ZTemplateItem)).query(({ ctx }) => service.getTemplates(ctx.svc)),
  save: adminProcedure.input(ZSaveTemplatesInput).output(z.array(ZTemplateItem)).mutation(serve(service.saveTemplates)),
  preview: staffProcedure.input(ZPreviewInput).output(ZPreviewAnswer).mutation(serve(service.previewTemplate)),
});

export const messageSettingsRouter = router({
  get: staffProcedure.output(ZMessageSettings).query(({ ctx }) => service.getMessageSettings(ctx.svc)),
  save: adminProcedure.input(ZMessageSettings).output(ZMessageSettings).mutation(serve(service.saveMessageSettings)),
});

/** Mounted as users.contactPreferences: staff for anyone, a person for themselves (checked in the service). */
export const contactPreferencesProcedure = authedProcedure
  .input(ZContactPreferencesInput)
  .output(ZContactPreferences)
  .mutation(serve(service.setContactPreferences));
