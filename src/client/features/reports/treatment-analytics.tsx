import { useQuery } from '@tanstack/react-query';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { trpc } from '@/lib/trpc';
import { formatRs } from '../../../shared/money';
import { DEFAULT_TREATMENT_REPORT_COLUMNS, TREATMENT_REPORT_COLUMNS } from '../../../shared/report-columns';
import type { TreatmentStats } from './report-types';
import { ReportsTab, type ReportsTabConfig } from './reports-tab';
import { StatCard, StatsError } from './stat-card';

const CONFIG: ReportsTabConfig = {
  kind: 'treatment',
  countReports: { list: 'treatments', records: 'bookings', listLabel: 'treatments', recordsLabel: 'bookings' },
  reports: [
    {
      title: 'Treatment List',
      description: 'Every treatment with local and foreign prices.',
      fileBase: 'list_treatment_report',
      excelPath: '/api/treatment-reports/excel',
      pdfPath: '/api/treatment-reports/pdf',
    },
    {
      title: 'Booking Report',
      description: 'One row per booking: price, paid and outstanding, per currency.',
      fileBase: 'bookings_treatment_report',
      excelPath: '/api/treatment-reports/bookings?format=xlsx',
      pdfPath: '/api/treatment-reports/bookings?format=pdf',
    },
    {
      title: 'Revenue Report',
      description: 'Per treatment and currency, with a local-currency total. Cancelled bookings excluded.',
      fileBase: 'revenue_treatment_report',
      excelPath: '/api/treatment-reports/revenue?format=xlsx',
      pdfPath: '/api/treatment-reports/revenue?format=pdf',
    },
  ],
  customPath: '/api/treatment-reports/custom',
  customFileBase: 'custom_treatment_report',
  columns: TREATMENT_REPORT_COLUMNS,
  defaultColumns: DEFAULT_TREATMENT_REPORT_COLUMNS,
};

export function TreatmentAnalytics() {
  const stats = useQuery(trpc.reports.treatmentStats.queryOptions());
  const categories = (stats.data?.data.categoryCounts ?? []).flatMap((c) => (c._id ? [c._id] : []));
  return (
    <section className="space-y-4" aria-labelledby="treatment-analytics-title">
      <h2 id="treatment-analytics-title" className="text-xl font-semibold">
        Treatment Analytics
      </h2>
      <Tabs defaultValue="statistics">
        <TabsList>
          <TabsTrigger value="statistics">Statistics</TabsTrigger>
          <TabsTrigger value="reports">Reports</TabsTrigger>
        </TabsList>
        <TabsContent value="statistics">
          {stats.isPending ? <Skeleton className="h-48 w-full" /> : stats.isError ? <StatsError error={stats.error} /> : <TreatmentStatsBody data={stats.data.data} />}
        </TabsContent>
        <TabsContent value="reports">
          <ReportsTab config={CONFIG} categories={categories} />
        </TabsContent>
      </Tabs>
    </section>
  );
}

function TreatmentStatsBody({ data }: { data: TreatmentStats }) {
  const p = data.localPriceStats;
  return (
    <div className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard title="Total Treatments" value={data.totalTreatments} />
        <StatCard title="New Treatments (30 days)" value={data.recentTreatments} />
        <StatCard title="Average Price (Local)" value={formatRs(p.avgLocalPrice)} />
        <StatCard title="Price Range (Local)" value={`${formatRs(p.minLocalPrice)} - ${formatRs(p.maxLocalPrice)}`} />
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Most Popular Treatments</CardTitle>
        </CardHeader>
        <CardContent>
          {data.popularTreatments.length ? (
            <ol className="space-y-2">
              {data.popularTreatments.map((t, i) => (
                <li key={t.treatment._id} className="flex items-center justify-between gap-3 text-sm">
                  <span>
                    {i + 1}. {t.treatment.treatmentName}
                  </span>
                  <span className="tabular-nums">{t.bookingCount} bookings</span>
                </li>
              ))}
            </ol>
          ) : (
            <p className="text-sm text-muted-foreground">No popular treatments data available</p>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
