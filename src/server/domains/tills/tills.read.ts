import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { payments, refunds, tillAmounts, tillPayments, tillRefunds, tills, users } from '../../db/schema';
import { fromMinor } from '../../../shared/money';
import type { TTill, TTillList, TListTillsInput } from '@shared/schemas/tills';
import { branchCondition, branchScopeOf } from '../branch-scope';
import type { ServiceContext } from '../context';
import { isUuid } from '../ids';
import { offsetOf } from '../paging';

type TillRow = typeof tills.$inferSelect;
type AmountRow = typeof tillAmounts.$inferSelect;

const money = (currency: string, minor: number) => ({ currency, amount: fromMinor(minor) });

/** What the valid cash payments of each till add up to, per currency: one grouped statement. */
export async function cashTaken(db: Db, tillIds: string[]) {
  if (tillIds.length === 0) return [];
  return db
    .select({
      tillId: tillPayments.tillId,
      currency: payments.currency,
      minor: sql<number>`coalesce(sum(${payments.amount}), 0)`.mapWith(Number),
      n: sql<number>`count(*)`.mapWith(Number),
    })
    .from(tillPayments)
    .innerJoin(payments, eq(payments.id, tillPayments.paymentId))
    .where(and(inArray(tillPayments.tillId, tillIds), eq(payments.status, 'valid')))
    .groupBy(tillPayments.tillId, payments.currency);
}

/** What the cash refunds paid out of each till add up to, per currency (docs/payments.md#refunds). */
export async function cashRefunded(db: Db, tillIds: string[]) {
  if (tillIds.length === 0) return [];
  return db
    .select({
      tillId: tillRefunds.tillId,
      currency: refunds.currency,
      minor: sql<number>`coalesce(sum(${refunds.amount}), 0)`.mapWith(Number),
      n: sql<number>`count(*)`.mapWith(Number),
    })
    .from(tillRefunds)
    .innerJoin(refunds, eq(refunds.id, tillRefunds.refundId))
    .where(inArray(tillRefunds.tillId, tillIds))
    .groupBy(tillRefunds.tillId, refunds.currency);
}

/** Float plus cash taken less cash refunded, per currency, sorted by currency. */
export function expectedOf(
  amounts: AmountRow[],
  taken: Array<{ currency: string; minor: number }>,
  refunded: Array<{ currency: string; minor: number }> = [],
) {
  const out = new Map<string, number>();
  for (const a of amounts) out.set(a.currency, a.opening);
  for (const t of taken) out.set(t.currency, (out.get(t.currency) ?? 0) + t.minor);
  for (const r of refunded) out.set(r.currency, (out.get(r.currency) ?? 0) - r.minor);
  return [...out].sort(([a], [b]) => a.localeCompare(b));
}

/** Tills as the API answers them, with their amounts and (for open ones) the cash taken so far. */
export async function toTillDtos(db: Db, rows: TillRow[]): Promise<TTill[]> {
  const ids = rows.map((r) => r.id);
  if (ids.length === 0) return [];
  const cashierIds = [
    ...new Set(rows.flatMap((r) => [r.cashierId, r.closedById]).filter((id): id is string => id !== null)),
  ];
  const [amounts, taken, refunded, cashiers] = await Promise.all([
    db.select().from(tillAmounts).where(inArray(tillAmounts.tillId, ids)).orderBy(tillAmounts.currency),
    cashTaken(db, ids),
    cashRefunded(db, ids),
    // The cashier's and the closer's names as they are now (the till keeps their usernames).
    cashierIds.length
      ? db.select({ id: users.id, fullName: users.fullName }).from(users).where(inArray(users.id, cashierIds))
      : Promise.resolve([]),
  ]);
  const fullNames = new Map(cashiers.map((c) => [c.id, c.fullName]));
  return rows.map((r) => {
    const mine = amounts.filter((a) => a.tillId === r.id);
    const takenHere = taken.filter((t) => t.tillId === r.id);
    const refundedHere = refunded.filter((t) => t.tillId === r.id);
    const closed = r.status === 'closed';
    const expected = closed
      ? mine.filter((a) => a.expected !== null).map((a) => money(a.currency, a.expected ?? 0))
      : expectedOf(mine, takenHere, refundedHere).map(([c, m]) => money(c, m));
    return {
      _id: r.id,
      branch: { _id: r.branchId, name: r.branchName },
      cashier: {
        _id: r.cashierId,
        username: r.cashierName,
        fullName: r.cashierId ? (fullNames.get(r.cashierId) ?? null) : null,
      },
      openedAt: r.openedAt.toISOString(),
      openingDay: r.openingDay,
      openingFloat: mine.filter((a) => a.inFloat).map((a) => money(a.currency, a.opening)),
      status: r.status,
      expected,
      payments: takenHere.reduce((s, t) => s + t.n, 0),
      refunds: refundedHere.reduce((s, t) => s + t.n, 0),
      closedAt: r.closedAt?.toISOString() ?? null,
      closedBy:
        closed && r.closedByName
          ? {
              _id: r.closedById,
              username: r.closedByName,
              fullName: r.closedById ? (fullNames.get(r.closedById) ?? null) : null,
            }
          : null,
      counted: closed ? mine.map((a) => money(a.currency, a.counted ?? 0)) : null,
      difference: closed ? mine.map((a) => money(a.currency, (a.counted ?? 0) - (a.expected ?? 0))) : null,
      note: r.note,
    };
  });
}

/** The tills the caller may see: a manager limited to a branch sees that branch's only. */
export async function tillScope(ctx: ServiceContext): Promise<SQL | undefined> {
  return branchCondition(await branchScopeOf(ctx), tills.branchId);
}

/** GET /api/tills and the Till card: newest first, filtered by branch, opening day and status, paged. */
export async function listTills(ctx: ServiceContext, input: TListTillsInput): Promise<TTillList> {
  const where = and(
    await tillScope(ctx),
    input.branchId ? (isUuid(input.branchId) ? eq(tills.branchId, input.branchId) : sql`false`) : undefined,
    input.from ? sql`${tills.openingDay} >= ${input.from}` : undefined,
    input.to ? sql`${tills.openingDay} <= ${input.to}` : undefined,
    input.status ? eq(tills.status, input.status) : undefined,
    input.mine ? eq(tills.cashierId, ctx.actor.id) : undefined,
  );
  const [rows, [count]] = await Promise.all([
    ctx.db
      .select()
      .from(tills)
      .where(where)
      .orderBy(desc(tills.openedAt), desc(tills.id))
      .limit(input.pageSize)
      .offset(offsetOf(input.page, input.pageSize)),
    ctx.db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(tills)
      .where(where),
  ]);
  return { data: await toTillDtos(ctx.db, rows), total: count?.n ?? 0, page: input.page };
}
