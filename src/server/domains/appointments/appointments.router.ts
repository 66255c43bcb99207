import { router } from '../../trpc/init';
import { serve, serveId, staffProcedure } from '../../trpc/procedures';
import {
  ZAppointment,
  ZAppointmentIdInput,
  ZAppointmentList,
  ZAppointmentSeries,
  ZAppointmentSeriesInput,
  ZAppointmentStatusInput,
  ZAvailability,
  ZAvailabilityInput,
  ZCreateAppointmentInput,
  ZListAppointmentsInput,
  ZRescheduleAppointmentInput,
  ZTodayInput,
  ZTodayList,
} from '@shared/schemas/appointments';
import { ZAppointmentFigures, ZAppointmentFiguresInput, ZCalendarClock } from '@shared/schemas/appointment-figures';
import { availability, getAppointment, listAppointments, todaysAppointments } from './appointments.read';
import { appointmentFigures, calendarClock } from './appointments.stats';
import { createAppointment, createSeries, rescheduleAppointment } from './appointments.service';
import { setAppointmentStatus } from './appointments.status';

/** docs/appointments.md: the same services as the /api/appointments paths. */
export const appointmentsRouter = router({
  list: staffProcedure.input(ZListAppointmentsInput).output(ZAppointmentList).query(serve(listAppointments)),
  get: staffProcedure.input(ZAppointmentIdInput).output(ZAppointment).query(serveId(getAppointment)),
  today: staffProcedure.input(ZTodayInput).output(ZTodayList).query(serve(todaysAppointments)),
  availability: staffProcedure.input(ZAvailabilityInput).output(ZAvailability).query(serve(availability)),
  create: staffProcedure.input(ZCreateAppointmentInput).output(ZAppointment).mutation(serve(createAppointment)),
  reschedule: staffProcedure
    .input(ZRescheduleAppointmentInput)
    .output(ZAppointment)
    .mutation(serve(rescheduleAppointment)),
  setStatus: staffProcedure.input(ZAppointmentStatusInput).output(ZAppointment).mutation(serve(setAppointmentStatus)),
  figures: staffProcedure.input(ZAppointmentFiguresInput).output(ZAppointmentFigures).query(serve(appointmentFigures)),
  clock: staffProcedure.output(ZCalendarClock).query(({ ctx }) => calendarClock(ctx.svc)),
  createSeries: staffProcedure.input(ZAppointmentSeriesInput).output(ZAppointmentSeries).mutation(serve(createSeries)),
});
