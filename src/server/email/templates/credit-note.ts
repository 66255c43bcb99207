import type { AppDeps } from '../../deps';
import { formatMoney } from '../../../shared/format';
import { amountInWords, formatReceiptDate } from '../../domains/payments/receipt';
import { loadCreditNote } from '../../domains/refunds/credit-note';
import { loadOrganisation } from '../../domains/settings/organisation.service';
import type { EmailMessage } from '../types';
import { emailText } from '../locales';
import { brandedEmail, recipientOf } from './layout';
import { lineText, methodText } from './receipt';

/**
 * The credit note e-mailed to the payer on request (docs/payments.md#credit-notes), in the payer's
 * language (their account's, English once it is gone) from the server's e-mail catalogues; money
 * and dates as on the PDF. `ref` is the refund id.
 */
export async function buildCreditNoteEmail(
  deps: AppDeps,
  p: { userId: string; ref?: string },
): Promise<EmailMessage | null> {
  if (!p.ref) return null;
  const organisation = await loadOrganisation(deps.db, deps.config);
  const n = await loadCreditNote(deps.db, p.ref, organisation);
  if (!n?.payerEmail) return null;
  const language = (await recipientOf(deps.db, p.userId))?.language ?? 'en';
  const t = emailText(language);
  const money = (v: number) => formatMoney(v, n.currency);
  const tz = deps.config.TIME_ZONE;
  return brandedEmail(
    organisation,
    n.payerEmail,
    t('creditNote.subject', { number: n.creditNoteNumber }),
    [
      t('receipt.greeting', { name: n.payerName }),
      n.branchName
        ? t('creditNote.intro', {
            amount: money(n.amount),
            receipt: n.receiptNumber,
            number: n.creditNoteNumber,
            branch: n.branchName,
          })
        : t('creditNote.introNoBranch', {
            amount: money(n.amount),
            receipt: n.receiptNumber,
            number: n.creditNoteNumber,
          }),
      [
        t('ledger.for', { subject: n.subject }),
        ...n.lines.map((l) => lineText(t, l, money)),
        t('creditNote.total', { amount: money(n.amount), words: amountInWords(n.amount, n.currency) }),
        methodText(t, n.methodKind, n.reference),
        t('creditNote.reason', { reason: n.reason }),
        t('creditNote.refunded', { date: formatReceiptDate(n.refundedAt, tz), by: n.refundedBy }),
      ].join('\n'),
      ...(organisation.receiptFooter ? [organisation.receiptFooter] : []),
    ],
    language,
  );
}
