/** A person's payments in the portal (docs/portal.md): their receipts and how to pay. */
import { and, asc, desc, eq } from 'drizzle-orm';
import { branches, payments } from '../../db/schema';
import { fromMinor } from '../../../shared/money';
import {
  portalReceiptPath,
  PORTAL_STATEMENT_PDF_PATH,
  type TPortalHowToPay,
  type TPortalPayment,
} from '@shared/schemas/portal';
import type { ServiceContext } from '../context';
import { isUuid } from '../ids';
import { refundedAmounts } from '../payments/payments.dto';
import { loadOrganisation } from '../settings/organisation.service';
import { portalNotFound } from './portal.read';

export async function portalPayments(ctx: ServiceContext): Promise<{ data: TPortalPayment[]; statementUrl: string }> {
  const rows = await ctx.db
    .select()
    .from(payments)
    .where(eq(payments.payerId, ctx.actor.id))
    .orderBy(desc(payments.receivedAt), desc(payments.id))
    .limit(1000);
  const refunded = await refundedAmounts(
    ctx.db,
    rows.map((p) => p.id),
  );
  return {
    data: rows.map((p) => ({
      _id: p.id,
      receiptNumber: p.receiptNumber,
      amount: fromMinor(p.amount),
      currency: p.currency,
      method: p.method,
      receivedAt: p.receivedAt.toISOString(),
      // "void", never why (docs/portal.md#never-shown).
      status: p.status,
      subject: p.subject,
      refundedAmount: fromMinor(refunded.get(p.id) ?? 0),
      receiptUrl: portalReceiptPath(p.id),
    })),
    statementUrl: PORTAL_STATEMENT_PDF_PATH,
  };
}

/** One of the person's payments (for the receipt PDF); anyone else's is not found. */
export async function assertOwnPayment(ctx: ServiceContext, id: string): Promise<void> {
  if (!isUuid(id)) throw portalNotFound('payment');
  const [p] = await ctx.db
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.id, id), eq(payments.payerId, ctx.actor.id)))
    .limit(1);
  if (!p) throw portalNotFound('payment');
}

export async function portalHowToPay(ctx: ServiceContext): Promise<TPortalHowToPay> {
  const org = await loadOrganisation(ctx.db, ctx.deps.config);
  const list = await ctx.db
    .select({ _id: branches.id, name: branches.name, location: branches.location, phone: branches.phone })
    .from(branches)
    .orderBy(asc(branches.name))
    .limit(200);
  return {
    organisation: {
      name: org.name,
      address: org.address,
      phone: org.phone,
      email: org.email,
      paymentDetails: org.receiptFooter,
      bankDetails: org.bankDetails,
    },
    branches: list,
  };
}
