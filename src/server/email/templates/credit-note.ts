import type { AppDeps } from '../../deps';
import { formatMoney } from '../../../shared/format';
import { amountInWords, formatReceiptDate } from '../../domains/payments/receipt';
import { loadCreditNote } from '../../domains/refunds/credit-note';
import { loadOrganisation } from '../../domains/settings/organisation.service';
import type { EmailMessage } from '../types';
import { brandedEmail } from './layout';

/** The credit note e-mailed to the payer on request (docs/payments.md#credit-notes); `ref` is the refund id. */
export async function buildCreditNoteEmail(
  deps: AppDeps,
  p: { userId: string; ref?: string },
): Promise<EmailMessage | null> {
  if (!p.ref) return null;
  const organisation = await loadOrganisation(deps.db, deps.config);
  const n = await loadCreditNote(deps.db, p.ref, organisation);
  if (!n?.payerEmail) return null;
  const money = (v: number) => formatMoney(v, n.currency);
  const tz = deps.config.TIME_ZONE;
  return brandedEmail(organisation, n.payerEmail, `Credit note ${n.creditNoteNumber}`, [
    `Dear ${n.payerName},`,
    `We have refunded ${money(n.amount)} of your receipt ${n.receiptNumber}. This is your credit note ${n.creditNoteNumber} from our ${n.branch} branch.`,
    [
      `For: ${n.subject}`,
      ...n.lines.map((l) => `${l.what}${l.dueDate ? ` (due ${l.dueDate})` : ''}: ${money(l.amount)}`),
      `Total refunded: ${money(n.amount)} (${amountInWords(n.amount, n.currency)})`,
      `Method: ${n.method}${n.reference ? ` (ref. ${n.reference})` : ''}`,
      `Reason: ${n.reason}`,
      `Refunded on ${formatReceiptDate(n.refundedAt, tz)} by ${n.refundedBy}`,
    ].join('\n'),
    ...(organisation.receiptFooter ? [organisation.receiptFooter] : []),
  ]);
}
