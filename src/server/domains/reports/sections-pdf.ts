import { jsPDF } from 'jspdf';
import { autoTable, type RowInput } from 'jspdf-autotable';
import { wrapText } from './report-writers';

/** One table of a sectioned report: its heading, column headings, which are numbers, its rows. */
export interface PdfSection {
  title: string;
  headers: string[];
  /** Which columns are numbers: right-aligned, their headings too. */
  numeric: boolean[];
  body: RowInput[];
}

/**
 * A report of a few tables (appointments, attendance) as a landscape A4 PDF: the title and the
 * organisation at the top, the lines under it (generated, filters, how a figure is counted), each
 * table under its heading ("None in this range." when empty), page numbers at the foot.
 */
export function sectionsPdf(opts: {
  title: string;
  organisation: { name: string; contact?: string };
  lines: string[];
  sections: PdfSection[];
}): Buffer {
  const doc = new jsPDF({ orientation: 'landscape', unit: 'mm', format: 'a4', compress: true });
  const pageWidth = doc.internal.pageSize.getWidth();
  const pageHeight = doc.internal.pageSize.getHeight();
  doc.setFontSize(16);
  doc.text(opts.title, 14, 16);
  doc.setFontSize(11);
  doc.text(opts.organisation.name, pageWidth - 14, 12, { align: 'right' });
  if (opts.organisation.contact) {
    doc.setFontSize(8);
    doc.text(opts.organisation.contact, pageWidth - 14, 16, { align: 'right' });
  }
  doc.setFontSize(9);
  doc.setTextColor(90);
  const lines = opts.lines.flatMap((l) => wrapText(doc, l, pageWidth - 28));
  doc.text(lines, 14, 23);
  doc.setTextColor(0);
  let y = 23 + lines.length * 4 + 4;
  for (const part of opts.sections) {
    if (y > pageHeight - 40) {
      doc.addPage();
      y = 16;
    }
    doc.setFontSize(12);
    doc.text(part.title, 14, y);
    let end = y + 2;
    autoTable(doc, {
      startY: y + 2,
      head: [part.headers],
      body: part.body.length ? part.body : [[{ content: 'None in this range.', colSpan: part.headers.length }]],
      showHead: 'everyPage',
      styles: { fontSize: 8, cellPadding: 1.5, overflow: 'linebreak' },
      headStyles: { fillColor: [31, 78, 121], textColor: 255, fontStyle: 'bold' },
      columnStyles: Object.fromEntries(part.numeric.map((n, i) => [i, { halign: n ? 'right' : 'left' }])),
      didParseCell: (cell) => {
        if (cell.section === 'head' && part.numeric[cell.column.index]) cell.cell.styles.halign = 'right';
      },
      margin: { left: 14, right: 14, bottom: 14 },
      didDrawPage: (data) => {
        end = data.cursor?.y ?? end;
      },
    });
    y = end + 10;
  }
  const pages = doc.getNumberOfPages();
  doc.setFontSize(8);
  for (let i = 1; i <= pages; i++) {
    doc.setPage(i);
    doc.text(`Page ${i} of ${pages}`, pageWidth - 14, pageHeight - 6, { align: 'right' });
  }
  return Buffer.from(doc.output('arraybuffer'));
}
