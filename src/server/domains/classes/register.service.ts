/**
 * A batch's register (docs/classes.md#register): its sessions over a range of days as columns, its
 * students as rows, one mark (or none) per cell, and each student's rate; as JSON, Excel or PDF.
 */
import ExcelJS from 'exceljs';
import { jsPDF } from 'jspdf';
import { autoTable } from 'jspdf-autotable';
import { and, asc, eq, gte, inArray, lte } from 'drizzle-orm';
import { attendanceMarks, batchMembers, classSessions, enrollments, users } from '../../db/schema';
import { fromZodError } from '../../errors';
import { addToDate, todayIn } from '../../../shared/calendar';
import { formatDateTime, formatDay } from '../../../shared/format';
import { reportFileName } from '../../../shared/report-columns';
import { MAX_SESSION_RANGE_DAYS, ZSessionRange, type TRegister, type TRegisterInput } from '@shared/schemas/classes';
import { recordAudit } from '../audit/audit.service';
import type { ServiceContext } from '../context';
import { CONTENT_TYPES } from '../reports/reports.service';
import { loadOrganisation } from '../settings/organisation.service';
import { attendanceStats } from './attendance.stats';
import { batchForStaff } from './classes.read';
import { studentOf } from './roster.service';

/** The range asked for, or the batch's dates (its last 366 days when it runs longer). */
function rangeOf(input: TRegisterInput, batch: { startDate: string; endDate: string }) {
  const parsed = ZSessionRange.safeParse({ from: input.from, to: input.to });
  if (!parsed.success) throw fromZodError(parsed.error);
  const to = input.to ?? batch.endDate;
  const earliest = addToDate(to, { days: -(MAX_SESSION_RANGE_DAYS - 1) });
  const from = input.from ?? (batch.startDate > earliest ? batch.startDate : earliest);
  return { from, to };
}

export async function batchRegister(ctx: ServiceContext, input: TRegisterInput): Promise<TRegister> {
  const batch = await batchForStaff(ctx, input.id);
  const { from, to } = rangeOf(input, batch);
  const sessions = await ctx.db
    .select({ id: classSessions.id, startAt: classSessions.startAt, status: classSessions.status })
    .from(classSessions)
    .where(and(eq(classSessions.batchId, batch.id), gte(classSessions.day, from), lte(classSessions.day, to)))
    .orderBy(asc(classSessions.startAt));
  const marks = sessions.length
    ? await ctx.db
        .select()
        .from(attendanceMarks)
        .where(
          inArray(
            attendanceMarks.sessionId,
            sessions.map((s) => s.id),
          ),
        )
    : [];
  // The roster's members, and anyone marked in these sessions who has since moved on.
  const members = await ctx.db
    .select({ enrollmentId: batchMembers.enrollmentId })
    .from(batchMembers)
    .where(and(eq(batchMembers.batchId, batch.id), eq(batchMembers.status, 'member')));
  const ids = [...new Set([...members.map((m) => m.enrollmentId), ...marks.map((m) => m.enrollmentId)])];
  const people = ids.length
    ? await ctx.db
        .select({
          id: enrollments.id,
          userId: users.id,
          fullName: users.fullName,
          keptName: enrollments.deletedUsername,
        })
        .from(enrollments)
        .leftJoin(users, eq(users.id, enrollments.userId))
        .where(inArray(enrollments.id, ids))
    : [];
  const stats = await attendanceStats(ctx.db, ids);
  const column = new Map(sessions.map((s, i) => [s.id, i]));
  const cells = new Map<string, Array<TRegister['students'][number]['marks'][number]>>(
    ids.map((id) => [id, sessions.map(() => null)]),
  );
  for (const m of marks) cells.get(m.enrollmentId)![column.get(m.sessionId)!] = m.status;
  return {
    batch: { _id: batch.id, name: batch.name },
    sessions: sessions.map((s) => ({ _id: s.id, start: s.startAt.toISOString(), status: s.status })),
    students: people
      .map((p) => ({
        enrollmentId: p.id,
        student: studentOf(p),
        rate: stats.get(p.id)?.rate ?? null,
        marks: cells.get(p.id)!,
      }))
      .sort((a, b) => a.student.fullName.localeCompare(b.student.fullName)),
  };
}

/** The letter each mark prints as in the files' cells (a legend explains them). */
export const MARK_LETTERS = { present: 'P', late: 'L', absent: 'A', excused: 'E' } as const;
const LEGEND = 'P present, L late, A absent, E excused, blank not marked, X cancelled session';

function grid(r: TRegister, timeZone: string) {
  const headers = ['Student', ...r.sessions.map((s) => formatDateTime(s.start, timeZone)), 'Rate %'];
  const rows = r.students.map((st) => [
    st.student.fullName,
    ...st.marks.map((m, i) => (r.sessions[i]!.status === 'cancelled' ? 'X' : m ? MARK_LETTERS[m] : '')),
    st.rate === null ? '' : st.rate.toFixed(1),
  ]);
  return { headers, rows };
}

export async function batchRegisterFile(ctx: ServiceContext, input: TRegisterInput, format: 'xlsx' | 'pdf') {
  const tz = ctx.deps.config.TIME_ZONE;
  const batch = await batchForStaff(ctx, input.id);
  const range = rangeOf(input, batch);
  const [register, organisation] = await Promise.all([
    batchRegister(ctx, { ...input, ...range }),
    loadOrganisation(ctx.db, ctx.deps.config),
  ]);
  const { headers, rows } = grid(register, tz);
  const title = `Register: ${register.batch.name}`;
  const rangeLine = `${formatDay(range.from)} – ${formatDay(range.to)}`;
  const generated = `${formatDateTime(new Date(), tz)} (${tz})`;
  await recordAudit(ctx.db, ctx, {
    action: 'download',
    entityType: 'report',
    entityId: 'class_register',
    summary: `Downloaded the register of ${register.batch.name} (${format === 'pdf' ? 'PDF' : 'Excel'}), ${rangeLine}`,
  });
  let body: Buffer;
  if (format === 'xlsx') {
    const wb = new ExcelJS.Workbook();
    wb.creator = 'Back Office';
    const sheet = wb.addWorksheet('Register', { views: [{ state: 'frozen', xSplit: 1, ySplit: 1 }] });
    sheet.columns = headers.map((_, i) => ({ width: i === 0 ? 28 : i === headers.length - 1 ? 9 : 16 }));
    const head = sheet.addRow(headers);
    head.eachCell((cell) => {
      cell.font = { bold: true, color: { argb: 'FFFFFFFF' } };
      cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FF1F4E79' } };
    });
    for (const row of rows) {
      const added = sheet.addRow(row.map((c, i) => (i === row.length - 1 && c !== '' ? Number(c) : c)));
      added.eachCell((cell, n) => {
        if (n > 1) cell.alignment = { horizontal: 'center' };
      });
    }
    const info = wb.addWorksheet('Report info');
    info.columns = [{ width: 22 }, { width: 70 }];
    for (const [k, v] of [
      ['Organisation', organisation.name],
      ['Report', title],
      ['Range', rangeLine],
      ['Marks', LEGEND],
      ['Generated', generated],
    ])
      info.addRow([k, v]).getCell(1).font = { bold: true };
    body = Buffer.from(await wb.xlsx.writeBuffer());
  } else {
    const doc = new jsPDF({ orientation: 'landscape', unit: 'mm', format: 'a4', compress: true });
    const pageWidth = doc.internal.pageSize.getWidth();
    const pageHeight = doc.internal.pageSize.getHeight();
    doc.setFontSize(14);
    doc.text(title, 14, 15);
    doc.setFontSize(10);
    doc.text(organisation.name, pageWidth - 14, 12, { align: 'right' });
    doc.setFontSize(8);
    doc.setTextColor(90);
    doc.text([`${rangeLine} · Generated ${generated}`, LEGEND], 14, 21);
    doc.setTextColor(0);
    // Sessions in chunks of 16 columns a table, so a long range stays readable on A4.
    const per = 16;
    const chunks = Math.max(1, Math.ceil(register.sessions.length / per));
    let y = 29;
    for (let c = 0; c < chunks; c++) {
      const cols = [
        0,
        ...Array.from({ length: Math.min(per, register.sessions.length - c * per) }, (_, i) => 1 + c * per + i),
      ];
      if (c === chunks - 1) cols.push(headers.length - 1);
      autoTable(doc, {
        startY: y,
        head: [cols.map((i) => headers[i]!)],
        body: rows.length
          ? rows.map((r) => cols.map((i) => r[i]!))
          : [[{ content: 'No students on this register.', colSpan: cols.length }]],
        styles: { fontSize: 7, cellPadding: 1, halign: 'center' },
        columnStyles: { 0: { halign: 'left', cellWidth: 40 } },
        headStyles: { fillColor: [31, 78, 121], textColor: 255, fontStyle: 'bold', fontSize: 6 },
        margin: { left: 14, right: 14, bottom: 14 },
        didDrawPage: (d) => {
          y = d.cursor?.y ?? y;
        },
      });
      y += 8;
      if (y > pageHeight - 30 && c < chunks - 1) {
        doc.addPage();
        y = 16;
      }
    }
    const pages = doc.getNumberOfPages();
    doc.setFontSize(8);
    for (let i = 1; i <= pages; i++) {
      doc.setPage(i);
      doc.text(`Page ${i} of ${pages}`, pageWidth - 14, pageHeight - 6, { align: 'right' });
    }
    body = Buffer.from(doc.output('arraybuffer'));
  }
  return {
    fileName: reportFileName('class_register', todayIn(tz), format),
    contentType: CONTENT_TYPES[format],
    body,
  };
}
