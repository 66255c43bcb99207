import { router } from '../../trpc/init';
import { adminProcedure, authedProcedure, serve, serveId, staffProcedure } from '../../trpc/procedures';
import {
  ZBatch,
  ZBatchIdInput,
  ZBatchList,
  ZBatchSessionsInput,
  ZClassSessionList,
  ZCreateBatchInput,
  ZEnrollmentIdInput,
  ZJoinBatchInput,
  ZListBatchesInput,
  ZRegister,
  ZRegisterInput,
  ZRoster,
  ZRosterPlace,
  ZUpdateBatchInput,
} from '@shared/schemas/classes';
import { ZMessage } from '@shared/schemas/output';
import { createBatch, deleteBatch, getBatch, listBatches, updateBatch } from './batches.service';
import { getRoster, joinBatch, leaveBatch } from './roster.service';
import { batchRegister } from './register.service';
import { listBatchSessions } from './sessions.service';

/** docs/classes.md#who-may-do-what: `sessions` is authed, the service admits staff and the instructor. */
export const batchesRouter = router({
  list: staffProcedure.input(ZListBatchesInput).output(ZBatchList).query(serve(listBatches)),
  get: staffProcedure.input(ZBatchIdInput).output(ZBatch).query(serveId(getBatch)),
  create: adminProcedure.input(ZCreateBatchInput).output(ZBatch).mutation(serve(createBatch)),
  update: adminProcedure.input(ZUpdateBatchInput).output(ZBatch).mutation(serve(updateBatch)),
  delete: adminProcedure.input(ZBatchIdInput).output(ZMessage).mutation(serveId(deleteBatch)),
  sessions: authedProcedure.input(ZBatchSessionsInput).output(ZClassSessionList).query(serve(listBatchSessions)),
  register: staffProcedure.input(ZRegisterInput).output(ZRegister).query(serve(batchRegister)),
  roster: staffProcedure.input(ZBatchIdInput).output(ZRoster).query(serveId(getRoster)),
  join: staffProcedure.input(ZJoinBatchInput).output(ZRosterPlace).mutation(serve(joinBatch)),
  leave: staffProcedure.input(ZEnrollmentIdInput).output(ZMessage).mutation(serveId(leaveBatch)),
});
