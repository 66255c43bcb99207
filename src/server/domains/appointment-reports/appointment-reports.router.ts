import { router } from '../../trpc/init';
import { serve, staffProcedure } from '../../trpc/procedures';
import { ZAppointmentReport, ZAppointmentReportFilters } from '@shared/schemas/appointment-reports';
import { appointmentReport } from './appointment-reports.service';

/** The appointments report (docs/reports.md#appointments); its files are REST downloads. Staff only. */
export const appointmentReportsRouter = router({
  get: staffProcedure.input(ZAppointmentReportFilters).output(ZAppointmentReport).query(serve(appointmentReport)),
});
