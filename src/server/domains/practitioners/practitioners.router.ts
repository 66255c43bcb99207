import { router } from '../../trpc/init';
import { adminProcedure, serve, serveId, staffProcedure } from '../../trpc/procedures';
import { ZMessage } from '@shared/schemas/output';
import {
  ZAddClosureInput,
  ZAddTimeOffInput,
  ZClosure,
  ZClosureIdInput,
  ZClosureList,
  ZCreatePractitionerInput,
  ZListClosuresInput,
  ZListPractitionersInput,
  ZListTimeOffInput,
  ZPractitioner,
  ZPractitionerIdInput,
  ZPractitionerList,
  ZPractitionerRemoved,
  ZSetWorkingPlanInput,
  ZTimeOff,
  ZTimeOffIdInput,
  ZTimeOffList,
  ZUpdatePractitionerInput,
  ZWorkingPlan,
  ZWorkingPlanInput,
} from '@shared/schemas/practitioners';
import { addClosure, listClosures, removeClosure } from './closures.service';
import * as service from './practitioners.service';
import { addTimeOff, listTimeOff, removeTimeOff } from './time-off.service';

/** docs/appointments.md#resources: staff read, admins change. */
export const practitionersRouter = router({
  list: staffProcedure.input(ZListPractitionersInput).output(ZPractitionerList).query(serve(service.listPractitioners)),
  get: staffProcedure.input(ZPractitionerIdInput).output(ZPractitioner).query(serveId(service.getPractitioner)),
  create: adminProcedure
    .input(ZCreatePractitionerInput)
    .output(ZPractitioner)
    .mutation(serve(service.createPractitioner)),
  update: adminProcedure
    .input(ZUpdatePractitionerInput)
    .output(ZPractitioner)
    .mutation(serve(service.updatePractitioner)),
  remove: adminProcedure
    .input(ZPractitionerIdInput)
    .output(ZPractitionerRemoved)
    .mutation(serveId(service.removePractitioner)),
  workingPlan: staffProcedure.input(ZWorkingPlanInput).output(ZWorkingPlan).query(serve(service.getWorkingPlan)),
  setWorkingPlan: adminProcedure
    .input(ZSetWorkingPlanInput)
    .output(ZWorkingPlan)
    .mutation(serve(service.setWorkingPlan)),
  timeOff: router({
    list: staffProcedure.input(ZListTimeOffInput).output(ZTimeOffList).query(serve(listTimeOff)),
    add: adminProcedure.input(ZAddTimeOffInput).output(ZTimeOff).mutation(serve(addTimeOff)),
    remove: adminProcedure.input(ZTimeOffIdInput).output(ZMessage).mutation(serve(removeTimeOff)),
  }),
  closures: router({
    list: staffProcedure.input(ZListClosuresInput).output(ZClosureList).query(serve(listClosures)),
    add: adminProcedure.input(ZAddClosureInput).output(ZClosure).mutation(serve(addClosure)),
    remove: adminProcedure.input(ZClosureIdInput).output(ZMessage).mutation(serve(removeClosure)),
  }),
});
