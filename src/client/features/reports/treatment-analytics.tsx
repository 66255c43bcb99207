import { useQuery } from '@tanstack/react-query';
import { useCurrencies } from '@/lib/format';
import { trpc } from '@/lib/trpc';
import { formatMoney, plural } from '@shared/format';
import { DEFAULT_TREATMENT_REPORT_COLUMNS, TREATMENT_REPORT_COLUMNS } from '@shared/report-columns';
import type { TreatmentStats } from './report-types';
import { AnalyticsSection, RankedListCard } from './analytics-section';
import type { ReportsTabConfig } from './reports-tab';
import { StatCard } from './stat-card';

const CONFIG: ReportsTabConfig = {
  kind: 'treatment',
  countReports: { list: 'treatments', records: 'bookings', listLabel: 'treatment', recordsLabel: 'booking' },
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
    <AnalyticsSection
      id="treatment-analytics"
      title="Treatment Analytics"
      stats={stats}
      renderStats={(d) => <TreatmentStatsBody data={d.data} />}
      config={CONFIG}
      categories={categories}
    />
  );
}

function TreatmentStatsBody({ data }: { data: TreatmentStats }) {
  const p = data.localPriceStats;
  const local = useCurrencies().localCurrency;
  return (
    <div className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard title="Total Treatments" value={data.totalTreatments} />
        <StatCard title="New Treatments (30 days)" value={data.recentTreatments} />
        <StatCard title="Average Price (Local)" value={formatMoney(p.avgLocalPrice, local)} />
        <StatCard
          title="Price Range (Local)"
          value={`${formatMoney(p.minLocalPrice, local)} - ${formatMoney(p.maxLocalPrice, local)}`}
        />
      </div>
      <RankedListCard
        title="Most Popular Treatments"
        items={data.popularTreatments.map((t) => ({
          key: t.treatment._id,
          label: t.treatment.treatmentName,
          count: plural(t.bookingCount, 'booking'),
        }))}
        empty="No popular treatments data available"
      />
    </div>
  );
}
