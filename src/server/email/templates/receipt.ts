import type { AppDeps } from '../../deps';
import { formatMoney } from '../../../shared/format';
import { amountInWords, formatReceiptDate, loadReceipt } from '../../domains/payments/receipt';
import type { EmailMessage } from '../types';
import { loadOrganisation } from '../../domains/settings/organisation.service';
import { brandedEmail } from './layout';

/** The receipt e-mailed to the payer on request (docs/payments.md#receipts); `ref` is the payment id. */
export async function buildReceiptEmail(
  deps: AppDeps,
  p: { userId: string; ref?: string },
): Promise<EmailMessage | null> {
  if (!p.ref) return null;
  const organisation = await loadOrganisation(deps.db, deps.config);
  const r = await loadReceipt(deps.db, p.ref, organisation);
  if (!r?.payerEmail) return null;
  const money = (n: number) => formatMoney(n, r.currency);
  const tz = deps.config.TIME_ZONE;
  return brandedEmail(organisation, r.payerEmail, `Receipt ${r.receiptNumber}${r.void ? ' (void)' : ''}`, [
    `Dear ${r.payerName},`,
    r.void
      ? `Receipt ${r.receiptNumber} below was voided${r.void.reason ? `: ${r.void.reason}` : ''}. It no longer counts as a payment.`
      : `Thank you for your payment. This is your receipt ${r.receiptNumber} from our ${r.branch} branch.`,
    [
      `For: ${r.subject}`,
      ...r.lines.map((l) => `${l.what}${l.dueDate ? ` (due ${l.dueDate})` : ''}: ${money(l.amount)}`),
      `Total: ${money(r.amount)} (${amountInWords(r.amount, r.currency)})`,
      `Method: ${r.method}${r.reference ? ` (ref. ${r.reference})` : ''}`,
      `Received on ${formatReceiptDate(r.receivedAt, tz)} by ${r.receivedBy}`,
      ...(r.balance !== null && r.record ? [`Still outstanding on this ${r.record}: ${money(r.balance)}`] : []),
      ...r.refunds.map(
        (g) => `Refunded ${money(g.amount)} on ${formatReceiptDate(g.at, tz)} (credit note ${g.creditNoteNumber})`,
      ),
    ].join('\n'),
    ...(organisation.receiptFooter ? [organisation.receiptFooter] : []),
  ]);
}
