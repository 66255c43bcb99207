import { router } from '../../trpc/init';
import { adminProcedure, serve, serveId, staffProcedure } from '../../trpc/procedures';
import {
  ZAdjustment,
  ZAdjustmentIdInput,
  ZAdjustmentList,
  ZAdjustmentPage,
  ZAdjustmentPreview,
  ZAdjustmentSettings,
  ZAdjustmentSettingsInput,
  ZAdjustmentsOfInput,
  ZCreateAdjustmentInput,
  ZDecideAdjustmentInput,
  ZListAdjustmentsInput,
  ZMoneyChanges,
  ZMoneyChangesInput,
  ZRevokeAdjustmentInput,
  ZScheme,
  ZSchemeInput,
  ZSchemeList,
  ZUpdateSchemeInput,
} from '@shared/schemas/adjustments';
import * as service from './adjustments.service';
import { createScheme, listSchemes, updateScheme } from './schemes.service';
import { moneyChanges } from './money-changes';

/** docs/payments.md#adjustments: managers ask (with approval on), admins give, decide and revoke. */
export const adjustmentsRouter = router({
  create: staffProcedure.input(ZCreateAdjustmentInput).output(ZAdjustment).mutation(serve(service.createAdjustment)),
  preview: staffProcedure
    .input(ZCreateAdjustmentInput)
    .output(ZAdjustmentPreview)
    .query(serve(service.previewAdjustment)),
  list: staffProcedure.input(ZAdjustmentsOfInput).output(ZAdjustmentList).query(serve(service.adjustmentsOf)),
  search: staffProcedure.input(ZListAdjustmentsInput).output(ZAdjustmentPage).query(serve(service.listAdjustments)),
  summary: staffProcedure.input(ZMoneyChangesInput).output(ZMoneyChanges).query(serve(moneyChanges)),
  get: staffProcedure.input(ZAdjustmentIdInput).output(ZAdjustment).query(serveId(service.getAdjustment)),
  revoke: adminProcedure.input(ZRevokeAdjustmentInput).output(ZAdjustment).mutation(serve(service.revokeAdjustment)),
  approve: adminProcedure.input(ZDecideAdjustmentInput).output(ZAdjustment).mutation(serve(service.approveAdjustment)),
  reject: adminProcedure.input(ZDecideAdjustmentInput).output(ZAdjustment).mutation(serve(service.rejectAdjustment)),
  settings: staffProcedure.output(ZAdjustmentSettings).query(({ ctx }) => service.getAdjustmentSettings(ctx.svc.db)),
  updateSettings: adminProcedure
    .input(ZAdjustmentSettingsInput)
    .output(ZAdjustmentSettings)
    .mutation(serve(service.updateAdjustmentSettings)),
  schemes: staffProcedure.output(ZSchemeList).query(({ ctx }) => listSchemes(ctx.svc)),
  createScheme: adminProcedure.input(ZSchemeInput).output(ZScheme).mutation(serve(createScheme)),
  updateScheme: adminProcedure.input(ZUpdateSchemeInput).output(ZScheme).mutation(serve(updateScheme)),
});
