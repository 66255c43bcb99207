import { randomUUID } from 'node:crypto';
import { paymentVars, planPaymentMessage } from '../messages/hooks';
import { planMessages, sendJobId } from '../messages/plan';
import { receiptParagraphs } from '../../email/templates/receipt';
import { and, asc, desc, eq, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { enrollments, payments, paymentSearchText, treatmentBookings } from '../../db/schema';
import type { Db } from '../../db/client';
import type { ServiceContext } from '../context';
import { AppError } from '../../errors';
import { fromMinor, toMinor } from '../../../shared/money';
import type { Page } from '../../../shared/pagination';
import { isAdmin } from '../../../shared/roles';
import { assertRecordInScope, branchCondition, branchScopeOf, findInBranchScope } from '../branch-scope';
import { assertId, isUuid } from '../ids';
import { ilikeContains } from '../sql-conditions';
import { keysetList, sortValueIn, totalKey } from '../keyset';
import { invalidateReads, reusedPage } from '../read-cache';
import { todayIn } from '../enrollments/dates';
import { allocate } from './allocation';
import { ofPeopleMatching } from '../person-search';
import { voidLockedPayment, writePayment } from './ledger';
import { recordPaymentEntry, recordReceiptEvent, recordVoidEntry } from './ledger-audit';
import { buildReceiptPdf, loadReceipt } from './receipt';
import { checkReceivedAt } from './received-at';
import { countReceiptEmail } from './receipt-limits';
import { emailDelivery, queuedToOutbox } from '../../email/transport';
import { assertVoidAllowed, linkTillPayment, tillAtPayment } from '../tills/tills.service';
import { loadOrganisation, logoForPdf } from '../settings/organisation.service';
import {
  BOOKING_CANCELLED,
  BOOKING_NOT_FOUND,
  ENROLLMENT_COMPLETED,
  ENROLLMENT_NOT_FOUND,
  itemsOf,
  lockBookingTarget,
  lockEnrollmentTarget,
  type LedgerTarget,
} from './ledger-targets';
import { withAllocations, type PaymentDto } from './payments.dto';
import type { TReceiptQueued } from '@shared/schemas/payments.output';
import type {
  TListPaymentsInput,
  TPaymentFilters,
  TRecordPaymentInput,
  TVoidPaymentInput,
} from '@shared/schemas/payments';

export const PAYMENT_NOT_FOUND = 'Payment not found.';
const PAYER_GONE = "The payer's account no longer exists, so there is no address to send the receipt to.";
export const VOID_ADMINS_ONLY = 'Only admins and superadmins can void payments.';

const today = (ctx: Pick<ServiceContext, 'deps'>) => todayIn(ctx.deps.config.TIME_ZONE);

async function lockTarget(tx: ServiceContext['db'], ref: { kind: 'enrollment' | 'booking'; id: string }) {
  return ref.kind === 'enrollment' ? lockEnrollmentTarget(tx, ref.id) : lockBookingTarget(tx, ref.id);
}

function assertPayable(target: LedgerTarget) {
  if (target.kind === 'enrollment' && target.status === 'completed')
    throw new AppError('CONFLICT', ENROLLMENT_COMPLETED);
  if (target.kind === 'booking' && target.status === 'cancelled') throw new AppError('CONFLICT', BOOKING_CANCELLED);
}

/**
 * Records money received against an enrolment or a booking (docs/payments.md#recording-a-payment):
 * allocated oldest first unless the caller names the allocations; never more than is owed.
 */
export async function recordPayment(ctx: ServiceContext, input: TRecordPaymentInput): Promise<PaymentDto> {
  const ref = input.enrollmentId
    ? { kind: 'enrollment' as const, id: input.enrollmentId, notFound: ENROLLMENT_NOT_FOUND }
    : { kind: 'booking' as const, id: input.bookingId ?? '', notFound: BOOKING_NOT_FOUND };
  await assertRecordInScope(ctx, ref.kind, ref.id, ref.notFound);
  const receivedAt = input.receivedAt ? new Date(input.receivedAt) : new Date();
  await checkReceivedAt(ctx, ref, receivedAt);
  const id = await ctx.db.transaction(async (tx) => {
    const target = await lockTarget(tx, ref);
    assertPayable(target);
    if (input.currency && input.currency.toUpperCase() !== target.currency) {
      throw new AppError('BAD_REQUEST', `This ${ref.kind} is paid in ${target.currency}.`);
    }
    const items = await itemsOf(tx, target);
    const allocations = allocate(target, items, toMinor(input.amount), input.allocations);
    const payment = {
      allocations,
      method: input.method,
      reference: input.reference,
      note: input.note,
      receivedAt,
    };
    const branchId = target.payerBranchId ?? ctx.actor.branchId;
    const till = await tillAtPayment(tx, ctx, { branchId, method: input.method, receivedAt });
    const written = await writePayment(tx, { ...payment, target, actor: ctx.actor, todayIso: today(ctx) });
    await linkTillPayment(tx, till, written.id);
    await recordPaymentEntry(tx, ctx, target, { ...payment, ...written });
    await planPaymentMessage(tx, ctx.deps, written.id);
    return written.id;
  });
  invalidateReads(ctx.deps);
  return getPayment(ctx, id);
}

/** Admins and superadmins void with a reason; the payment stays listed (docs/payments.md#void). */
export async function voidPayment(ctx: ServiceContext, input: TVoidPaymentInput): Promise<PaymentDto> {
  if (!isAdmin(ctx.actor.role)) throw new AppError('FORBIDDEN', VOID_ADMINS_ONLY);
  const before = await findPayment(ctx, input.id);
  await ctx.db.transaction(async (tx) => {
    const { target, p } = await lockPaymentAndRecord(tx, before);
    if (p.status === 'void') throw new AppError('CONFLICT', 'This payment is already void.');
    await assertVoidAllowed(tx, ctx, p);
    if (target?.kind === 'enrollment' && target.status === 'completed')
      throw new AppError('CONFLICT', ENROLLMENT_COMPLETED);
    await voidLockedPayment(tx, p, target, input.reason, ctx.actor, today(ctx));
    await recordVoidEntry(tx, ctx, p, input.reason);
  });
  invalidateReads(ctx.deps);
  return getPayment(ctx, input.id);
}

/** A payment the caller may see: out of a limited manager's branch it does not exist for them. */
export async function findPayment(ctx: ServiceContext, id: string) {
  assertId(id, 'Payment');
  return findInBranchScope(ctx, payments, id, PAYMENT_NOT_FOUND);
}

type PaymentRow = typeof payments.$inferSelect;

/**
 * Locks a recorded payment for a void or a refund: its enrolment or booking first, then the
 * payment's row, the order recording takes, so that none of them deadlock.
 */
export async function lockPaymentAndRecord(
  tx: Db,
  before: Pick<PaymentRow, 'id' | 'enrollmentId' | 'bookingId'>,
): Promise<{ target: LedgerTarget | null; p: PaymentRow }> {
  const target = before.enrollmentId
    ? await lockEnrollmentTarget(tx, before.enrollmentId)
    : before.bookingId
      ? await lockBookingTarget(tx, before.bookingId)
      : null;
  const [p] = await tx.select().from(payments).where(eq(payments.id, before.id)).for('update').limit(1);
  if (!p) throw new AppError('NOT_FOUND', PAYMENT_NOT_FOUND);
  return { target, p };
}

export async function getPayment(ctx: ServiceContext, id: string): Promise<PaymentDto> {
  const p = await findPayment(ctx, id);
  const [dto] = await withAllocations(ctx.db, [p]);
  if (!dto) throw new AppError('NOT_FOUND', PAYMENT_NOT_FOUND);
  return dto;
}

/** Start of a calendar day in the organisation's time zone, as an instant (index-friendly bounds). */
const dayStart = (day: string, tz: string) => sql`(${day}::date)::timestamp at time zone ${tz}`;

export function paymentWhere(ctx: ServiceContext, f: TPaymentFilters & { search?: string }, scope: SQL | undefined) {
  const tz = ctx.deps.config.TIME_ZONE;
  const s = f.search;
  return and(
    scope,
    f.from ? sql`${payments.receivedAt} >= ${dayStart(f.from, tz)}` : undefined,
    f.to ? sql`${payments.receivedAt} < ${dayStart(f.to, tz)} + interval '1 day'` : undefined,
    f.branchId ? (isUuid(f.branchId) ? eq(payments.branchId, f.branchId) : sql`false`) : undefined,
    f.method ? eq(payments.method, f.method) : undefined,
    f.receivedBy ? (isUuid(f.receivedBy) ? eq(payments.receivedById, f.receivedBy) : sql`false`) : undefined,
    f.payerId ? (isUuid(f.payerId) ? eq(payments.payerId, f.payerId) : sql`false`) : undefined,
    f.status ? eq(payments.status, f.status) : undefined,
    s ? or(ilikeContains(paymentSearchText(payments), s), ofPeopleMatching(payments.payerId, s)) : undefined,
  );
}

export interface PaymentPage extends Page<PaymentDto> {
  /** Valid payments only, per currency, over every page of the filter. */
  totals: Array<{ currency: string; amount: number }>;
}

/** What each sortable column of the Payments screen sorts by (the names shown, as kept on the payment). */
const PAYMENT_SORT = {
  receivedAt: payments.receivedAt,
  receiptNumber: payments.receiptNumber,
  payer: payments.payerName,
  amount: payments.amount,
  method: payments.method,
  receivedBy: payments.receivedByName,
  status: payments.status,
} satisfies Record<TListPaymentsInput['sortBy'], AnyColumn>;

/**
 * The Payments screen and GET /api/payments: sorted (newest first unless asked), filtered and
 * totalled in SQL. In the embedded mode the same caller's same page is reused until the data
 * changes, looked for before any of its work is done (docs/performance.md#embedded-reuse).
 */
export function listPayments(ctx: ServiceContext, input: TListPaymentsInput): Promise<PaymentPage> {
  return reusedPage(ctx.deps, { list: 'payments', callerId: ctx.actor.id, input }, () => paymentsPage(ctx, input));
}

async function paymentsPage(ctx: ServiceContext, input: TListPaymentsInput): Promise<PaymentPage> {
  const where = paymentWhere(ctx, input, branchCondition(await branchScopeOf(ctx), payments.branchId));
  const column = PAYMENT_SORT[input.sortBy];
  const order = input.sortDir === 'asc' ? [asc(column), asc(payments.id)] : [desc(column), desc(payments.id)];
  // Only the default order, by when the money came in, reads past a cursor (its index is
  // (received_at, id)); the other columns page by number.
  const keyset =
    input.sortBy === 'receivedAt'
      ? {
          sortKey: payments.receivedAt,
          plainColumn: true,
          id: payments.id,
          idDir: input.sortDir,
          sortValueOf: sortValueIn(payments, payments.receivedAt, payments.id),
        }
      : null;
  const { total, ...page } = await keysetList(ctx, input, {
    keyset,
    totalKey: totalKey('payments', ctx.actor.id, input),
    rows: (start) =>
      ctx.db
        .select()
        .from(payments)
        .where(and(where, start.after))
        .orderBy(...order)
        .limit(input.pageSize)
        .offset(start.offset),
    count: () => countPayments(ctx, where),
    cursorRow: (r) => r,
    items: (rows) => withAllocations(ctx.db, rows),
  });
  return { ...page, total: total.total, totals: total.totals };
}

/** How many payments match, and the valid ones' sums per currency, over every page. */
async function countPayments(ctx: ServiceContext, where: SQL | undefined) {
  const [[count], totals] = await Promise.all([
    ctx.db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(payments)
      .where(where),
    ctx.db
      .select({ currency: payments.currency, minor: sql<number>`sum(${payments.amount})`.mapWith(Number) })
      .from(payments)
      .where(and(where, eq(payments.status, 'valid')))
      .groupBy(payments.currency)
      .orderBy(payments.currency),
  ]);
  return {
    total: count?.n ?? 0,
    totals: totals.map((t) => ({ currency: t.currency, amount: fromMinor(t.minor) })),
  };
}

/** One enrolment's or booking's payments, newest first (its details screen). */
export async function paymentsOf(
  ctx: ServiceContext,
  ref: { kind: 'enrollment' | 'booking'; id: string },
): Promise<PaymentDto[]> {
  assertId(ref.id, ref.kind === 'enrollment' ? 'Enrollment' : 'Booking');
  const notFound = ref.kind === 'enrollment' ? ENROLLMENT_NOT_FOUND : BOOKING_NOT_FOUND;
  await assertRecordInScope(ctx, ref.kind, ref.id, notFound);
  const table = ref.kind === 'enrollment' ? enrollments : treatmentBookings;
  const [exists] = await ctx.db.select({ id: table.id }).from(table).where(eq(table.id, ref.id)).limit(1);
  if (!exists) throw new AppError('NOT_FOUND', notFound);
  const rows = await ctx.db
    .select()
    .from(payments)
    .where(ref.kind === 'enrollment' ? eq(payments.enrollmentId, ref.id) : eq(payments.bookingId, ref.id))
    .orderBy(desc(payments.receivedAt), desc(payments.id))
    .limit(1000);
  return withAllocations(ctx.db, rows);
}

/**
 * Plans the receipt e-mail to the payer as the `payment_received` message (docs/messages.md#the-receipt-e-mail),
 * sent by the job worker; answers 202 with the send job's id.
 */
export async function emailReceipt(ctx: ServiceContext, id: string): Promise<TReceiptQueued> {
  const p = await findPayment(ctx, id);
  if (!p.payerId || !p.payerEmail) throw new AppError('CONFLICT', PAYER_GONE);
  const { payerId, payerEmail } = p;
  await countReceiptEmail(ctx, p.id);
  const organisation = await loadOrganisation(ctx.db, ctx.deps.config);
  const receipt = await loadReceipt(ctx.db, p.id, organisation);
  if (!receipt) throw new AppError('NOT_FOUND', PAYMENT_NOT_FOUND);
  const tz = ctx.deps.config.TIME_ZONE;
  // The message (its log row and send job) and the audit entry are one transaction: a queued
  // e-mail is always recorded, and one that failed to queue never is. Asked for, so opt-outs and
  // the event's switch do not apply; each request is its own occasion.
  const planned = await ctx.db.transaction(async (tx) => {
    const [row] = await planMessages(tx, ctx.deps, {
      event: 'payment_received',
      recipientId: payerId,
      entityType: 'payment',
      entityId: p.id,
      occasion: randomUUID(),
      sendAt: new Date(),
      // The letter opens with the name recorded on the payment, as the receipt prints it.
      vars: { ...paymentVars(ctx.deps, p), name: receipt.payerName },
      requested: true,
      channels: ['email'],
      appendix: (language) => receiptParagraphs(receipt, tz, language).join('\n\n'),
    });
    if (!row) return null;
    await recordReceiptEvent(tx, ctx, p, { kind: 'email', to: row.to ?? payerEmail });
    return row;
  });
  // The payment names a payer whose account is gone.
  if (!planned) throw new AppError('CONFLICT', PAYER_GONE);
  const to = planned.to ?? payerEmail;
  invalidateReads(ctx.deps);
  // Committed now: hand it on at once rather than at the next relay tick (errors are the relay's).
  void ctx.deps.jobs.flush?.();
  const delivery = emailDelivery(ctx.deps.config);
  const message =
    delivery === 'email'
      ? `Receipt ${p.receiptNumber} will be e-mailed to ${to}.`
      : queuedToOutbox(`Receipt ${p.receiptNumber} for ${to}`);
  return { message, jobId: sendJobId(planned.id, planned.sendAt), delivery };
}

/** The receipt as a PDF (docs/payments.md#receipts); each download is recorded. */
export async function receiptPdf(ctx: ServiceContext, id: string): Promise<{ fileName: string; pdf: Buffer }> {
  const p = await findPayment(ctx, id);
  const organisation = await loadOrganisation(ctx.db, ctx.deps.config);
  const receipt = await loadReceipt(ctx.db, p.id, organisation);
  if (!receipt) throw new AppError('NOT_FOUND', PAYMENT_NOT_FOUND);
  const pdf = buildReceiptPdf(receipt, ctx.deps.config.TIME_ZONE, await logoForPdf(ctx.db, organisation));
  await recordReceiptEvent(ctx.db, ctx, p, { kind: 'download' });
  invalidateReads(ctx.deps);
  return { fileName: `receipt-${p.receiptNumber}.pdf`, pdf };
}
