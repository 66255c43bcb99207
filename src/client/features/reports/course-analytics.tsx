import { useQuery } from '@tanstack/react-query';
import type { ChartConfig } from '@/components/ui/chart';
import { useCurrencies } from '@/lib/format';
import { trpc } from '@/lib/trpc';
import { formatMoney, plural } from '@shared/format';
import { COURSE_REPORT_COLUMNS, DEFAULT_COURSE_REPORT_COLUMNS } from '@shared/report-columns';
import type { CourseStats } from './report-types';
import { AnalyticsSection, RankedListCard } from './analytics-section';
import type { ReportsTabConfig } from './reports-tab';
import { CountBarChart, PALETTE, StatCard, SummaryCard } from './stat-card';

const CONFIG: ReportsTabConfig = {
  kind: 'course',
  countReports: { list: 'courses', records: 'enrollments', listLabel: 'course', recordsLabel: 'enrollment' },
  reports: [
    {
      title: 'Course List',
      description: 'Every course with its fees.',
      fileBase: 'course_report',
      excelPath: '/api/course-reports/excel',
      pdfPath: '/api/course-reports/pdf',
    },
    {
      title: 'Enrollment Report',
      description: 'One row per enrolment: paid and outstanding amounts, status.',
      fileBase: 'enrollment_report',
      excelPath: '/api/course-reports/enrollments?format=xlsx',
      pdfPath: '/api/course-reports/enrollments?format=pdf',
    },
    {
      title: 'Revenue Report',
      description: 'Per course: billed, collected, refunded, net and outstanding, with totals.',
      fileBase: 'revenue_report',
      excelPath: '/api/course-reports/revenue?format=xlsx',
      pdfPath: '/api/course-reports/revenue?format=pdf',
    },
  ],
  customPath: '/api/course-reports/custom',
  customFileBase: 'custom_report',
  columns: COURSE_REPORT_COLUMNS,
  defaultColumns: DEFAULT_COURSE_REPORT_COLUMNS,
};

export function CourseAnalytics() {
  const stats = useQuery(trpc.reports.courseStats.queryOptions());
  const categories = stats.data?.data.categoryCounts.map((c) => c._id) ?? [];
  return (
    <AnalyticsSection
      id="course-analytics"
      title="Course Analytics"
      stats={stats}
      renderStats={(d) => <CourseStatsBody data={d.data} />}
      config={CONFIG}
      categories={categories}
    />
  );
}

const categoryConfig: ChartConfig = { count: { label: 'Courses', color: PALETTE[1] } };

function CourseStatsBody({ data }: { data: CourseStats }) {
  const currencies = useCurrencies();
  return (
    <div className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard title="Total Courses" value={data.totalCourses} />
        <StatCard title="New Courses (30 days)" value={data.recentCourses} />
        <StatCard title="Average Fee" value={formatMoney(data.feeStats.avgFee, currencies.localCurrency)} />
        <StatCard
          title="Fee Range"
          value={`${formatMoney(data.feeStats.minFee, currencies.localCurrency)} - ${formatMoney(data.feeStats.maxFee, currencies.localCurrency)}`}
        />
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <SummaryCard title="Courses by Category" empty="No courses yet.">
          {data.categoryCounts.length > 0 && (
            <CountBarChart
              config={categoryConfig}
              data={data.categoryCounts.map((c) => ({ category: c._id, count: c.count }))}
              xKey="category"
              className="max-h-64 w-full"
              testId="course-category-chart"
            />
          )}
        </SummaryCard>
        <RankedListCard
          title="Most Popular Courses"
          items={data.popularCourses.map((p) => ({
            key: p.course._id,
            label: (
              <>
                {p.course.courseName} <span className="text-muted-foreground">({p.course.category})</span>
              </>
            ),
            count: plural(p.enrollmentCount, 'enrollment'),
          }))}
          empty="No popular courses data available"
        />
      </div>
    </div>
  );
}
