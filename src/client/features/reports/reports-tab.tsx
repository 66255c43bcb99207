import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { loadErrorMessage } from '@/lib/errors';
import { trpc } from '@/lib/trpc';
import { plural } from '@shared/format';
import { REPORT_COLUMN_LABELS } from '@shared/report-columns';
import { PreparedFiles } from './prepared-files';
import { ReportFileButtons } from './report-file-buttons';
import { EMPTY_FILTERS, filtersToQuery, ReportFilters, type FilterValues } from './report-filters';
import { useReportDownloads } from './use-report-download';

export interface ReportDef {
  title: string;
  description: string;
  /** File name prefix, as the server names it (docs/product.md#rest-paths). */
  fileBase: string;
  /** e.g. '/api/course-reports/enrollments'; `excel`/`pdf` paths take no format parameter. */
  excelPath: string;
  pdfPath: string;
}

export interface ReportsTabConfig {
  kind: 'course' | 'treatment';
  /** The list report and the per-record report counted after Apply. */
  countReports: {
    list: 'courses' | 'treatments';
    records: 'enrollments' | 'bookings';
    listLabel: string;
    recordsLabel: string;
  };
  reports: ReportDef[];
  customPath: string;
  customFileBase: string;
  columns: readonly string[];
  defaultColumns: readonly string[];
}

function withQuery(path: string, q: URLSearchParams, extra?: Record<string, string>) {
  const all = new URLSearchParams(q);
  for (const [k, v] of Object.entries(extra ?? {})) all.set(k, v);
  const s = all.toString();
  return s ? `${path}${path.includes('?') ? '&' : '?'}${s}` : path;
}

function toInput(f: FilterValues) {
  return {
    category: f.category.trim() || undefined,
    minFee: f.min.trim() || undefined,
    maxFee: f.max.trim() || undefined,
    startDate: f.startDate || undefined,
    endDate: f.endDate || undefined,
  };
}

export function ReportsTab({ config, categories }: { config: ReportsTabConfig; categories: string[] }) {
  const [applied, setApplied] = useState<FilterValues>(EMPTY_FILTERS);
  const [columns, setColumns] = useState<string[]>([...config.defaultColumns]);
  const downloads = useReportDownloads();
  const query = filtersToQuery(config.kind, applied);
  const input = toInput(applied);
  const listCount = useQuery(trpc.reports.count.queryOptions({ report: config.countReports.list, filters: input }));
  const recordCount = useQuery(
    trpc.reports.count.queryOptions({ report: config.countReports.records, filters: input }),
  );

  const countText = (q: typeof listCount, label: string) =>
    q.isError ? `${label}: ${loadErrorMessage(q.error)}` : q.data ? plural(q.data.rows, label) : `… ${label}`;

  return (
    <div className="space-y-4">
      <Card>
        <CardHeader>
          <CardTitle>Filters</CardTitle>
          <CardDescription>
            Category and {config.kind === 'course' ? 'fee' : 'price'} range select the{' '}
            {config.kind === 'course' ? 'courses' : 'treatments'}; the date range selects creation dates for the list
            and {config.kind === 'course' ? 'enrolment' : 'booking'} dates for the other reports.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-3">
          <ReportFilters kind={config.kind} categories={categories} onApply={setApplied} />
          <p className="text-sm text-muted-foreground" data-testid={`${config.kind}-match-count`}>
            Matching: {countText(listCount, config.countReports.listLabel)},{' '}
            {countText(recordCount, config.countReports.recordsLabel)}
          </p>
        </CardContent>
      </Card>
      <PreparedFiles files={downloads.files} onDownload={downloads.fetchPrepared} onDismiss={downloads.dismiss} />
      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        {config.reports.map((r) => (
          <Card key={r.title} className="gap-3">
            <CardHeader>
              <CardTitle>{r.title}</CardTitle>
              <CardDescription>{r.description}</CardDescription>
            </CardHeader>
            <CardContent>
              <ReportFileButtons
                downloads={downloads}
                title={r.title}
                fileBase={r.fileBase}
                request={(format) => ({
                  method: 'GET',
                  path: withQuery(format === 'xlsx' ? r.excelPath : r.pdfPath, query),
                })}
              />
            </CardContent>
          </Card>
        ))}
      </div>
      <Card className="gap-3">
        <CardHeader>
          <CardTitle>Custom Report</CardTitle>
          <CardDescription>Choose the columns to include.</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          <fieldset className="grid gap-2 sm:grid-cols-3">
            <legend className="sr-only">Columns</legend>
            {config.columns.map((c) => (
              <label key={c} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  className="size-4"
                  checked={columns.includes(c)}
                  onChange={(e) =>
                    setColumns((cols) =>
                      e.target.checked
                        ? config.columns.filter((x) => x === c || cols.includes(x))
                        : cols.filter((x) => x !== c),
                    )
                  }
                />
                {REPORT_COLUMN_LABELS[c as keyof typeof REPORT_COLUMN_LABELS] ?? c}
              </label>
            ))}
          </fieldset>
          <ReportFileButtons
            downloads={downloads}
            title="Custom Report"
            fileBase={config.customFileBase}
            disabled={columns.length === 0}
            request={(format) => ({
              method: 'POST',
              path: withQuery(config.customPath, query, { format }),
              body: { fields: columns },
            })}
          >
            {columns.length === 0 && <span className="text-sm text-muted-foreground">Select at least one column.</span>}
          </ReportFileButtons>
        </CardContent>
      </Card>
    </div>
  );
}
