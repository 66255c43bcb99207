import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { payments, refunds, users } from '../../db/schema';
import type { ServiceContext } from '../context';
import { formatMoney } from '../../../shared/format';
import { fromMinor } from '../../../shared/money';
import { PAYMENT_METHOD_LABELS } from '../../../shared/payment-kinds';
import { branchCondition, branchScopeOf } from '../branch-scope';
import { todayIn } from '../enrollments/dates';
import { cursorTs, keyset, type Cursor } from '../reports/report-batches';
import type { ReportColumn, ReportRow, ReportSource } from '../reports/report-source';
import { paymentWhere } from './payments.service';
import { tillCashUpLines } from '../tills/tills.cash-up';
import { refundWhere } from '../refunds/refunds.service';
import type { TCashUpInput, TPaymentFilters } from '@shared/schemas/payments';
import type { TCashUp } from '@shared/schemas/payments.output';

/**
 * The daily cash-up (docs/payments.md#cash-up): valid payments totalled per day, branch, cashier,
 * method and currency, with the day's voids listed apart. All of it aggregated in SQL. Each part is
 * typed with its output contract, so a field one has and the other lacks fails the build.
 */
export async function cashUp(ctx: ServiceContext, input: TCashUpInput): Promise<TCashUp> {
  const tz = ctx.deps.config.TIME_ZONE;
  const from = input.from ?? todayIn(tz);
  const to = input.to ?? from;
  const scope = branchCondition(await branchScopeOf(ctx), payments.branchId);
  const where = paymentWhere(ctx, { from, to, branchId: input.branchId }, scope);
  // The zone is written into the text, not bound: GROUP BY must see the very same expression as the
  // SELECT, and two bound parameters are two expressions to PostgreSQL. It comes from the server's
  // own configuration (an IANA name), never from a request.
  const day = sql<string>`to_char(${payments.receivedAt} at time zone ${sql.raw(`'${tz.replace(/'/g, "''")}'`)}, 'YYYY-MM-DD')`;
  const minor = sql<number>`sum(${payments.amount})`.mapWith(Number);
  const n = sql<number>`count(*)`.mapWith(Number);
  const valid = and(where, eq(payments.status, 'valid'));
  const refundScope = branchCondition(await branchScopeOf(ctx), refunds.branchId);
  const [rows, totals, byMethod, voids, refunded] = await Promise.all([
    ctx.db
      .select({
        date: day,
        branchId: payments.branchId,
        branchName: payments.branchName,
        cashierId: payments.receivedById,
        cashier: payments.receivedByName,
        // The row keeps the username it was received under; the screen names the cashier by the
        // account's full name now, as a till does (docs/payments.md#tills).
        cashierFullName: users.fullName,
        method: payments.method,
        currency: payments.currency,
        amount: minor,
        count: n,
      })
      .from(payments)
      .leftJoin(users, eq(users.id, payments.receivedById))
      .where(valid)
      .groupBy(
        day,
        payments.branchId,
        payments.branchName,
        payments.receivedById,
        payments.receivedByName,
        users.fullName,
        payments.method,
        payments.currency,
      )
      .orderBy(asc(day), asc(payments.branchName), asc(payments.receivedByName), asc(payments.method)),
    ctx.db
      .select({ currency: payments.currency, amount: minor, count: n })
      .from(payments)
      .where(valid)
      .groupBy(payments.currency)
      .orderBy(asc(payments.currency)),
    ctx.db
      .select({ method: payments.method, currency: payments.currency, amount: minor, count: n })
      .from(payments)
      .where(valid)
      .groupBy(payments.method, payments.currency)
      .orderBy(asc(payments.method), asc(payments.currency)),
    ctx.db
      .select()
      .from(payments)
      .where(and(where, eq(payments.status, 'void')))
      .orderBy(desc(payments.receivedAt))
      .limit(1000),
    ctx.db
      .select({
        method: refunds.method,
        currency: refunds.currency,
        amount: sql<number>`sum(${refunds.amount})`.mapWith(Number),
        count: n,
      })
      .from(refunds)
      .where(refundWhere(tz, { from, to, branchId: input.branchId }, refundScope))
      .groupBy(refunds.method, refunds.currency)
      .orderBy(asc(refunds.method), asc(refunds.currency)),
  ]);
  // Collected less refunded, per method and currency: the money that stayed.
  const netKey = (m: { method: string; currency: string }) => `${m.method}|${m.currency}`;
  const net = new Map<string, { method: (typeof byMethod)[number]['method']; currency: string; minor: number }>();
  for (const m of byMethod) net.set(netKey(m), { method: m.method, currency: m.currency, minor: m.amount });
  for (const r of refunded) {
    const k = netKey(r);
    net.set(k, { method: r.method, currency: r.currency, minor: (net.get(k)?.minor ?? 0) - r.amount });
  }
  return {
    from,
    to,
    branchId: input.branchId ?? null,
    rows: rows.map((r): TCashUp['rows'][number] => ({
      date: r.date,
      branch: r.branchName ? { _id: r.branchId, name: r.branchName } : null,
      cashier: r.cashier ? { _id: r.cashierId, username: r.cashier, fullName: r.cashierFullName || null } : null,
      method: r.method,
      currency: r.currency,
      amount: fromMinor(r.amount),
      count: r.count,
    })),
    totals: totals.map((t): TCashUp['totals'][number] => ({
      currency: t.currency,
      amount: fromMinor(t.amount),
      count: t.count,
    })),
    byMethod: byMethod.map((m): TCashUp['byMethod'][number] => ({
      method: m.method,
      currency: m.currency,
      amount: fromMinor(m.amount),
      count: m.count,
    })),
    voids: voids.map((v): TCashUp['voids'][number] => ({
      _id: v.id,
      receiptNumber: v.receiptNumber,
      amount: fromMinor(v.amount),
      currency: v.currency,
      receivedAt: v.receivedAt.toISOString(),
      voidedAt: v.voidedAt?.toISOString() ?? null,
      voidedBy: v.voidedByName,
      voidReason: v.voidReason,
    })),
    refunds: refunded.map((r): TCashUp['refunds'][number] => ({
      method: r.method,
      currency: r.currency,
      amount: fromMinor(r.amount),
      count: r.count,
    })),
    net: [...net.values()]
      .sort((a, b) => a.method.localeCompare(b.method) || a.currency.localeCompare(b.currency))
      .map((m): TCashUp['net'][number] => ({ method: m.method, currency: m.currency, amount: fromMinor(m.minor) })),
  };
}

const CASH_UP_COLUMNS: ReportColumn[] = [
  { key: 'date', header: 'Date', type: 'date', width: 12 },
  { key: 'branch', header: 'Branch', type: 'text', width: 18 },
  { key: 'cashier', header: 'Cashier', type: 'text', width: 18 },
  { key: 'method', header: 'Method', type: 'text', width: 14 },
  { key: 'currency', header: 'Currency', type: 'text', width: 9 },
  { key: 'count', header: 'Receipts', type: 'int', width: 9 },
  { key: 'amount', header: 'Amount', type: 'money', width: 14 },
];

/** The cash-up as a report source, so Excel and PDF come from the same writers as every report. */
export async function cashUpSource(ctx: ServiceContext, input: TCashUpInput): Promise<ReportSource> {
  const c = await cashUp(ctx, input);
  const rows: ReportRow[] = c.rows.map((r) => ({
    date: r.date,
    branch: r.branch?.name ?? 'No branch',
    cashier: r.cashier?.username ?? 'Not recorded',
    method: PAYMENT_METHOD_LABELS[r.method],
    currency: r.currency,
    count: r.count,
    amount: r.amount,
  }));
  const voidLines = c.voids.map(
    (v) =>
      `Void ${v.receiptNumber}: ${formatMoney(v.amount, v.currency)} by ${v.voidedBy ?? 'unknown'} (${v.voidReason ?? ''})`,
  );
  return {
    title: 'Cash-up',
    fileBase: 'cash_up',
    columns: CASH_UP_COLUMNS,
    filterLines: [
      c.from === c.to ? `Day: ${c.from}` : `Days: ${c.from} to ${c.to}`,
      ...(c.branchId ? [`Branch id: ${c.branchId}`] : []),
      voidLines.length ? `Voided, not counted: ${voidLines.join('; ')}` : 'No voided payments.',
      // Only when there were refunds, so a cash-up without any prints as it always did.
      ...(c.refunds.length
        ? [
            `Refunded (cash out): ${c.refunds.map((r) => `${PAYMENT_METHOD_LABELS[r.method]} ${formatMoney(r.amount, r.currency)} (${r.count})`).join('; ')}; net ${c.net.map((m) => `${PAYMENT_METHOD_LABELS[m.method]} ${formatMoney(m.amount, m.currency)}`).join('; ')}`,
          ]
        : []),
      ...(await tillCashUpLines(ctx, c)),
    ],
    count: () => Promise.resolve(rows.length),
    batches: async function* (size: number) {
      for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
    },
    totals: () =>
      Promise.resolve(c.totals.map((t) => ({ date: 'Total', currency: t.currency, count: t.count, amount: t.amount }))),
  };
}

const LIST_COLUMNS: ReportColumn[] = [
  { key: 'receiptNumber', header: 'Receipt', type: 'text', width: 18 },
  { key: 'receivedAt', header: 'Received', type: 'datetime', width: 16 },
  { key: 'payer', header: 'Payer', type: 'text', width: 18 },
  { key: 'subject', header: 'For', type: 'text', width: 22 },
  { key: 'method', header: 'Method', type: 'text', width: 12 },
  { key: 'reference', header: 'Reference', type: 'text', width: 14 },
  { key: 'currency', header: 'Currency', type: 'text', width: 9 },
  { key: 'amount', header: 'Amount', type: 'money', width: 13 },
  { key: 'receivedBy', header: 'Received by', type: 'text', width: 16 },
  { key: 'status', header: 'Status', type: 'text', width: 8 },
];

/** The Payments screen's Excel export: the same filters, every page, streamed in keyset batches. */
export async function paymentListSource(
  ctx: ServiceContext,
  f: TPaymentFilters & { search?: string },
): Promise<ReportSource> {
  const where = paymentWhere(ctx, f, branchCondition(await branchScopeOf(ctx), payments.branchId));
  return {
    title: 'Payments',
    fileBase: 'payments',
    columns: LIST_COLUMNS,
    filterLines: Object.entries(f)
      .filter(([, v]) => v !== undefined && v !== '')
      .map(([k, v]) => `${k}: ${String(v)}`),
    count: async () => {
      const [r] = await ctx.db
        .select({ n: sql<number>`count(*)`.mapWith(Number) })
        .from(payments)
        .where(where);
      return r?.n ?? 0;
    },
    batches: async function* (size: number) {
      // Newest first, walked by (received_at, id) downwards.
      const fetch = (after: Cursor | null, limit: number) =>
        ctx.db
          .select({ p: payments, cursorTs: cursorTs(payments.receivedAt), cursorId: payments.id })
          .from(payments)
          .where(
            and(
              where,
              after
                ? sql`(${payments.receivedAt}, ${payments.id}) < (${after.ts}::timestamptz, ${after.id}::uuid)`
                : undefined,
            ),
          )
          .orderBy(desc(payments.receivedAt), desc(payments.id))
          .limit(limit);
      for await (const page of keyset(fetch, size)) {
        yield page.map(({ p }) => ({
          receiptNumber: p.receiptNumber,
          receivedAt: p.receivedAt.toISOString(),
          payer: p.payerName,
          subject: p.subject,
          method: PAYMENT_METHOD_LABELS[p.method],
          reference: p.reference,
          currency: p.currency,
          amount: fromMinor(p.amount),
          receivedBy: p.receivedByName,
          status: p.status,
        }));
      }
    },
    totals: async () => {
      const rows = await ctx.db
        .select({ currency: payments.currency, minor: sql<number>`sum(${payments.amount})`.mapWith(Number) })
        .from(payments)
        .where(and(where, eq(payments.status, 'valid')))
        .groupBy(payments.currency);
      return rows.map((r) => ({ receiptNumber: 'Total (valid)', currency: r.currency, amount: fromMinor(r.minor) }));
    },
  };
}
