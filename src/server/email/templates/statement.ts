import type { AppDeps } from '../../deps';
import { formatDay, formatMoney } from '../../../shared/format';
import { loadStatement, rangeOfRef } from '../../domains/statements/statements.service';
import { periodText } from '../../domains/statements/statement-pdf';
import type { EmailMessage } from '../types';
import type { TStatement } from '@shared/schemas/statements';
import type { Bounds } from '../../domains/statements/statement-lines';
import { brandedEmail } from './layout';
import { loadOrganisation } from '../../domains/settings/organisation.service';

/**
 * A person's account statement, e-mailed on request (docs/users.md#statement); `ref` is the period
 * (`from..to`). It is read when the job runs, so it shows the ledger as it is when it is sent.
 */
export async function buildStatementEmail(
  deps: AppDeps,
  p: { userId: string; ref?: string },
): Promise<EmailMessage | null> {
  const range = rangeOfRef(p.ref);
  const s = await loadStatement(deps, p.userId, range);
  if (!s) return null;
  return brandedEmail(await loadOrganisation(deps.db, deps.config), s.person.email, 'Your account statement', [
    `Dear ${s.person.fullName},`,
    ...statementParagraphs(s, range),
  ]);
}

/** The statement in words: its period, each currency's totals and every line. */
export function statementParagraphs(s: TStatement, range: Bounds): string[] {
  const totals = s.totals.map(
    (t) =>
      `${t.currency}: charged ${formatMoney(t.charged, t.currency)}, paid ${formatMoney(t.paid, t.currency)}, ` +
      `balance ${formatMoney(t.balance, t.currency)}, overdue today ${formatMoney(t.overdue, t.currency)}`,
  );
  const lines = s.lines.map(
    (l) =>
      `${formatDay(l.date)}  ${l.description}${l.receiptNumber ? ` [${l.receiptNumber}]` : ''}  ` +
      `${formatMoney(l.amount, l.currency)}  (balance ${formatMoney(l.balance, l.currency)})`,
  );
  return [
    `This is your account statement (${periodText(range)}).`,
    totals.length ? totals.join('\n') : 'There is nothing on your account.',
    ...(lines.length ? [lines.join('\n')] : []),
  ];
}
