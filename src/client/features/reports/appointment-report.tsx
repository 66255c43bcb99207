import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { trpc } from '@/lib/trpc';
import { addToDate } from '@shared/calendar';
import type { TAppointmentReport } from '@shared/schemas/appointment-reports';
import { PreparedFiles } from './prepared-files';
import { ReportFileButtons } from './report-file-buttons';
import { DayRangeInputs } from '@/components/day-range-inputs';
import { ReportResult } from './report-range';
import { SummaryCard } from './stat-card';
import { useReportDownloads } from './use-report-download';
import { useOrgToday } from '@/lib/org-clock';

const percent = (rate: number | null) => (rate === null ? '—' : `${(rate * 100).toFixed(1)} %`);

/** The appointments report (docs/reports.md#appointments) for a range of days, the last 30 by default. */
export function AppointmentReport() {
  const today = useOrgToday();
  // Unset until chosen, so the defaults follow the organisation's day once it is known.
  const [chosenFrom, setFrom] = useState<string>();
  const [chosenTo, setTo] = useState<string>();
  const from = chosenFrom ?? addToDate(today, { days: -29 });
  const to = chosenTo ?? today;
  const report = useQuery({ ...trpc.appointmentReports.get.queryOptions({ from, to }), retry: false });
  const downloads = useReportDownloads();
  const query = new URLSearchParams({ from, to }).toString();

  return (
    <section className="space-y-4" aria-labelledby="appointment-report-title">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 id="appointment-report-title" className="text-xl font-semibold">
          Appointments
        </h2>
        <div className="flex flex-wrap items-end gap-3">
          <DayRangeInputs id="appointment-report" from={from} to={to} onFrom={setFrom} onTo={setTo} />
          <ReportFileButtons
            downloads={downloads}
            title="Appointment Report"
            fileBase="appointment_report"
            className="flex gap-2"
            request={(format) => ({
              method: 'GET',
              path: `/api/reports/appointments/${format === 'xlsx' ? 'excel' : 'pdf'}?${query}`,
            })}
          />
        </div>
      </div>
      <PreparedFiles files={downloads.files} onDownload={downloads.fetchPrepared} onDismiss={downloads.dismiss} />
      <ReportResult report={report}>{(data) => <AppointmentReportBody data={data} />}</ReportResult>
    </section>
  );
}

function AppointmentReportBody({ data }: { data: TAppointmentReport }) {
  return (
    <div className="grid gap-4 2xl:grid-cols-2">
      <SummaryCard title="Practitioner utilisation" empty="No working or booked time in this range.">
        {data.utilisation.length > 0 && (
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Practitioner</TableHead>
                <TableHead>Branch</TableHead>
                <TableHead className="text-right">Booked / working (min)</TableHead>
                <TableHead className="text-right">Utilisation</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {data.utilisation.map((u) => (
                <TableRow key={`${u.practitioner._id ?? ''}-${u.branch._id}`}>
                  <TableCell>{u.practitioner.fullName}</TableCell>
                  <TableCell>{u.branch.name}</TableCell>
                  <TableCell className="text-right">{`${u.bookedMinutes} / ${u.workingMinutes}`}</TableCell>
                  <TableCell className="text-right">{percent(u.rate)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </SummaryCard>
      <SummaryCard title="No-shows by practitioner" empty="No appointment with a known outcome in this range.">
        {data.noShows.byPractitioner.length > 0 && (
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Practitioner</TableHead>
                <TableHead className="text-right">Outcome known</TableHead>
                <TableHead className="text-right">No-shows</TableHead>
                <TableHead className="text-right">Rate</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {data.noShows.byPractitioner.map((n) => (
                <TableRow key={n.practitioner._id ?? n.practitioner.fullName}>
                  <TableCell>{n.practitioner.fullName}</TableCell>
                  <TableCell className="text-right">{n.appointments}</TableCell>
                  <TableCell className="text-right">{n.noShows}</TableCell>
                  <TableCell className="text-right">{percent(n.rate)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </SummaryCard>
    </div>
  );
}
