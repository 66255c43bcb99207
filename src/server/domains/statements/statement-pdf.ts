import { jsPDF } from 'jspdf';
import { autoTable } from 'jspdf-autotable';
import { formatDay, formatMoney } from '../../../shared/format';
import { STATEMENT_KIND_LABELS, type TStatement } from '@shared/schemas/statements';
import type { Bounds } from './statement-lines';
import type { StatementHeader } from './statement-header';

/** The period in words: "1 Jan 2026 to 31 Mar 2026", "up to …", "from …", or everything. */
export function periodText(range: Bounds): string {
  if (range.from && range.to) return `${formatDay(range.from)} to ${formatDay(range.to)}`;
  if (range.from) return `From ${formatDay(range.from)}`;
  if (range.to) return `Up to ${formatDay(range.to)}`;
  return 'All dates';
}

/**
 * A printable A4 statement (docs/users.md#statement): the organisation's header, the person, the
 * period, the totals per currency and every line with its running balance. Page numbers on each page.
 */
export function buildStatementPdf(
  s: TStatement,
  meta: { header: StatementHeader; range: Bounds; today: string },
): Buffer {
  const doc = new jsPDF({ unit: 'mm', format: 'a4', compress: true });
  const width = doc.internal.pageSize.getWidth();
  doc.setFontSize(15);
  doc.text(meta.header.name, 14, 16);
  doc.setFontSize(9);
  meta.header.lines.forEach((l, i) => doc.text(l, 14, 21 + i * 4));
  doc.setFontSize(13);
  doc.text('ACCOUNT STATEMENT', width - 14, 16, { align: 'right' });
  doc.setFontSize(9);
  doc.text(`Issued ${formatDay(meta.today)}`, width - 14, 21, { align: 'right' });

  autoTable(doc, {
    startY: 24 + meta.header.lines.length * 4,
    body: [
      ['Statement for', `${s.person.fullName} (${s.person.email})`],
      ['Period', periodText(meta.range)],
    ],
    theme: 'plain',
    styles: { fontSize: 9, cellPadding: 1 },
    columnStyles: { 0: { fontStyle: 'bold', cellWidth: 32 } },
    margin: { left: 14, right: 14 },
  });
  autoTable(doc, {
    head: [['Currency', 'Charged', 'Paid', 'Balance', 'Overdue today']],
    body: s.totals.length
      ? s.totals.map((t) => [
          t.currency,
          formatMoney(t.charged, t.currency),
          formatMoney(t.paid, t.currency),
          formatMoney(t.balance, t.currency),
          formatMoney(t.overdue, t.currency),
        ])
      : [['', '', '', '', '']],
    styles: { fontSize: 9, cellPadding: 1.5 },
    headStyles: { fillColor: [31, 78, 121] },
    columnStyles: { 1: { halign: 'right' }, 2: { halign: 'right' }, 3: { halign: 'right' }, 4: { halign: 'right' } },
    margin: { left: 14, right: 14 },
  });
  autoTable(doc, {
    head: [['Date', 'Kind', 'Description', 'Receipt', 'Amount', 'Balance']],
    body: s.lines.length
      ? s.lines.map((l) => [
          formatDay(l.date),
          STATEMENT_KIND_LABELS[l.kind],
          l.description,
          l.receiptNumber ?? '',
          formatMoney(l.amount, l.currency),
          formatMoney(l.balance, l.currency),
        ])
      : [[{ content: 'Nothing in this period.', colSpan: 6 }]],
    styles: { fontSize: 8, cellPadding: 1.2 },
    headStyles: { fillColor: [31, 78, 121] },
    columnStyles: {
      0: { cellWidth: 22 },
      1: { cellWidth: 16 },
      3: { cellWidth: 28 },
      4: { halign: 'right', cellWidth: 26 },
      5: { halign: 'right', cellWidth: 26 },
    },
    margin: { left: 14, right: 14, bottom: 16 },
  });
  const pages = doc.getNumberOfPages();
  for (let i = 1; i <= pages; i++) {
    doc.setPage(i);
    doc.setFontSize(8);
    doc.setTextColor(110);
    doc.text(`Page ${i} of ${pages}`, width - 14, doc.internal.pageSize.getHeight() - 8, { align: 'right' });
    doc.setTextColor(0);
  }
  return Buffer.from(doc.output('arraybuffer'));
}
