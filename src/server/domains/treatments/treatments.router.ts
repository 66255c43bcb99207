import { router } from '../../trpc/init';
import { adminProcedure, serve, serveId, staffProcedure } from '../../trpc/procedures';
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
  list: staffProcedure.input(ZListTreatmentsInput).output(ZTreatmentPage).query(serve(service.listTreatments)),
  options: staffProcedure.output(ZTreatmentList).query(serve(service.listAllTreatments)),
  get: staffProcedure.input(ZTreatmentIdInput).output(ZTreatment).query(serveId(service.getTreatment)),
  create: adminProcedure.input(ZCreateTreatmentInput).output(ZTreatment).mutation(serve(service.createTreatment)),
  update: adminProcedure.input(ZUpdateTreatmentInput).output(ZTreatment).mutation(serve(service.updateTreatment)),
  delete: adminProcedure.input(ZTreatmentIdInput).output(ZMessage).mutation(serveId(service.deleteTreatment)),
});
