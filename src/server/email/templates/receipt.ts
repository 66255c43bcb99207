import type { AppDeps } from '../../deps';
import { formatMoney } from '../../../shared/format';
import type { PaymentMethod } from '../../../shared/payment-kinds';
import {
  amountInWords,
  formatReceiptDate,
  loadReceipt,
  type Receipt,
  type ReceiptLine,
} from '../../domains/payments/receipt';
import type { EmailMessage } from '../types';
import { loadOrganisation } from '../../domains/settings/organisation.service';
import { emailText, type EmailLanguage } from '../locales';
import { brandedEmail, recipientOf } from './layout';

type Text = ReturnType<typeof emailText>;

/** An item of a receipt or credit note, its due date and amount, named in the reader's language. */
export function lineText(t: Text, l: ReceiptLine, money: (n: number) => string): string {
  const what =
    l.kind === 'admission_fee' ? t('ledger.admissionFee') : t('ledger.installment', { number: l.number ?? '' }).trim();
  return `${what}${l.dueDate ? ` (${t('ledger.due', { date: l.dueDate })})` : ''}: ${money(l.amount)}`;
}

export const methodText = (t: Text, method: PaymentMethod, reference: string | null) =>
  reference
    ? t('ledger.methodRef', { method: t(`ledger.methods.${method}`), reference })
    : t('ledger.method', { method: t(`ledger.methods.${method}`) });

/**
 * The receipt in words, after the greeting (docs/payments.md#receipts): the thank-you or voided
 * line, what it paid for and how, what is still owed, refunds since, and the organisation's own
 * receipt footer. In `language` from the server's e-mail catalogues; money and dates as on the
 * PDF, and the amount in words stays English, as the PDF prints it.
 */
export function receiptParagraphs(r: Receipt, timeZone: string, language: EmailLanguage): string[] {
  const t = emailText(language);
  const money = (n: number) => formatMoney(n, r.currency);
  const number = r.receiptNumber;
  const outstanding =
    r.balance !== null && r.record
      ? [
          t(r.record === 'enrollment' ? 'receipt.outstandingEnrollment' : 'receipt.outstandingBooking', {
            amount: money(r.balance),
          }),
        ]
      : [];
  return [
    r.void
      ? r.void.reason
        ? t('receipt.voidedBecause', { number, reason: r.void.reason })
        : t('receipt.voided', { number })
      : r.branchName
        ? t('receipt.thanks', { number, branch: r.branchName })
        : t('receipt.thanksNoBranch', { number }),
    [
      t('ledger.for', { subject: r.subject }),
      ...r.lines.map((l) => lineText(t, l, money)),
      t('receipt.total', { amount: money(r.amount), words: amountInWords(r.amount, r.currency) }),
      methodText(t, r.methodKind, r.reference),
      t('receipt.received', { date: formatReceiptDate(r.receivedAt, timeZone), by: r.receivedBy }),
      ...outstanding,
      ...r.refunds.map((g) =>
        t('receipt.refunded', {
          amount: money(g.amount),
          date: formatReceiptDate(g.at, timeZone),
          number: g.creditNoteNumber,
        }),
      ),
    ].join('\n'),
    ...(r.organisation.receiptFooter ? [r.organisation.receiptFooter] : []),
  ];
}

/**
 * A `send-email` job with the 'receipt' template, queued before receipts became the
 * `payment_received` message (docs/messages.md#the-receipt-e-mail): still rendered, so a job
 * queued before the upgrade is delivered. Nothing queues it any more; `ref` is the payment id.
 */
export async function buildReceiptEmail(
  deps: AppDeps,
  p: { userId: string; ref?: string },
): Promise<EmailMessage | null> {
  if (!p.ref) return null;
  const organisation = await loadOrganisation(deps.db, deps.config);
  const r = await loadReceipt(deps.db, p.ref, organisation);
  if (!r?.payerEmail) return null;
  const language = (await recipientOf(deps.db, p.userId))?.language ?? 'en';
  const t = emailText(language);
  const subject = t(r.void ? 'receipt.subjectVoid' : 'receipt.subject', { number: r.receiptNumber });
  return brandedEmail(
    organisation,
    r.payerEmail,
    subject,
    [t('receipt.greeting', { name: r.payerName }), ...receiptParagraphs(r, deps.config.TIME_ZONE, language)],
    language,
  );
}
