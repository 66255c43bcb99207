import { router } from '../../trpc/init';
import { adminProcedure, staffProcedure } from '../../trpc/procedures';
import {
  ZCreateTreatmentInput,
  ZListTreatmentsInput,
  ZTreatmentIdInput,
  ZUpdateTreatmentInput,
} from '@shared/schemas/treatments';
import { ZMessage } from '@shared/schemas/output';
import { ZTreatment, ZTreatmentList, ZTreatmentPage } from '@shared/schemas/treatments.output';
import * as service from './treatments.service';

/**
 * Roles (docs/product.md#roles shows no distinction among staff on the treatment screens; the create
 * sub-link is admin-only, so changing the price list follows it, as branches do):
 *   list, options, get          manager, admin, superadmin
 *   create, update, delete      admin, superadmin
 */
export const treatmentsRouter = router({
  list: staffProcedure
    .input(ZListTreatmentsInput)
    .output(ZTreatmentPage)
    .query(({ ctx, input }) => service.listTreatments(ctx.svc, input)),
  options: staffProcedure.output(ZTreatmentList).query(({ ctx }) => service.listAllTreatments(ctx.svc)),
  get: staffProcedure
    .input(ZTreatmentIdInput)
    .output(ZTreatment)
    .query(({ ctx, input }) => service.getTreatment(ctx.svc, input.id)),
  create: adminProcedure
    .input(ZCreateTreatmentInput)
    .output(ZTreatment)
    .mutation(({ ctx, input }) => service.createTreatment(ctx.svc, input)),
  update: adminProcedure
    .input(ZUpdateTreatmentInput)
    .output(ZTreatment)
    .mutation(({ ctx, input }) => service.updateTreatment(ctx.svc, input)),
  delete: adminProcedure
    .input(ZTreatmentIdInput)
    .output(ZMessage)
    .mutation(({ ctx, input }) => service.deleteTreatment(ctx.svc, input.id)),
});
