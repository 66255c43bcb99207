import type { Db } from '../../db/client';
import type { BranchScope } from '../branch-scope';
import type { CurrencySettings } from '../settings/settings.service';
import { courseListSource, courseRevenueSource, enrollmentSource } from './course-report-sources';
import type { ReportSource } from './report-source';
import { bookingSource, treatmentListSource, treatmentRevenueSource } from './treatment-report-sources';
import { userSource } from './user-report-source';
import type { TReportSpec } from '@shared/schemas/reports';

/** Builds the source of a stored or requested report. */
export function reportSource(
  db: Db,
  spec: TReportSpec,
  /** scope: docs/security.md#branch-scope; catalogue reports (courses, treatments) are not limited. */
  opts: { timeZone: string; currency: CurrencySettings; scope?: BranchScope | null },
): ReportSource {
  const tz = opts.timeZone;
  switch (spec.report) {
    case 'users':
      return userSource(db, tz, spec.filters, spec.fields, opts.scope ?? null);
    case 'courses':
      return courseListSource(db, tz, spec.filters, spec.fields);
    case 'enrollments':
      return enrollmentSource(db, spec.filters, opts.scope ?? null);
    case 'course-revenue':
      return courseRevenueSource(db, spec.filters, opts.currency, opts.scope ?? null);
    case 'treatments':
      return treatmentListSource(db, tz, spec.filters, spec.fields);
    case 'bookings':
      return bookingSource(db, tz, spec.filters, opts.scope ?? null);
    case 'treatment-revenue':
      return treatmentRevenueSource(db, spec.filters, opts.currency, opts.scope ?? null);
  }
}
