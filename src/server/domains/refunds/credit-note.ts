/**
 * The credit note of a refund (docs/payments.md#credit-notes): an A5 page like the receipt, marked
 * CREDIT NOTE and naming the receipt it refunds, the items owed again and the reason. A refund
 * given with the fee waived leaves nothing owed again, so its table names the items refunded for.
 */
import { eq } from 'drizzle-orm';
import { jsPDF } from 'jspdf';
import type { Db } from '../../db/client';
import { payments, refundAllocations, refunds } from '../../db/schema';
import { formatDay, formatMoney } from '../../../shared/format';
import { fromMinor } from '../../../shared/money';
import { PAYMENT_METHOD_LABELS, type PaymentMethod } from '../../../shared/payment-kinds';
import {
  drawAmountInWords,
  drawFacts,
  drawFooter,
  drawLetterhead,
  drawLines,
  formatReceiptDate,
  paperParty,
  receiptLines,
  type PdfLogo,
  type ReceiptLine,
} from '../payments/receipt';
import type { Organisation } from '../settings/organisation.service';

export interface CreditNote {
  organisation: Organisation;
  creditNoteNumber: string;
  receiptNumber: string;
  receivedAt: Date;
  /** The branch's name, null for a payment taken at none (paper prints "No branch", a letter none). */
  branchName: string | null;
  /** Full name, with the username and e-mail beside it (payerLine). */
  payer: string;
  /** What a letter calls them: the full name recorded, else the username. */
  payerName: string;
  payerEmail: string | null;
  subject: string;
  lines: ReceiptLine[];
  amount: number;
  currency: string;
  method: string;
  methodKind: PaymentMethod;
  reference: string | null;
  reason: string;
  refundedBy: string;
  refundedAt: Date;
  feeWaived: boolean;
}

export async function loadCreditNote(db: Db, refundId: string, organisation: Organisation): Promise<CreditNote | null> {
  const [row] = await db
    .select({ r: refunds, receiptNumber: payments.receiptNumber, receivedAt: payments.receivedAt })
    .from(refunds)
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .where(eq(refunds.id, refundId))
    .limit(1);
  if (!row) return null;
  const { r } = row;
  const allocs = await db.select().from(refundAllocations).where(eq(refundAllocations.refundId, r.id));
  return {
    organisation,
    creditNoteNumber: r.creditNoteNumber,
    receiptNumber: row.receiptNumber,
    receivedAt: row.receivedAt,
    ...paperParty(r),
    lines: receiptLines(allocs),
    amount: fromMinor(r.amount),
    currency: r.currency,
    method: PAYMENT_METHOD_LABELS[r.method],
    methodKind: r.method,
    reference: r.reference,
    reason: r.reason,
    refundedBy: r.refundedByName,
    refundedAt: r.refundedAt,
    feeWaived: r.feeWaived,
  };
}

export function buildCreditNotePdf(n: CreditNote, timeZone: string, logo: PdfLogo = null): Buffer {
  const doc = new jsPDF({ unit: 'mm', format: 'a5' });
  const money = (v: number) => formatMoney(v, n.currency);
  drawLetterhead(doc, { ...n, title: 'CREDIT NOTE', number: n.creditNoteNumber, titleRoom: 55 }, logo);

  const facts: Array<[string, string]> = [
    ['Refunded to', n.payer],
    ['For', n.subject],
    ['Refunds receipt', `${n.receiptNumber} of ${formatReceiptDate(n.receivedAt, timeZone)}`],
    ['Date', formatReceiptDate(n.refundedAt, timeZone)],
    ['Method', n.method + (n.reference ? ` (ref. ${n.reference})` : '')],
    ['Reason', n.reason],
    ['Refunded by', n.refundedBy],
  ];
  drawFacts(doc, facts);
  const tableEndY = drawLines(doc, {
    head: [n.feeWaived ? 'Refunded for' : 'Owed again', 'Due date', 'Amount'],
    body: n.lines.map((l) => [l.what, l.dueDate ? formatDay(l.dueDate) : '', money(l.amount)]),
    foot: ['Total refunded', '', money(n.amount)],
    fill: [121, 31, 31],
    footFill: [247, 231, 231],
  });
  drawAmountInWords(doc, n.amount, n.currency, tableEndY + 7);
  drawFooter(doc, n.organisation);
  return Buffer.from(doc.output('arraybuffer'));
}
