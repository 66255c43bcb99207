import { router } from '../../trpc/init';
import { adminProcedure, staffProcedure } from '../../trpc/procedures';
import { ZBranchIdInput, ZCreateBranchInput, ZListBranchesInput, ZUpdateBranchInput } from '@shared/schemas/branches';
import * as service from './branches.service';

export const branchesRouter = router({
  list: staffProcedure.input(ZListBranchesInput).query(({ ctx, input }) => service.listBranches(ctx.svc, input)),
  options: staffProcedure.query(({ ctx }) => service.branchOptions(ctx.svc)),
  get: staffProcedure.input(ZBranchIdInput).query(({ ctx, input }) => service.getBranch(ctx.svc, input.id)),
  create: adminProcedure.input(ZCreateBranchInput).mutation(({ ctx, input }) => service.createBranch(ctx.svc, input)),
  update: adminProcedure.input(ZUpdateBranchInput).mutation(({ ctx, input }) => service.updateBranch(ctx.svc, input)),
  delete: adminProcedure.input(ZBranchIdInput).mutation(({ ctx, input }) => service.deleteBranch(ctx.svc, input.id)),
});
