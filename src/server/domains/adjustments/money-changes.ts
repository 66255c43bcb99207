/**
 * The reports' view of money that changed after the fact (docs/payments.md#adjustments, #refunds):
 * the adjustments in force and the refunds of a period, grouped in SQL by month (in TIME_ZONE),
 * branch and kind, scheme and reason, or method. Branch names come from the branches that still
 * exist; a deleted branch's rows keep their figures under "no branch".
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import { adjustments, branches, refunds } from '../../db/schema';
import { fromMinor } from '../../../shared/money';
import type { TMoneyChanges, TMoneyChangesInput } from '@shared/schemas/adjustments';
import { branchCondition, branchScopeOf } from '../branch-scope';
import type { ServiceContext } from '../context';
import { isUuid } from '../ids';
import { refundWhere } from '../refunds/refunds.service';

export async function moneyChanges(ctx: ServiceContext, input: TMoneyChangesInput): Promise<TMoneyChanges> {
  const tz = ctx.deps.config.TIME_ZONE;
  const scope = await branchScopeOf(ctx);
  // Written into the text, not bound: GROUP BY must see the very expression the SELECT has (the
  // zone is the server's own configuration, never a request's).
  const zone = sql.raw(`'${tz.replace(/'/g, "''")}'`);
  const dayStart = (day: string) => sql`(${day}::date)::timestamp at time zone ${tz}`;
  const adjMonth = sql<string>`to_char(${adjustments.appliedAt} at time zone ${zone}, 'YYYY-MM')`;
  const refundMonth = sql<string>`to_char(${refunds.refundedAt} at time zone ${zone}, 'YYYY-MM')`;
  const [adj, ref] = await Promise.all([
    ctx.db
      .select({
        month: adjMonth,
        branchId: adjustments.branchId,
        branchName: branches.name,
        kind: adjustments.kind,
        scheme: adjustments.schemeName,
        reason: adjustments.reason,
        currency: adjustments.currency,
        minor: sql<number>`sum(${adjustments.total})`.mapWith(Number),
        count: sql<number>`count(*)`.mapWith(Number),
      })
      .from(adjustments)
      .leftJoin(branches, eq(branches.id, adjustments.branchId))
      .where(
        and(
          eq(adjustments.status, 'applied'),
          branchCondition(scope, adjustments.branchId),
          input.branchId ? (isUuid(input.branchId) ? eq(adjustments.branchId, input.branchId) : sql`false`) : undefined,
          input.from ? sql`${adjustments.appliedAt} >= ${dayStart(input.from)}` : undefined,
          input.to ? sql`${adjustments.appliedAt} < ${dayStart(input.to)} + interval '1 day'` : undefined,
        ),
      )
      .groupBy(
        adjMonth,
        adjustments.branchId,
        branches.name,
        adjustments.kind,
        adjustments.schemeName,
        adjustments.reason,
        adjustments.currency,
      )
      .orderBy(asc(adjMonth), asc(branches.name), asc(adjustments.kind), asc(adjustments.reason)),
    ctx.db
      .select({
        month: refundMonth,
        branchId: refunds.branchId,
        branchName: refunds.branchName,
        method: refunds.method,
        currency: refunds.currency,
        minor: sql<number>`sum(${refunds.amount})`.mapWith(Number),
        count: sql<number>`count(*)`.mapWith(Number),
      })
      .from(refunds)
      .where(refundWhere(tz, input, branchCondition(scope, refunds.branchId)))
      .groupBy(refundMonth, refunds.branchId, refunds.branchName, refunds.method, refunds.currency)
      .orderBy(asc(refundMonth), asc(refunds.branchName), asc(refunds.method)),
  ]);
  return {
    adjustments: adj.map((a) => ({
      month: a.month,
      branch: a.branchName ? { _id: a.branchId, name: a.branchName } : null,
      kind: a.kind,
      scheme: a.scheme,
      reason: a.reason,
      currency: a.currency,
      amount: fromMinor(a.minor),
      count: a.count,
    })),
    refunds: ref.map((r) => ({
      month: r.month,
      branch: r.branchName ? { _id: r.branchId, name: r.branchName } : null,
      method: r.method,
      currency: r.currency,
      amount: fromMinor(r.minor),
      count: r.count,
    })),
  };
}
