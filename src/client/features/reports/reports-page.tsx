import { PageHeader } from '@/components/page-header';
import { Separator } from '@/components/ui/separator';
import { AppointmentReport } from './appointment-report';
import { AttendanceReport } from './attendance-report';
import { CourseAnalytics } from './course-analytics';
import { MoneyChangesReport } from './money-changes-report';
import { TreatmentAnalytics } from './treatment-analytics';
import { UserStatistics } from './user-statistics';

/** docs/product.md#screens-and-routes, Reports: user statistics, then course analytics, then treatment analytics, then appointments, then attendance, then discounts, scholarships and refunds. */
export function ReportsPage() {
  return (
    <div className="space-y-8">
      <PageHeader title="Reports" description="Statistics and downloadable reports." />
      <UserStatistics />
      <Separator />
      <CourseAnalytics />
      <Separator />
      <TreatmentAnalytics />
      <Separator />
      <AppointmentReport />
      <Separator />
      <AttendanceReport />
      <Separator />
      <MoneyChangesReport />
    </div>
  );
}
