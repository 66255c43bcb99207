import { router } from '../../trpc/init';
import { adminProcedure, serve, serveId, staffProcedure } from '../../trpc/procedures';
import { ZBranchIdInput, ZCreateBranchInput, ZListBranchesInput, ZUpdateBranchInput } from '@shared/schemas/branches';
import * as service from './branches.service';

export const branchesRouter = router({
  list: staffProcedure.input(ZListBranchesInput).query(serve(service.listBranches)),
  options: staffProcedure.query(serve(service.branchOptions)),
  get: staffProcedure.input(ZBranchIdInput).query(serveId(service.getBranch)),
  create: adminProcedure.input(ZCreateBranchInput).mutation(serve(service.createBranch)),
  update: adminProcedure.input(ZUpdateBranchInput).mutation(serve(service.updateBranch)),
  delete: adminProcedure.input(ZBranchIdInput).mutation(serveId(service.deleteBranch)),
});
