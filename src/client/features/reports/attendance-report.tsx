import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { NativeSelect } from '@/components/native-select';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { numeric, SimpleTable } from '@/components/simple-table';
import { TableCell, TableRow } from '@/components/ui/table';
import { trpc } from '@/lib/trpc';
import { BranchSelect } from '@/features/payments/payment-common';
import { addToDate } from '@shared/calendar';
import type {
  TAttendanceReport,
  TAttendanceReportFilters,
  TAttendanceStudentPage,
  TAttendanceStudentRow,
} from '@shared/schemas/attendance-reports';
import { PreparedFiles } from './prepared-files';
import { ReportFileButtons } from './report-file-buttons';
import { DayRangeInputs } from '@/components/day-range-inputs';
import { ReportResult } from './report-range';
import { StatsError } from './stat-card';
import { useReportDownloads } from './use-report-download';
import { useOrgToday } from '@/lib/org-clock';
import { LabelledField } from '@/components/labelled-field';

const rateText = (rate: number | null) => (rate === null ? '—' : `${rate.toFixed(1)} %`);
const num = 'text-right tabular-nums';
const MARK_HEADS = ['Present', 'Late', 'Absent', 'Excused', 'Unmarked', 'Rate'].map(numeric);

/**
 * Reports → Attendance (docs/reports.md#attendance): per batch the sessions held and cancelled and
 * the marks, per student the rate over the range, and the students under the threshold, for a
 * range of days (the last 30 at first), a branch and a batch; the student lists page by cursor.
 */
export function AttendanceReport() {
  // Today on the organisation's clock, as the appointments report: unset until chosen, so the
  // defaults follow the organisation's day once it is known, not the browser's.
  const today = useOrgToday();
  const [chosenFrom, setFrom] = useState<string>();
  const [chosenTo, setTo] = useState<string>();
  const from = chosenFrom ?? addToDate(today, { days: -29 });
  const to = chosenTo ?? today;
  const [branchId, setBranchId] = useState('');
  const [batchId, setBatchId] = useState('');
  const filters: TAttendanceReportFilters = {
    from,
    to,
    branchId: branchId || undefined,
    batchId: batchId || undefined,
  };
  const report = useQuery({ ...trpc.attendanceReports.get.queryOptions(filters), retry: false });
  const batches = useQuery(trpc.batches.list.queryOptions({ branchId: branchId || undefined }));
  const downloads = useReportDownloads();
  const query = new URLSearchParams(
    Object.entries(filters).filter((e): e is [string, string] => e[1] !== undefined),
  ).toString();

  return (
    <section className="min-w-0 space-y-4" aria-labelledby="attendance-report-title">
      <div>
        <h2 id="attendance-report-title" className="text-xl font-semibold">
          Attendance
        </h2>
        <p className="text-sm text-muted-foreground">
          Sessions held and cancelled, and who came, by batch and student.
        </p>
      </div>
      <div className="flex flex-wrap items-end gap-3">
        <DayRangeInputs id="attendance-report" from={from} to={to} onFrom={setFrom} onTo={setTo} />
        <LabelledField id="attendance-report-branch" label="Branch" className="w-44">
          <BranchSelect
            id="attendance-report-branch"
            value={branchId}
            onChange={(v) => {
              setBranchId(v);
              setBatchId('');
            }}
          />
        </LabelledField>
        <LabelledField id="attendance-report-batch" label="Batch" className="w-56">
          <NativeSelect
            id="attendance-report-batch"
            value={batchId}
            onChange={(e) => setBatchId(e.target.value)}
            empty="All batches"
            choices={(batches.data?.data ?? []).map((b) => ({ value: b._id, label: b.name }))}
          />
        </LabelledField>
        <ReportFileButtons
          downloads={downloads}
          title="Attendance Report"
          fileBase="attendance_report"
          className="flex gap-2"
          request={(format) => ({
            method: 'GET',
            path: `/api/reports/attendance/${format === 'xlsx' ? 'excel' : 'pdf'}?${query}`,
          })}
        />
      </div>
      <PreparedFiles files={downloads.files} onDownload={downloads.fetchPrepared} onDismiss={downloads.dismiss} />
      <ReportResult report={report}>{(data) => <AttendanceReportBody data={data} filters={filters} />}</ReportResult>
    </section>
  );
}

function AttendanceReportBody({ data, filters }: { data: TAttendanceReport; filters: TAttendanceReportFilters }) {
  const key = JSON.stringify(filters);
  return (
    <div className="grid min-w-0 gap-6">
      <div className="min-w-0 space-y-2">
        <h3 className="font-medium">By batch</h3>
        <SimpleTable
          label="Attendance by batch"
          heads={['Batch', 'Branch', ...['Sessions', 'Held', 'Cancelled', 'To come'].map(numeric), ...MARK_HEADS]}
          rows={data.byBatch}
          empty="No batch met in this range."
        >
          {(b) => (
            <TableRow key={b.batch._id} data-testid="attendance-batch-row">
              <TableCell className="min-w-40 whitespace-normal">
                {b.batch.name}
                {b.batch.status === 'closed' && (
                  <Badge variant="secondary" className="ml-2">
                    Closed
                  </Badge>
                )}
              </TableCell>
              <TableCell className="whitespace-normal">{b.branch.name}</TableCell>
              <TableCell className={num}>{b.sessions}</TableCell>
              <TableCell className={num}>{b.held}</TableCell>
              <TableCell className={num}>{b.cancelled}</TableCell>
              <TableCell className={num}>{b.upcoming}</TableCell>
              <MarkCells row={b} />
            </TableRow>
          )}
        </SimpleTable>
      </div>
      <StudentList
        key={`students-${key}`}
        title="By student"
        list="byStudent"
        first={data.byStudent}
        filters={filters}
        empty="No student on the rosters of these batches."
      />
      <StudentList
        key={`under-${key}`}
        title={`Under ${data.threshold} %`}
        list="underThreshold"
        first={data.underThreshold}
        filters={filters}
        empty={`No student under ${data.threshold} % in this range.`}
      />
    </div>
  );
}

function MarkCells({
  row,
}: {
  row: Pick<TAttendanceStudentRow, 'present' | 'late' | 'absent' | 'excused' | 'unmarked' | 'rate'>;
}) {
  return (
    <>
      <TableCell className={num}>{row.present}</TableCell>
      <TableCell className={num}>{row.late}</TableCell>
      <TableCell className={num}>{row.absent}</TableCell>
      <TableCell className={num}>{row.excused}</TableCell>
      <TableCell className={num}>{row.unmarked}</TableCell>
      <TableCell className={`${num} font-medium`}>{rateText(row.rate)}</TableCell>
    </>
  );
}

/** One of the student lists: its first page from the report, "Load more" for the pages after it. */
function StudentList({
  title,
  list,
  first,
  filters,
  empty,
}: {
  title: string;
  list: 'byStudent' | 'underThreshold';
  first: TAttendanceStudentPage;
  filters: TAttendanceReportFilters;
  empty: string;
}) {
  const queryClient = useQueryClient();
  const [rows, setRows] = useState(first.data);
  const [cursor, setCursor] = useState(first.nextCursor);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const more = async (after: string) => {
    setLoading(true);
    setError(null);
    try {
      const page = await queryClient.fetchQuery(
        trpc.attendanceReports.students.queryOptions({ ...filters, list, cursor: after, limit: 100 }),
      );
      setRows((r) => [...r, ...page.data]);
      setCursor(page.nextCursor);
    } catch (err) {
      setError(err);
    } finally {
      setLoading(false);
    }
  };
  return (
    <div className="min-w-0 space-y-2">
      <h3 className="font-medium">{title}</h3>
      <SimpleTable
        label={`Attendance ${title.toLowerCase()}`}
        heads={['Student', 'Batch', numeric('Held'), ...MARK_HEADS]}
        rows={rows}
        empty={empty}
      >
        {(r) => (
          <TableRow key={r.enrollmentId} data-testid={`attendance-${list}-row`}>
            <TableCell className="min-w-36 whitespace-normal">{r.student.fullName}</TableCell>
            <TableCell className="min-w-40 whitespace-normal">{r.batch.name}</TableCell>
            <TableCell className={num}>{r.held}</TableCell>
            <MarkCells row={r} />
          </TableRow>
        )}
      </SimpleTable>
      {error !== null && <StatsError error={error} />}
      {cursor && (
        <Button variant="outline" size="sm" disabled={loading} onClick={() => void more(cursor)}>
          {loading ? 'Loading…' : 'Load more'}
        </Button>
      )}
    </div>
  );
}
