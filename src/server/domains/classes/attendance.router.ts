import { router } from '../../trpc/init';
import { serve, serveId, staffProcedure } from '../../trpc/procedures';
import {
  ZEnrollmentAttendance,
  ZEnrollmentIdInput,
  ZFallingBehind,
  ZFallingBehindInput,
} from '@shared/schemas/classes';
import { enrollmentAttendance, fallingBehind } from './attendance.service';

export const attendanceRouter = router({
  enrollment: staffProcedure
    .input(ZEnrollmentIdInput)
    .output(ZEnrollmentAttendance)
    .query(serveId(enrollmentAttendance)),
  fallingBehind: staffProcedure.input(ZFallingBehindInput).output(ZFallingBehind).query(serve(fallingBehind)),
});
