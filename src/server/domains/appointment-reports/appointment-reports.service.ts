import { eq } from 'drizzle-orm';
import { branches } from '../../db/schema';
import { AppError } from '../../errors';
import { branchScopeOf } from '../branch-scope';
import type { ServiceContext } from '../context';
import { isUuid } from '../ids';
import {
  noShows,
  statusByDay,
  utilisation,
  type AppointmentReportScope,
  type NoShowRow,
} from './appointment-reports.sql';
import type { TAppointmentReport, TAppointmentReportFilters } from '@shared/schemas/appointment-reports';

/**
 * What a caller's report covers. A manager limited to a branch (docs/security.md#branch-scope)
 * always gets that branch, whatever branchId they send, as on the other reports; a branch id that
 * is not an id answers 400, one of no branch 404.
 */
export async function appointmentReportScope(
  ctx: ServiceContext,
  f: TAppointmentReportFilters,
): Promise<AppointmentReportScope> {
  if (f.branchId !== undefined && !isUuid(f.branchId)) throw new AppError('BAD_REQUEST', 'Branch is not valid.');
  const limit = await branchScopeOf(ctx);
  const branchId = limit ? limit.branchId : (f.branchId ?? null);
  if (!limit && branchId) {
    const [row] = await ctx.db.select({ id: branches.id }).from(branches).where(eq(branches.id, branchId)).limit(1);
    if (!row) throw new AppError('NOT_FOUND', 'Branch not found.');
  }
  return {
    from: f.from,
    to: f.to,
    timeZone: ctx.deps.config.TIME_ZONE,
    branchId,
    none: limit !== null && limit.branchId === null,
  };
}

const person = (r: NoShowRow, missing: string) => ({ _id: r.id, fullName: r.name ?? missing });
const figures = (r: NoShowRow) => ({ appointments: r.appointments, noShows: r.noShows, rate: r.rate });

/** The report's figures for a scope (the JSON answer and what the files print). */
export async function appointmentReportOf(ctx: ServiceContext, s: AppointmentReportScope): Promise<TAppointmentReport> {
  const [util, byPractitioner, byCustomer, byDay] = await Promise.all([
    utilisation(ctx.db, s),
    noShows(ctx.db, s, 'practitioner'),
    noShows(ctx.db, s, 'customer'),
    statusByDay(ctx.db, s),
  ]);
  return {
    from: s.from,
    to: s.to,
    branchId: s.branchId,
    utilisation: util.map((r) => ({
      practitioner: { _id: r.practitionerId, fullName: r.practitionerName },
      branch: { _id: r.branchId, name: r.branchName },
      bookedMinutes: r.bookedMinutes,
      workingMinutes: r.workingMinutes,
      rate: r.rate,
    })),
    noShows: {
      byPractitioner: byPractitioner.map((r) => ({ practitioner: person(r, 'Unknown'), ...figures(r) })),
      byCustomer: byCustomer.map((r) => ({ customer: person(r, 'Deleted customer'), ...figures(r) })),
    },
    byDay,
  };
}

/** GET /api/reports/appointments and tRPC appointmentReports.get. Staff only (the callers check). */
export async function appointmentReport(
  ctx: ServiceContext,
  f: TAppointmentReportFilters,
): Promise<TAppointmentReport> {
  return appointmentReportOf(ctx, await appointmentReportScope(ctx, f));
}
