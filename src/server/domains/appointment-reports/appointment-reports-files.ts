import ExcelJS from 'exceljs';
import { todayIn } from '../../../shared/calendar';
import { formatDateTime, formatDay } from '../../../shared/format';
import { reportFileName } from '../../../shared/report-columns';
import { recordAudit } from '../audit/audit.service';
import type { ServiceContext } from '../context';
import { CONTENT_TYPES } from '../reports/reports.service';
import { sectionsPdf } from '../reports/sections-pdf';
import { loadOrganisation } from '../settings/organisation.service';
import type { TAppointmentReport, TAppointmentReportFilters } from '@shared/schemas/appointment-reports';
import { appointmentReportOf, appointmentReportScope } from './appointment-reports.service';
import { periodFilterLines } from '../reports/report-filters';

export const APPOINTMENT_REPORT_TITLE = 'Appointments';

type Cell = string | number | null;
interface Section {
  title: string;
  headers: string[];
  /** Which columns are numbers (right-aligned in the PDF). */
  numeric: boolean[];
  rows: Cell[][];
}

/** A rate as a percentage with one decimal, as the files print it. */
const percent = (rate: number | null) => (rate === null ? null : Math.round(rate * 1000) / 10);

/**
 * The report as four tables. Unlike the list reports, every table is bounded (practitioners ×
 * branches, the customers seen, at most 367 days), so both files are built whole in memory.
 */
function sections(r: TAppointmentReport): Section[] {
  const noShowHeaders = ['Appointments (outcome known)', 'No-shows', 'No-show rate %'];
  return [
    {
      title: 'Utilisation',
      headers: ['Practitioner', 'Branch', 'Booked minutes', 'Working minutes', 'Utilisation %'],
      numeric: [false, false, true, true, true],
      rows: r.utilisation.map((u) => [
        u.practitioner.fullName,
        u.branch.name,
        u.bookedMinutes,
        u.workingMinutes,
        percent(u.rate),
      ]),
    },
    {
      title: 'No-shows by practitioner',
      headers: ['Practitioner', ...noShowHeaders],
      numeric: [false, true, true, true],
      rows: r.noShows.byPractitioner.map((n) => [n.practitioner.fullName, n.appointments, n.noShows, percent(n.rate)]),
    },
    {
      title: 'No-shows by customer',
      headers: ['Customer', ...noShowHeaders],
      numeric: [false, true, true, true],
      rows: r.noShows.byCustomer.map((n) => [n.customer.fullName, n.appointments, n.noShows, percent(n.rate)]),
    },
    {
      title: 'By status per day',
      headers: ['Day', 'Scheduled', 'Confirmed', 'Arrived', 'Completed', 'Cancelled', 'No-show'],
      numeric: [false, true, true, true, true, true, true],
      rows: r.byDay.map((d) => [
        formatDay(d.day),
        d.scheduled,
        d.confirmed,
        d.arrived,
        d.completed,
        d.cancelled,
        d.no_show,
      ]),
    },
  ];
}

interface FileMeta {
  generatedAt: Date;
  timeZone: string;
  filterLines: string[];
  organisation: { name: string };
}

/** One sheet per table, then the same "Report info" sheet as the other reports. */
async function buildXlsx(parts: Section[], meta: FileMeta): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.creator = 'Back Office';
  wb.created = meta.generatedAt;
  for (const part of parts) {
    const sheet = wb.addWorksheet(part.title.slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = part.headers.map((h, i) => ({ width: i === 0 ? 28 : Math.max(12, h.length + 2) }));
    const header = sheet.addRow(part.headers);
    header.eachCell((cell) => {
      cell.font = { bold: true, color: { argb: 'FFFFFFFF' } };
      cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FF1F4E79' } };
    });
    for (const row of part.rows) sheet.addRow(row);
  }
  const info = wb.addWorksheet('Report info');
  info.columns = [{ width: 22 }, { width: 60 }];
  for (const [k, v] of [
    ['Organisation', meta.organisation.name],
    ['Report', APPOINTMENT_REPORT_TITLE],
    ['Generated', `${formatDateTime(meta.generatedAt, meta.timeZone)} (${meta.timeZone})`],
    ['Filters', meta.filterLines.join('; ')],
  ]) {
    info.addRow([k, v]).getCell(1).font = { bold: true };
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** Title, filters and generation time, then each table under its heading. */
function buildPdf(parts: Section[], meta: FileMeta): Buffer {
  return sectionsPdf({
    title: APPOINTMENT_REPORT_TITLE,
    organisation: meta.organisation,
    lines: [
      `Generated: ${formatDateTime(meta.generatedAt, meta.timeZone)} (${meta.timeZone})`,
      `Filters: ${meta.filterLines.join('; ')}`,
    ],
    sections: parts.map((p) => ({ ...p, body: p.rows.map((r) => r.map((c) => (c === null ? '' : String(c)))) })),
  });
}

export interface AppointmentReportFile {
  fileName: string;
  contentType: string;
  body: Buffer;
}

/** The report as Excel or PDF; the download is recorded in the audit trail as other reports are. */
export async function appointmentReportFile(
  ctx: ServiceContext,
  filters: TAppointmentReportFilters,
  format: 'xlsx' | 'pdf',
): Promise<AppointmentReportFile> {
  const tz = ctx.deps.config.TIME_ZONE;
  const scope = await appointmentReportScope(ctx, filters);
  const [report, filterLines, organisation] = await Promise.all([
    appointmentReportOf(ctx, scope),
    // The file prints its period and branch as the attendance report's does.
    periodFilterLines(ctx.db, scope),
    loadOrganisation(ctx.db, ctx.deps.config),
  ]);
  await recordAudit(ctx.db, ctx, {
    action: 'download',
    entityType: 'report',
    entityId: 'appointments',
    summary: `Downloaded Appointments (${format === 'pdf' ? 'PDF' : 'Excel'}); filters: ${filterLines.join('; ')}`,
  });
  const meta: FileMeta = { generatedAt: new Date(), timeZone: tz, filterLines, organisation };
  const parts = sections(report);
  const body = format === 'pdf' ? buildPdf(parts, meta) : await buildXlsx(parts, meta);
  return {
    fileName: reportFileName('appointment_report', todayIn(tz), format),
    contentType: CONTENT_TYPES[format],
    body,
  };
}
