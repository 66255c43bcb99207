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
import {
  drawAmountInWords,
  drawFacts,
  drawFooter,
  drawLetterhead,
  drawLines,
  formatReceiptDate,
  paperDocument,
  type PaperDocument,
  type PdfLogo,
} from '../payments/receipt';
import type { Organisation } from '../settings/organisation.service';

/** Everything a credit note shows (docs/payments.md#refunds): the paper's shared part and the refund's own. */
export interface CreditNote extends PaperDocument {
  creditNoteNumber: string;
  receiptNumber: string;
  receivedAt: Date;
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
    ...paperDocument(organisation, r, allocs),
    creditNoteNumber: r.creditNoteNumber,
    receiptNumber: row.receiptNumber,
    receivedAt: row.receivedAt,
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
