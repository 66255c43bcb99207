import { z } from 'zod';
import { router } from '../../trpc/init';
import { adminProcedure, authedProcedure, serve, serveId, staffProcedure } from '../../trpc/procedures';
import {
  ZBranchSessionsInput,
  ZCancelSessionInput,
  ZClassSession,
  ZClassSessionList,
  ZDaySessionsInput,
  ZMoveSessionInput,
  ZSessionAttendance,
  ZSessionIdInput,
  ZTakeAttendanceInput,
} from '@shared/schemas/classes';
import { getSessionAttendance, takeAttendance } from './attendance.service';
import { branchSessions, cancelSession, daySessions, moveSession } from './sessions.service';

/** The register is authed: the service admits staff and the batch's instructor (docs/classes.md). */
export const classSessionsRouter = router({
  /** TIME_ZONE, so the register shows times on the organisation's clock whatever the phone's zone. */
  clock: authedProcedure
    .output(z.object({ timeZone: z.string() }))
    .query(({ ctx }) => ({ timeZone: ctx.svc.deps.config.TIME_ZONE })),
  /** The calendar's class sessions of a branch (staff). */
  inBranch: staffProcedure.input(ZBranchSessionsInput).output(ZClassSessionList).query(serve(branchSessions)),
  day: authedProcedure.input(ZDaySessionsInput).output(ZClassSessionList).query(serve(daySessions)),
  cancel: adminProcedure.input(ZCancelSessionInput).output(ZClassSession).mutation(serve(cancelSession)),
  move: adminProcedure.input(ZMoveSessionInput).output(ZClassSession).mutation(serve(moveSession)),
  attendance: authedProcedure.input(ZSessionIdInput).output(ZSessionAttendance).query(serveId(getSessionAttendance)),
  takeAttendance: authedProcedure
    .input(ZTakeAttendanceInput)
    .output(ZSessionAttendance)
    .mutation(serve(takeAttendance)),
});
