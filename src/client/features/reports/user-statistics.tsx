import { useQuery } from '@tanstack/react-query';
import { Cell, Pie, PieChart } from 'recharts';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import {
  ChartContainer,
  ChartLegend,
  ChartLegendContent,
  ChartTooltip,
  ChartTooltipContent,
  type ChartConfig,
} from '@/components/ui/chart';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { trpc } from '@/lib/trpc';
import { ROLE_LABELS } from '@shared/roles';
import { PreparedFiles } from './prepared-files';
import { ReportFileButtons } from './report-file-buttons';
import type { UserStats } from './report-types';
import { CountBarChart, PALETTE, StatCard, StatsError, SummaryCard } from './stat-card';
import { useReportDownloads } from './use-report-download';

export function UserStatistics() {
  const stats = useQuery(trpc.reports.userStats.queryOptions());
  const downloads = useReportDownloads();

  return (
    <section className="space-y-4" aria-labelledby="user-stats-title">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="user-stats-title" className="text-xl font-semibold">
          User Statistics
        </h2>
        <ReportFileButtons
          downloads={downloads}
          title="User Report"
          fileBase="user_report"
          caption=" Report"
          className="flex gap-2"
          request={(format) => ({ method: 'GET', path: `/api/reports/users/${format === 'xlsx' ? 'excel' : 'pdf'}` })}
        />
      </div>
      <PreparedFiles files={downloads.files} onDownload={downloads.fetchPrepared} onDismiss={downloads.dismiss} />
      {stats.isPending ? (
        <Skeleton className="h-64 w-full" />
      ) : stats.isError ? (
        <StatsError error={stats.error} />
      ) : (
        <UserStatsBody data={stats.data.data} />
      )}
    </section>
  );
}

function UserStatsBody({ data }: { data: UserStats }) {
  // Recharts copies each entry's fields onto its SVG shape: a field named `role` became an invalid
  // ARIA role there, so the role is kept under another name.
  const roleData = data.roleCounts.map((r, i) => ({
    roleKey: r._id,
    label: ROLE_LABELS[r._id] ?? r._id,
    count: r.count,
    fill: PALETTE[i % PALETTE.length],
  }));
  const roleConfig: ChartConfig = Object.fromEntries(
    roleData.map((r) => [r.roleKey, { label: r.label, color: r.fill }]),
  );
  const branchData = data.branchCounts.map((b) => ({ name: b.branch.name, count: b.count }));
  const branchConfig: ChartConfig = { count: { label: 'Users', color: PALETTE[0] } };

  return (
    <div className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard title="Total Users" value={data.totalUsers} />
        <StatCard title="New Users (30 days)" value={data.recentUsers} />
        {roleData.map((r) => (
          <StatCard key={r.roleKey} title={r.label} value={r.count} hint={r.count === 1 ? 'user' : 'users'} />
        ))}
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <SummaryCard title="Users by Role" empty="No users yet.">
          {roleData.length > 0 && (
            <ChartContainer config={roleConfig} className="mx-auto aspect-square max-h-72" data-testid="role-chart">
              <PieChart>
                <ChartTooltip content={<ChartTooltipContent nameKey="roleKey" hideLabel />} />
                <Pie data={roleData} dataKey="count" nameKey="roleKey" label isAnimationActive={false}>
                  {roleData.map((r) => (
                    <Cell key={r.roleKey} fill={r.fill} />
                  ))}
                </Pie>
                <ChartLegend content={<ChartLegendContent nameKey="roleKey" />} />
              </PieChart>
            </ChartContainer>
          )}
        </SummaryCard>
        <SummaryCard title="Users by Branch" empty="No users are assigned to a branch.">
          {branchData.length > 0 && (
            <CountBarChart
              config={branchConfig}
              data={branchData}
              xKey="name"
              className="max-h-72 w-full"
              testId="branch-chart"
            />
          )}
        </SummaryCard>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Branch Details</CardTitle>
        </CardHeader>
        <CardContent>
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Branch</TableHead>
                <TableHead>Location</TableHead>
                <TableHead className="text-right">Users</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {data.branchCounts.map((b) => (
                <TableRow key={b.branch._id}>
                  {/* A branch's name and address are typed text of any length: they wrap. */}
                  <TableCell className="whitespace-normal">{b.branch.name}</TableCell>
                  <TableCell className="whitespace-normal">{b.branch.location}</TableCell>
                  <TableCell className="text-right tabular-nums">{b.count}</TableCell>
                </TableRow>
              ))}
              {!data.branchCounts.length && (
                <TableRow>
                  <TableCell colSpan={3} className="text-muted-foreground">
                    No branch data available.
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </CardContent>
      </Card>
    </div>
  );
}
