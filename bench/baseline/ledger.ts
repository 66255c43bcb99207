/**
 * The baseline's instalment toggle: what `POST /api/enrollments/{id}/pay-installment` does in the
 * product (docs/payments.md#the-paidunpaid-switch), as bare statements in one transaction. Marking
 * paid records a payment of what is left of the instalment (the instalment, the enrolment's
 * updatedAt, what is still owed for the receipt's balance, then the receipt prefix and counter,
 * payment, allocation); marking unpaid finds and locks the payments that paid it in one statement
 * (refusing one that also paid another item), and voids each unless money of it was refunded;
 * either writes one audit entry. Same statements, in the same order, as the product renders them
 * (`npm run bench:http` compares both servers' statement logs).
 */
import type postgres from 'postgres';

type Row = unknown[];
/** Runs one statement in the transaction and answers its rows as arrays. */
export type Run = (text: string, params: unknown[]) => Promise<Row[]>;

export class LedgerError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/**
 * Every statement unnamed, as drizzle sends a query it was not asked to `.prepare(name)`:
 * postgres.js `unsafe` with `prepare: false`, so PostgreSQL plans it on every call. One without
 * parameters then goes by the simple protocol, on both sides (postgres.js's default for `unsafe`).
 */
export const UNNAMED: postgres.UnsafeQueryOptions = { prepare: false };

export const runIn =
  (tx: postgres.TransactionSql): Run =>
  (text, params) =>
    tx.unsafe(text, params as postgres.ParameterOrJSON<never>[], UNNAMED).values();

// ------------------------------------------------------------------------------------- statements

/**
 * Every column of `enrollments`, locked (that row only), with the payer and the course name joined:
 * the product's `lockEnrollmentRow` (src/server/domains/payments/ledger-targets.ts).
 */
export const ENROLLMENT_LOCK = `select "enrollments"."id", "enrollments"."user_id", "enrollments"."course_id", "enrollments"."payment_type", "enrollments"."total_fee_minor", "enrollments"."admission_fee_minor", "enrollments"."currency", "enrollments"."admission_fee_paid", "enrollments"."admission_fee_paid_minor", "enrollments"."admission_fee_paid_at", "enrollments"."status", "enrollments"."completed_at", "enrollments"."display_status", "enrollments"."enrolled_on", "enrollments"."deleted_username", "enrollments"."deleted_email", "enrollments"."deleted_course_name", "enrollments"."created_at", "enrollments"."updated_at", "users"."username", "users"."full_name", "users"."email", "users"."branch_id", "courses"."course_name" from "enrollments" left join "users" on "users"."id" = "enrollments"."user_id" left join "courses" on "courses"."id" = "enrollments"."course_id" where "enrollments"."id" = $1 limit $2 for update of "enrollments"`;
/** The payable instalments, oldest first (the admission fee is read from the enrolment row). */
const ITEMS = `select "id", "enrollment_id", "seq", "amount_minor", "due_date", "amount_paid_minor", "is_paid", "paid_at" from "enrollment_installments" where "enrollment_installments"."enrollment_id" = $1 order by "enrollment_installments"."due_date" asc, "enrollment_installments"."seq" asc`;
const BRANCH_NAME = `select "name" from "branches" where "branches"."id" = $1 limit $2`;
const COUNTER_NEXT = `insert into "receipt_counters" ("series", "year", "last") values ($1, $2, $3) on conflict ("series","year") do update set "last" = "receipt_counters"."last" + 1 returning "last"`;
const PREFIX = `select "prefix" from "receipt_prefixes" where "receipt_prefixes"."series" = $1 limit $2`;
const PREFIX_CLAIM = `insert into "receipt_prefixes" ("series", "prefix") values ($1, $2) on conflict do nothing returning "prefix"`;
const PAYMENT_INSERT = `insert into "payments" ("id", "receipt_number", "receipt_series", "receipt_year", "receipt_seq", "branch_id", "branch_name", "payer_id", "payer_name", "payer_full_name", "payer_email", "enrollment_id", "booking_id", "subject", "amount_minor", "currency", "method", "reference", "note", "received_at", "received_by", "received_by_name", "received_by_full_name", "status", "voided_at", "voided_by", "voided_by_name", "void_reason", "balance_after_minor", "created_at") values (default, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, default, default, default, default, default, $23, default) returning "id"`;
const ALLOCATION_INSERT = `insert into "payment_allocations" ("id", "payment_id", "kind", "enrollment_id", "booking_id", "enrollment_installment_id", "booking_installment_id", "installment_number", "due_date", "amount_minor") values (default, $1, $2, $3, $4, $5, $6, $7, $8, $9)`;
const INSTALLMENT_APPLY = `update "enrollment_installments" set "amount_paid_minor" = $1, "is_paid" = $2, "paid_at" = $3 where "enrollment_installments"."id" = $4`;
/** Still paid after the change (an overpaid instalment): its first paidAt stays. */
const INSTALLMENT_APPLY_KEEP_PAID_AT = `update "enrollment_installments" set "amount_paid_minor" = $1, "is_paid" = $2, "paid_at" = "enrollment_installments"."paid_at" where "enrollment_installments"."id" = $3`;
const ENROLLMENT_TOUCH = `update "enrollments" set "updated_at" = $1 where "enrollments"."id" = $2`;
/**
 * The product's unmark plan, locked: the valid payments with an allocation to this instalment of
 * this enrolment, oldest first, each with whether it also paid something else. Parameters: the
 * instalment, 'valid', the enrolment, the instalment.
 */
const PAYING_LOCK = `select "id", "receipt_number", "receipt_series", "receipt_year", "receipt_seq", "branch_id", "branch_name", "payer_id", "payer_name", "payer_full_name", "payer_email", "enrollment_id", "booking_id", "subject", "amount_minor", "currency", "method", "reference", "note", "received_at", "received_by", "received_by_name", "received_by_full_name", "status", "voided_at", "voided_by", "voided_by_name", "void_reason", "balance_after_minor", "created_at", exists (select 1 from "payment_allocations" o where o.payment_id = "payments"."id" and not (coalesce(o.enrollment_installment_id = $1::uuid, false))) from "payments" where ("payments"."status" = $2 and exists (select 1 from "payment_allocations" a where a.payment_id = "payments"."id" and a.enrollment_id = $3::uuid and coalesce(a.enrollment_installment_id = $4::uuid, false))) order by "payments"."received_at" asc, "payments"."id" asc for update of "payments"`;
/** What was refunded of each payment named (here always one). */
const REFUNDED = `select "payment_id", sum("amount_minor") from "refunds" where "refunds"."payment_id" in ($1) group by "refunds"."payment_id"`;
const ALLOCATIONS_OF = `select "id", "payment_id", "kind", "enrollment_id", "booking_id", "enrollment_installment_id", "booking_installment_id", "installment_number", "due_date", "amount_minor" from "payment_allocations" where "payment_allocations"."payment_id" = $1`;
const PAYMENT_VOID = `update "payments" set "status" = $1, "voided_at" = $2, "voided_by" = $3, "voided_by_name" = $4, "void_reason" = $5 where "payments"."id" = $6`;
const AUDIT_INSERT = `insert into "audit_log" ("id", "created_at", "actor_id", "actor_username", "actor_role", "action", "entity_type", "entity_id", "parent_type", "parent_id", "summary", "changes", "ip", "user_agent", "request_id") values (default, default, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`;

// ------------------------------------------------------------------------------------- the toggle

export interface LedgerActor {
  id: string;
  role: string;
  username: string;
  fullName: string;
  branchId: string | null;
}
export interface RequestMeta {
  ip: string;
  userAgent: string | null;
  requestId: string;
}

/** Timestamps as the product's ORM sends them. */
export const pgTimestamp = (d: Date) => d.toISOString().replace('T', ' ').replace('Z', '+00');

interface Target {
  id: string;
  currency: string;
  payerId: string | null;
  payerName: string;
  payerFullName: string | null;
  payerEmail: string | null;
  payerBranchId: string | null;
  subject: string;
  /** The admission fee and what is paid of it, for the balance a receipt prints. */
  admissionFee: number;
  admissionFeeAmountPaid: number;
}
interface Item {
  installmentId: string;
  number: number;
  dueDate: string;
  amount: number;
  amountPaid: number;
}

const NOT_FOUND = 'Enrollment not found.';
/** The audit summary's limit, as the product clips it. */
const clip = (s: string, max = 500) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** The enrolment's row (as an array) and the ledger's view of it, from one locking statement. */
async function lockTarget(run: Run, id: string): Promise<{ e: Row; t: Target }> {
  const [e] = await run(ENROLLMENT_LOCK, [id, 1]);
  if (!e) throw new LedgerError(404, NOT_FOUND, 'NOT_FOUND');
  const userId = e[1] as string | null;
  const [username, fullName, email, branchId, courseName] = e.slice(19) as Array<string | null>;
  return {
    e,
    t: {
      id,
      currency: e[6] as string,
      payerId: userId,
      payerName: (username ?? e[14] ?? 'Unknown') as string,
      payerFullName: fullName || null,
      payerEmail: (email ?? e[15]) as string | null,
      payerBranchId: branchId ?? null,
      subject: (courseName ?? e[16] ?? 'Unknown course') as string,
      admissionFee: Number(e[5]),
      admissionFeeAmountPaid: Number(e[8]),
    },
  };
}

async function itemsOf(run: Run, id: string): Promise<Item[]> {
  return (await run(ITEMS, [id])).map((r) => ({
    installmentId: r[0] as string,
    number: (r[2] as number) + 1,
    dueDate: r[4] as string,
    amount: Number(r[3]),
    amountPaid: Number(r[5]),
  }));
}

async function applyToItem(run: Run, item: Item, delta: number, when: Date) {
  const paid = item.amountPaid + delta;
  const isPaid = paid >= item.amount;
  const becamePaid = isPaid && item.amountPaid < item.amount;
  item.amountPaid = paid;
  if (isPaid && !becamePaid) await run(INSTALLMENT_APPLY_KEEP_PAID_AT, [paid, isPaid, item.installmentId]);
  else await run(INSTALLMENT_APPLY, [paid, isPaid, isPaid ? pgTimestamp(when) : null, item.installmentId]);
}

/**
 * What is still owed on the enrolment, read again after the payment was applied (the product's
 * outstandingNow): each item's amount less what is paid on it, never below zero; the admission fee
 * counts when there is one.
 */
async function outstandingNow(run: Run, t: Target) {
  const fee = t.admissionFee > 0 ? Math.max(0, t.admissionFee - t.admissionFeeAmountPaid) : 0;
  return (await itemsOf(run, t.id)).reduce((sum, i) => sum + Math.max(0, i.amount - i.amountPaid), fee);
}

const touch = (run: Run, id: string) => run(ENROLLMENT_TOUCH, [pgTimestamp(new Date()), id]);

function branchCode(name: string | null | undefined) {
  const letters = (name ?? '')
    .replace(/[^A-Za-z]/g, '')
    .slice(0, 3)
    .toUpperCase();
  return letters || 'GEN';
}

async function receiptNumber(run: Run, series: string, branchName: string | undefined, year: number) {
  let prefix: string | undefined;
  for (let n = 1; !prefix; n++) {
    const [known] = await run(PREFIX, [series, 1]);
    if (known) {
      prefix = known[0] as string;
      break;
    }
    const [claimed] = await run(PREFIX_CLAIM, [
      series,
      n === 1 ? branchCode(branchName) : `${branchCode(branchName)}${n}`,
    ]);
    prefix = claimed?.[0] as string | undefined;
  }
  const [counter] = await run(COUNTER_NEXT, [series, year, 1]);
  const seq = counter![0] as number;
  return { seq, number: `${prefix}-${year}-${String(seq).padStart(6, '0')}` };
}

/** Marking paid: one payment of what is left of the instalment. */
async function settle(run: Run, t: Target, item: Item, actor: LedgerActor, todayIso: string): Promise<string[]> {
  const amount = item.amount - item.amountPaid;
  if (amount <= 0) return [];
  const receivedAt = new Date();
  const branchId = t.payerBranchId ?? actor.branchId ?? null;
  const [branch] = branchId ? await run(BRANCH_NAME, [branchId, 1]) : [];
  const branchName = branch?.[0] as string | undefined;
  const series = branch ? branchId! : 'none';
  const year = Number(todayIso.slice(0, 4));
  await applyToItem(run, item, amount, receivedAt);
  await touch(run, t.id);
  const balanceAfter = await outstandingNow(run, t);
  const receipt = await receiptNumber(run, series, branchName, year);
  const [payment] = await run(PAYMENT_INSERT, [
    receipt.number,
    series,
    year,
    receipt.seq,
    branch ? branchId : null,
    branchName ?? null,
    t.payerId,
    t.payerName,
    t.payerFullName,
    t.payerEmail,
    t.id,
    null,
    t.subject,
    amount,
    t.currency,
    'other',
    null,
    null,
    pgTimestamp(receivedAt),
    actor.id,
    actor.username,
    actor.fullName.trim() || null,
    balanceAfter,
  ]);
  await run(ALLOCATION_INSERT, [
    payment![0],
    'enrollment_installment',
    t.id,
    null,
    item.installmentId,
    null,
    item.number,
    item.dueDate,
    amount,
  ]);
  return [receipt.number];
}

/** A currency as the product's messages write it; an unknown code as itself. */
const SYMBOLS: Record<string, string> = { LKR: 'Rs.', USD: '$', EUR: '€', GBP: '£', INR: '₹', AUD: 'A$' };
/** A refunded amount as the product's message writes it: `Rs. 1,234.50`. */
const refundedText = (minor: number, currency: string) =>
  `${SYMBOLS[currency] ?? currency} ${String(Math.floor(minor / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${String(minor % 100).padStart(2, '0')}`;

/**
 * Marking unpaid: the payments that paid the instalment are voided, none when one of them also
 * paid another item, nor one that was refunded.
 */
async function unsettle(run: Run, t: Target, item: Item, actor: LedgerActor): Promise<string[]> {
  if (item.amountPaid <= 0) return [];
  const rows = await run(PAYING_LOCK, [item.installmentId, 'valid', t.id, item.installmentId]);
  // The last column: whether the payment also paid something else.
  const blocked = rows.find((p) => p[29] === true);
  if (blocked)
    throw new LedgerError(
      409,
      `This was paid with receipt ${blocked[1] as string} together with other items; void that receipt instead.`,
      'CONFLICT',
    );
  for (const p of rows) {
    const [refunded] = await run(REFUNDED, [p[0]]);
    if (refunded && Number(refunded[1]) > 0)
      throw new LedgerError(
        409,
        `This payment has been refunded (${refundedText(Number(refunded[1]), p[15] as string)}); a refunded payment cannot be voided. Only money that was never really paid is voided.`,
        'CONFLICT',
      );
    const items = await itemsOf(run, t.id);
    for (const a of await run(ALLOCATIONS_OF, [p[0]])) {
      // Only this instalment's allocations remain (checked above): never the admission fee.
      const it = items.find((i) => i.installmentId === (a[5] ?? a[6]));
      if (it) await applyToItem(run, it, -Number(a[9]), new Date());
    }
    // As the product: the caller's item holds what is still paid on it after each void.
    const now = items.find((i) => i.installmentId === item.installmentId);
    if (now) item.amountPaid = now.amountPaid;
    await touch(run, t.id);
    await run(PAYMENT_VOID, ['void', pgTimestamp(new Date()), actor.id, actor.username, 'marked unpaid', p[0]]);
  }
  return rows.map((p) => p[1] as string);
}

/**
 * The toggle, inside the caller's transaction: lock, find the instalment, settle or void, and
 * one audit entry naming the receipt written or voided.
 */
export async function toggleInstallment(
  run: Run,
  input: { id: string; installmentIndex: number; isPaid: boolean },
  actor: LedgerActor,
  meta: RequestMeta,
  todayIso: string,
): Promise<void> {
  const { e, t } = await lockTarget(run, input.id);
  const item = (await itemsOf(run, t.id)).find((i) => i.number === input.installmentIndex + 1);
  if (!item) throw new LedgerError(404, 'Installment not found in this enrollment.', 'NOT_FOUND');
  if (input.isPaid ? item.amountPaid >= item.amount : item.amountPaid === 0) return;
  if (e[10] === 'completed')
    throw new LedgerError(409, 'This enrollment is completed; its payments can no longer be changed.', 'CONFLICT');
  const paidBefore = item.amountPaid;
  const receipts = input.isPaid ? await settle(run, t, item, actor, todayIso) : await unsettle(run, t, item, actor);
  if (!receipts.length) return;
  // settle and unsettle leave `item` holding what is paid on it now (no second read, as the product).
  const paidAfter = item.amountPaid;
  const receipt = receipts.join(', ');
  const changes = [
    { field: 'isPaid', before: paidBefore >= item.amount, after: paidAfter >= item.amount },
    { field: 'amountPaid', before: paidBefore / 100, after: paidAfter / 100 },
    input.isPaid
      ? { field: 'receipt', before: null, after: receipt }
      : { field: 'voidedReceipts', before: receipt, after: null },
  ];
  await run(AUDIT_INSERT, [
    actor.id,
    actor.username,
    actor.role,
    input.isPaid ? 'mark_paid' : 'mark_unpaid',
    'installment',
    item.installmentId,
    'enrollment',
    t.id,
    clip(`Marked installment ${item.number} of ${t.subject} for ${t.payerName} as ${input.isPaid ? 'paid' : 'unpaid'}`),
    // As text: the server's client, like the product's ORM, passes json through unserialised.
    JSON.stringify(changes),
    meta.ip,
    meta.userAgent,
    meta.requestId,
  ]);
}
