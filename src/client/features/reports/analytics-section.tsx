import type { ReactNode } from 'react';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { ReportsTab, type ReportsTabConfig } from './reports-tab';
import { StatsError, SummaryCard } from './stat-card';

/**
 * A domain's analytics (docs/product.md#screens-and-routes, Reports): a Statistics tab over the stats query and a
 * Reports tab with the domain's downloads.
 */
export function AnalyticsSection<TData>({
  id,
  title,
  stats,
  renderStats,
  config,
  categories,
}: {
  id: string;
  title: string;
  stats: { isPending: boolean; isError: boolean; error: unknown; data?: TData };
  renderStats: (data: TData) => ReactNode;
  config: ReportsTabConfig;
  categories: string[];
}) {
  return (
    <section className="space-y-4" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="text-xl font-semibold">
        {title}
      </h2>
      <Tabs defaultValue="statistics">
        <TabsList>
          <TabsTrigger value="statistics">Statistics</TabsTrigger>
          <TabsTrigger value="reports">Reports</TabsTrigger>
        </TabsList>
        <TabsContent value="statistics">
          {stats.isPending ? (
            <Skeleton className="h-48 w-full" />
          ) : stats.isError || stats.data === undefined ? (
            <StatsError error={stats.error} />
          ) : (
            renderStats(stats.data)
          )}
        </TabsContent>
        <TabsContent value="reports">
          <ReportsTab config={config} categories={categories} />
        </TabsContent>
      </Tabs>
    </section>
  );
}

/** A numbered 'Most Popular ...' card: name on the left, count on the right. */
export function RankedListCard({
  title,
  items,
  empty,
}: {
  title: string;
  items: Array<{ key: string; label: ReactNode; count: string }>;
  empty: string;
}) {
  return (
    <SummaryCard title={title} empty={empty}>
      {items.length > 0 && (
        <ol className="space-y-2">
          {items.map((item, i) => (
            <li key={item.key} className="flex items-center justify-between gap-3 text-sm">
              <span>
                {i + 1}. {item.label}
              </span>
              <span className="tabular-nums">{item.count}</span>
            </li>
          ))}
        </ol>
      )}
    </SummaryCard>
  );
}
