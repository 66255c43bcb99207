import { router } from '../../trpc/init';
import { adminProcedure, serve, serveId, staffProcedure } from '../../trpc/procedures';
import { ZBranchIdInput, ZCreateBranchInput, ZListBranchesInput, ZUpdateBranchInput } from '@shared/schemas/branches';
import { ZBranch, ZBranchOptions, ZBranchPage } from '@shared/schemas/branches.output';
import { ZMessage } from '@shared/schemas/output';
import * as service from './branches.service';

export const branchesRouter = router({
  list: staffProcedure.input(ZListBranchesInput).output(ZBranchPage).query(serve(service.listBranches)),
  options: staffProcedure.output(ZBranchOptions).query(serve(service.branchOptions)),
  get: staffProcedure.input(ZBranchIdInput).output(ZBranch).query(serveId(service.getBranch)),
  create: adminProcedure.input(ZCreateBranchInput).output(ZBranch).mutation(serve(service.createBranch)),
  update: adminProcedure.input(ZUpdateBranchInput).output(ZBranch).mutation(serve(service.updateBranch)),
  delete: adminProcedure.input(ZBranchIdInput).output(ZMessage).mutation(serveId(service.deleteBranch)),
});
