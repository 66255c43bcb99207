import { asc, eq } from 'drizzle-orm';
import { jsPDF } from 'jspdf';
import { autoTable } from 'jspdf-autotable';
import type { Db } from '../../db/client';
import { paymentAllocations, payments, refunds } from '../../db/schema';
import { formatDateTime, formatDay, formatMoney } from '../../../shared/format';
import { fromMinor } from '../../../shared/money';
import { PAYMENT_METHOD_LABELS, type AllocationKind, type PaymentMethod } from '../../../shared/payment-kinds';
import { wrapText } from '../reports/report-writers';
import { contactLine, type logoForPdf, type Organisation } from '../settings/organisation.service';

/** One item a receipt or credit note is for: `what` is the PDF's English name, `kind` and `number` name it in any language. */
export interface ReceiptLine {
  what: string;
  kind: AllocationKind;
  number: number | null;
  dueDate: string | null;
  amount: number;
}

/** What a receipt and a credit note both print: who, for what, how much and how it moved. Money as decimals. */
export interface PaperDocument {
  organisation: Organisation;
  /** The branch's name, null for a payment taken at none (paper prints "No branch", a letter none). */
  branchName: string | null;
  /** The payer as the paper names them: full name, with the username and e-mail beside it (payerLine). */
  payer: string;
  /** What a letter calls them: the full name recorded, else the username. */
  payerName: string;
  payerEmail: string | null;
  subject: string;
  lines: ReceiptLine[];
  amount: number;
  currency: string;
  method: string;
  /** The method's code, for a text that names it in another language (the e-mail). */
  methodKind: PaymentMethod;
  reference: string | null;
}

/** Everything a receipt shows (docs/payments.md#receipts). */
export interface Receipt extends PaperDocument {
  receiptNumber: string;
  receivedBy: string;
  receivedAt: Date;
  /** What was still owed on the enrolment or booking right after this payment; null once the record is gone. */
  balance: number | null;
  record: 'enrollment' | 'booking' | null;
  void: { at: Date | null; by: string | null; reason: string | null } | null;
  /** Money given back on it since, each with its credit note (docs/payments.md#refunds). */
  refunds: Array<{ creditNoteNumber: string; amount: number; at: Date }>;
}

/**
 * A person on paper as the screens show them (docs/payments.md#receipts): the full name recorded
 * with the payment, the username and e-mail beside it; the username alone when no full name was
 * recorded (a person deleted before the name was kept).
 */
export function payerLine(p: { fullName: string | null; username: string; email: string | null }): string {
  const beside = [p.fullName ? p.username : null, p.email].filter(Boolean).join(', ');
  return (p.fullName || p.username) + (beside ? ` (${beside})` : '');
}

/**
 * Who paid (or is refunded), where, for what and how much, as the payment or refund row kept them
 * when it was written, so a reprint names them the same after the person or branch has changed.
 */
export function paperDocument(
  organisation: Organisation,
  row: {
    branchName: string | null;
    payerFullName: string | null;
    payerName: string;
    payerEmail: string | null;
    subject: string;
    amount: number;
    currency: string;
    method: PaymentMethod;
    reference: string | null;
  },
  allocs: Parameters<typeof receiptLines>[0],
): PaperDocument {
  return {
    organisation,
    branchName: row.branchName,
    payer: payerLine({ fullName: row.payerFullName, username: row.payerName, email: row.payerEmail }),
    payerName: row.payerFullName || row.payerName,
    payerEmail: row.payerEmail,
    subject: row.subject,
    lines: receiptLines(allocs),
    amount: fromMinor(row.amount),
    currency: row.currency,
    method: PAYMENT_METHOD_LABELS[row.method],
    methodKind: row.method,
    reference: row.reference,
  };
}

const LINE_NAMES = {
  admission_fee: () => 'Admission fee',
  enrollment_installment: (n: number | null) => `Installment ${n ?? ''}`.trim(),
  booking_installment: (n: number | null) => `Installment ${n ?? ''}`.trim(),
} as const;

/** A payment's or refund's allocations as the paper's lines, earliest due first. */
export function receiptLines(
  allocs: Array<{ kind: AllocationKind; installmentNumber: number | null; dueDate: string | null; amount: number }>,
): ReceiptLine[] {
  return [...allocs]
    .sort((a, b) => (a.dueDate ?? '').localeCompare(b.dueDate ?? ''))
    .map((a) => ({
      what: LINE_NAMES[a.kind](a.installmentNumber),
      kind: a.kind,
      number: a.installmentNumber,
      dueDate: a.dueDate,
      amount: fromMinor(a.amount),
    }));
}

export async function loadReceipt(db: Db, paymentId: string, organisation: Organisation): Promise<Receipt | null> {
  const [p] = await db.select().from(payments).where(eq(payments.id, paymentId)).limit(1);
  if (!p) return null;
  const [allocs, given] = await Promise.all([
    db.select().from(paymentAllocations).where(eq(paymentAllocations.paymentId, p.id)),
    db
      .select({ creditNoteNumber: refunds.creditNoteNumber, amount: refunds.amount, at: refunds.refundedAt })
      .from(refunds)
      .where(eq(refunds.paymentId, p.id))
      .orderBy(asc(refunds.refundedAt)),
  ]);
  // Stored as the payment was written (receipt-balance.ts), so every reprint says the same.
  const balance = (p.enrollmentId || p.bookingId) && p.balanceAfter !== null ? fromMinor(p.balanceAfter) : null;
  return {
    ...paperDocument(organisation, p, allocs),
    receiptNumber: p.receiptNumber,
    receivedBy: p.receivedByFullName || p.receivedByName || 'Not recorded',
    receivedAt: p.receivedAt,
    balance,
    record: p.enrollmentId ? 'enrollment' : p.bookingId ? 'booking' : null,
    void: p.status === 'void' ? { at: p.voidedAt, by: p.voidedByName, reason: p.voidReason } : null,
    refunds: given.map((g) => ({ ...g, amount: fromMinor(g.amount) })),
  };
}

const ONES = [
  '',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const SCALES = ['', 'thousand', 'million', 'billion'];

function belowThousand(n: number): string {
  const parts: string[] = [];
  if (n >= 100) parts.push(`${ONES[Math.floor(n / 100)]} hundred`);
  const r = n % 100;
  if (r > 0 && r < 20) parts.push(ONES[r] ?? '');
  else if (r >= 20) parts.push(TENS[Math.floor(r / 10)] + (r % 10 ? `-${ONES[r % 10]}` : ''));
  return parts.join(' and ');
}

function wholeInWords(n: number): string {
  if (n === 0) return 'zero';
  const groups: string[] = [];
  for (let i = 0; n > 0; i++, n = Math.floor(n / 1000)) {
    const g = n % 1000;
    if (g) groups.unshift(`${belowThousand(g)}${SCALES[i] ? ` ${SCALES[i]}` : ''}`);
  }
  return groups.join(' ');
}

const UNIT_WORDS: Record<string, [string, string]> = { LKR: ['rupees', 'cents'], USD: ['dollars', 'cents'] };

/** 1250.5 LKR → "One thousand two hundred and fifty rupees and fifty cents". */
export function amountInWords(amount: number, currency: string): string {
  const minor = Math.round(amount * 100);
  const whole = Math.floor(minor / 100);
  const cents = minor % 100;
  const [major, sub] = UNIT_WORDS[currency] ?? [currency, 'cents'];
  const text = `${wholeInWords(whole)} ${major}${cents ? ` and ${wholeInWords(cents)} ${sub}` : ''}`;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The date and time a receipt prints: the screens' format (docs/product.md#formats), in TIME_ZONE. */
export const formatReceiptDate = (d: Date, timeZone: string) => formatDateTime(d, timeZone);

export type PdfLogo = Awaited<ReturnType<typeof logoForPdf>>;

/**
 * The top of an A5 receipt or credit note: logo, the organisation's name and contact line, the
 * branch, and on the right the document's title and number. `titleRoom` is the width (mm) kept
 * free for the title beside the contact line.
 */
export function drawLetterhead(
  doc: jsPDF,
  h: {
    organisation: Parameters<typeof contactLine>[0] & { name: string };
    branchName: string | null;
    title: string;
    number: string;
    titleRoom: number;
  },
  logo: PdfLogo,
): void {
  const width = doc.internal.pageSize.getWidth();
  let left = 12;
  if (logo) {
    // At most 12 mm high and 30 mm wide, keeping its shape.
    const scale = Math.min(12 / logo.height, 30 / logo.width);
    doc.addImage(logo.data, logo.format, 12, 9, logo.width * scale, logo.height * scale);
    left = 14 + logo.width * scale;
  }
  doc.setFontSize(15);
  doc.text(h.organisation.name, left, 16);
  doc.setFontSize(8);
  const contact = contactLine(h.organisation);
  if (contact) doc.text(wrapText(doc, contact, width - left - h.titleRoom), left, 20);
  doc.setFontSize(9);
  doc.text(`Branch: ${h.branchName ?? 'No branch'}`, 12, 25);
  doc.setFontSize(13);
  doc.text(h.title, width - 12, 16, { align: 'right' });
  doc.setFontSize(10);
  doc.text(h.number, width - 12, 22, { align: 'right' });
}

/**
 * An A5 receipt: the organisation's letterhead (logo, name, address, phone, e-mail) and its
 * receipt footer; a voided one carries a large VOID across it.
 */
/** The two-column "label: value" block under a letterhead. */
export function drawFacts(doc: jsPDF, facts: Array<[string, string]>) {
  autoTable(doc, {
    startY: 29,
    body: facts,
    theme: 'plain',
    styles: { fontSize: 9, cellPadding: 1 },
    columnStyles: { 0: { fontStyle: 'bold', cellWidth: 32 } },
    margin: { left: 12, right: 12 },
  });
}

/**
 * The table of what a paper is for (head, lines, total), in its own colour: blue on a receipt,
 * red on a credit note. Answers where the table ends on its last page (what autoTable calls finalY).
 */
export function drawLines(
  doc: jsPDF,
  t: {
    head: string[];
    body: string[][];
    foot: string[];
    fill: [number, number, number];
    footFill: [number, number, number];
  },
): number {
  let tableEndY = 0;
  autoTable(doc, {
    didDrawPage: (data) => {
      tableEndY = data.cursor?.y ?? tableEndY;
    },
    head: [t.head],
    body: t.body,
    foot: [t.foot],
    styles: { fontSize: 9, cellPadding: 1.5 },
    headStyles: { fillColor: t.fill },
    footStyles: { fillColor: t.footFill, textColor: 0 },
    columnStyles: { 2: { halign: 'right' } },
    margin: { left: 12, right: 12 },
  });
  return tableEndY;
}

/** "Amount in words: … only." at `y`, under the lines' table; answers where the next line goes. */
export function drawAmountInWords(doc: jsPDF, amount: number, currency: string, y: number): number {
  doc.setFontSize(9);
  const width = doc.internal.pageSize.getWidth();
  const words = wrapText(doc, `Amount in words: ${amountInWords(amount, currency)} only.`, width - 24);
  doc.text(words, 12, y);
  return y + words.length * 4 + 3;
}

/** The footer line: the organisation's own words, else its name and how to reach it. */
export function drawFooter(doc: jsPDF, organisation: Organisation) {
  const width = doc.internal.pageSize.getWidth();
  const height = doc.internal.pageSize.getHeight();
  doc.setFontSize(8);
  doc.setTextColor(90);
  const footer =
    organisation.receiptFooter || [organisation.name, contactLine(organisation)].filter(Boolean).join(' · ');
  const footerLines = wrapText(doc, footer, width - 24);
  doc.text(footerLines, width / 2, height - 8 - (footerLines.length - 1) * 3.5, { align: 'center' });
  doc.setTextColor(0);
}

export function buildReceiptPdf(r: Receipt, timeZone: string, logo: PdfLogo = null): Buffer {
  const doc = new jsPDF({ unit: 'mm', format: 'a5' });
  const width = doc.internal.pageSize.getWidth();
  const money = (n: number) => formatMoney(n, r.currency);
  drawLetterhead(doc, { ...r, title: 'RECEIPT', number: r.receiptNumber, titleRoom: 50 }, logo);

  const facts: Array<[string, string]> = [
    ['Received from', r.payer],
    ['For', r.subject],
    ['Date', formatReceiptDate(r.receivedAt, timeZone)],
    ['Method', r.method + (r.reference ? ` (ref. ${r.reference})` : '')],
    ['Received by', r.receivedBy],
  ];
  drawFacts(doc, facts);
  const tableEndY = drawLines(doc, {
    head: ['Paid for', 'Due date', 'Amount'],
    body: r.lines.map((l) => [l.what, l.dueDate ? formatDay(l.dueDate) : '', money(l.amount)]),
    foot: ['Total', '', money(r.amount)],
    fill: [31, 78, 121],
    footFill: [231, 238, 247],
  });
  let y = drawAmountInWords(doc, r.amount, r.currency, tableEndY + 7);
  if (r.balance !== null && r.record) doc.text(`Balance outstanding on this ${r.record}: ${money(r.balance)}`, 12, y);
  // A reprint after a refund says so; the receipt's own figures stay what was received.
  for (const g of r.refunds) {
    y += 5;
    doc.text(
      `Refunded ${money(g.amount)} on ${formatReceiptDate(g.at, timeZone)} (credit note ${g.creditNoteNumber})`,
      12,
      y,
    );
  }
  if (r.void) {
    y += 8;
    doc.setTextColor(180, 0, 0);
    doc.text(
      `Voided${r.void.at ? ` on ${formatReceiptDate(r.void.at, timeZone)}` : ''}${r.void.by ? ` by ${r.void.by}` : ''}: ${r.void.reason ?? ''}`,
      12,
      y,
    );
    doc.setFontSize(90);
    doc.setTextColor(220, 38, 38);
    doc.text('VOID', width / 2, doc.internal.pageSize.getHeight() / 2 + 10, { align: 'center', angle: 30 });
    doc.setTextColor(0);
  }
  drawFooter(doc, r.organisation);
  return Buffer.from(doc.output('arraybuffer'));
}
