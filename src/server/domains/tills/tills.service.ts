/**
 * Tills (docs/payments.md#tills): a cashier opens one at a branch with a float, the cash payments
 * they record there go into it, and they close it with what they counted. Once every till opened
 * at a branch on a day is closed, that day is locked there.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { firstRow } from '../../db/rows';
import { branches, payments, settings, tillAmounts, tillPayments, tills } from '../../db/schema';
import type { Actor } from '../../auth/sessions';
import { AppError, isUniqueViolation } from '../../errors';
import { formatDay, formatMoney } from '../../../shared/format';
import { fromMinor, toMinor } from '../../../shared/money';
import { todayIn } from '../../../shared/calendar';
import { isAdmin } from '../../../shared/roles';
import type { PaymentMethod } from '../../../shared/payment-kinds';
import {
  TILL_MESSAGES,
  type TCloseTillInput,
  type TOpenTillInput,
  type TTill,
  type TTillSettingsInput,
} from '@shared/schemas/tills';
import { branchScopeOf } from '../branch-scope';
import type { ServiceContext, SystemContext } from '../context';
import { assertId } from '../ids';
import { cashRefunded, cashTaken, expectedOf, tillScope, toTillDtos } from './tills.read';
import { recordAudit } from '../audit/audit.service';
import { invalidateReads } from '../read-cache';

export const DAY_CLOSED = (day: string) =>
  `${formatDay(day)} is closed at this branch: every till opened there that day has been closed. A payment cannot be recorded into it.`;
export const VOID_CLOSED_DAY = 'Only admins can void a payment of a day whose tills are closed.';
export const OTHER_BRANCH_TILL = 'You can only open a till at your own branch.';

/**
 * One lock per branch and day (a transaction-level advisory lock): taking a payment into the day
 * holds it shared, closing a till of the day holds it exclusively. So a close never counts the
 * day as locked while a payment into it is still being written, and a payment never slips into a
 * day whose last till closed after the payment looked.
 */
const lockDay = (tx: Db, branchId: string, day: string, mode: 'shared' | 'exclusive') =>
  tx.execute(
    mode === 'shared'
      ? sql`select pg_advisory_xact_lock_shared(hashtextextended(${`till-day:${branchId}:${day}`}, 0))`
      : sql`select pg_advisory_xact_lock(hashtextextended(${`till-day:${branchId}:${day}`}, 0))`,
  );

async function getTillById(ctx: ServiceContext, id: string): Promise<TTill> {
  const [row] = await ctx.db
    .select()
    .from(tills)
    .where(and(eq(tills.id, id), await tillScope(ctx)))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', TILL_MESSAGES.notFound);
  const [dto] = await toTillDtos(ctx.db, [row]);
  if (!dto) throw new AppError('NOT_FOUND', TILL_MESSAGES.notFound);
  return dto;
}

export async function getTill(ctx: ServiceContext, id: string): Promise<TTill> {
  assertId(id, 'Till');
  return getTillById(ctx, id);
}

/** Any staff member opens a till at a branch, with an opening float per currency. */
export async function openTill(ctx: ServiceContext, input: TOpenTillInput): Promise<TTill> {
  assertId(input.branchId, 'Branch');
  const scope = await branchScopeOf(ctx);
  if (scope && scope.branchId !== input.branchId) throw new AppError('FORBIDDEN', OTHER_BRANCH_TILL);
  const [branch] = await ctx.db
    .select({ name: branches.name })
    .from(branches)
    .where(eq(branches.id, input.branchId))
    .limit(1);
  if (!branch) throw new AppError('NOT_FOUND', TILL_MESSAGES.branchNotFound);
  const now = new Date();
  let id: string;
  try {
    id = await ctx.db.transaction(async (tx) => {
      const row = firstRow(
        await tx
          .insert(tills)
          .values({
            branchId: input.branchId,
            branchName: branch.name,
            cashierId: ctx.actor.id,
            cashierName: ctx.actor.username,
            openedAt: now,
            openingDay: todayIn(ctx.deps.config.TIME_ZONE, now),
          })
          .returning({ id: tills.id }),
      );
      if (input.openingFloat.length) {
        await tx
          .insert(tillAmounts)
          .values(
            input.openingFloat.map((f) => ({ tillId: row.id, currency: f.currency, opening: toMinor(f.amount) })),
          );
      }
      const float = input.openingFloat.map((f) => formatMoney(f.amount, f.currency)).join(', ') || 'no float';
      await recordAudit(tx, ctx, {
        action: 'open',
        entityType: 'till',
        entityId: row.id,
        summary: `Opened a till at ${branch.name} with ${float}`,
        changes: [
          { field: 'status', before: null, after: 'open' },
          { field: 'openingFloat', before: null, after: input.openingFloat.map((f) => ({ ...f })) },
        ],
      });
      return row.id;
    });
  } catch (err) {
    // The partial unique index (one open till per cashier and branch) decides a race of two opens.
    if (isUniqueViolation(err)) throw new AppError('CONFLICT', TILL_MESSAGES.alreadyOpen);
    throw err;
  }
  // Its audit entry is new: a reused audit page (embedded mode) must not hide it.
  invalidateReads(ctx.deps);
  return getTillById(ctx, id);
}

/**
 * The cashier (or an admin) closes a till with the cash counted per currency. Expected is the
 * float plus the valid cash payments that went into it, less the cash refunds paid out of it; a
 * difference needs a note. The figures are stored, so a later void does not change what the close
 * showed.
 */
export async function closeTill(ctx: ServiceContext, input: TCloseTillInput): Promise<TTill> {
  assertId(input.id, 'Till');
  const [peek] = await ctx.db
    .select({ branchId: tills.branchId, openingDay: tills.openingDay })
    .from(tills)
    .where(and(eq(tills.id, input.id), await tillScope(ctx)))
    .limit(1);
  if (!peek) throw new AppError('NOT_FOUND', TILL_MESSAGES.notFound);
  await ctx.db.transaction(async (tx) => {
    // The day's lock before the till's row: the order a payment takes them in, so the two never deadlock.
    if (peek.branchId) await lockDay(tx, peek.branchId, peek.openingDay, 'exclusive');
    // FOR UPDATE waits for the payments still being written into this till (they hold it FOR SHARE).
    const [till] = await tx.select().from(tills).where(eq(tills.id, input.id)).for('update').limit(1);
    if (!till) throw new AppError('NOT_FOUND', TILL_MESSAGES.notFound);
    if (till.status === 'closed') throw new AppError('CONFLICT', TILL_MESSAGES.alreadyClosed);
    if (till.cashierId !== ctx.actor.id && !isAdmin(ctx.actor.role))
      throw new AppError('FORBIDDEN', TILL_MESSAGES.notYours);
    const amounts = await tx.select().from(tillAmounts).where(eq(tillAmounts.tillId, till.id));
    const expected = new Map(expectedOf(amounts, await cashTaken(tx, [till.id]), await cashRefunded(tx, [till.id])));
    const counted = new Map(input.counted.map((c) => [c.currency, toMinor(c.amount)]));
    const currencies = [...new Set([...expected.keys(), ...counted.keys()])].sort();
    const differs = currencies.some((c) => (counted.get(c) ?? 0) !== (expected.get(c) ?? 0));
    if (differs && !input.note) throw new AppError('BAD_REQUEST', TILL_MESSAGES.noteNeeded);
    await tx
      .insert(tillAmounts)
      .values(
        currencies.map((c) => ({
          tillId: till.id,
          currency: c,
          inFloat: amounts.some((a) => a.currency === c && a.inFloat),
          opening: amounts.find((a) => a.currency === c)?.opening ?? 0,
          expected: expected.get(c) ?? 0,
          counted: counted.get(c) ?? 0,
        })),
      )
      .onConflictDoUpdate({
        target: [tillAmounts.tillId, tillAmounts.currency],
        set: { expected: sql`excluded.expected_minor`, counted: sql`excluded.counted_minor` },
      });
    await tx
      .update(tills)
      .set({
        status: 'closed',
        closedAt: new Date(),
        closedById: ctx.actor.id,
        closedByName: ctx.actor.username,
        note: input.note ?? null,
      })
      .where(eq(tills.id, till.id));
    const figures = currencies.map((c) => {
      const diff = (counted.get(c) ?? 0) - (expected.get(c) ?? 0);
      return {
        currency: c,
        expected: fromMinor(expected.get(c) ?? 0),
        counted: fromMinor(counted.get(c) ?? 0),
        difference: fromMinor(diff),
      };
    });
    const shown = figures
      .map(
        (f) =>
          `${formatMoney(f.counted, f.currency)} counted, ${f.difference === 0 ? 'no difference' : `difference ${formatMoney(f.difference, f.currency)}`}`,
      )
      .join('; ');
    await recordAudit(tx, ctx, {
      action: 'close',
      entityType: 'till',
      entityId: till.id,
      summary: `Closed the till of ${till.cashierName} at ${till.branchName}: ${shown || 'nothing counted'}`,
      changes: [
        { field: 'status', before: 'open', after: 'closed' },
        { field: 'amounts', before: null, after: figures },
        ...(input.note ? [{ field: 'note', before: null, after: input.note }] : []),
      ],
    });
  });
  invalidateReads(ctx.deps);
  return getTillById(ctx, input.id);
}

/**
 * Refuses (409) a payment received on a day that is locked at its branch: some till was opened
 * there that day and every one of them is closed. Called inside the paying transaction; holds the
 * day's lock shared until it ends.
 */
export async function assertDayOpen(
  tx: Db,
  branchId: string | null,
  receivedAt: Date,
  timeZone: string,
): Promise<void> {
  if (!branchId) return;
  const day = todayIn(timeZone, receivedAt);
  await lockDay(tx, branchId, day, 'shared');
  if (await isDayLocked(tx, branchId, day)) throw new AppError('CONFLICT', DAY_CLOSED(day));
}

async function isDayLocked(db: Db, branchId: string, day: string): Promise<boolean> {
  const [row] = await db
    .select({
      all: sql<number>`count(*)`.mapWith(Number),
      open: sql<number>`count(*) filter (where ${tills.status} = 'open')`.mapWith(Number),
    })
    .from(tills)
    .where(and(eq(tills.branchId, branchId), eq(tills.openingDay, day)));
  return (row?.all ?? 0) > 0 && row?.open === 0;
}

/** Whether a cash payment needs an open till (a setting, off by default). */
export async function getTillSettings(db: Db): Promise<{ tillRequired: boolean }> {
  const [row] = await db.select({ on: settings.tillRequired }).from(settings).where(eq(settings.id, 1)).limit(1);
  return { tillRequired: row?.on ?? false };
}

export async function updateTillSettings(ctx: SystemContext, input: TTillSettingsInput) {
  await ctx.db
    .insert(settings)
    .values({ id: 1, tillRequired: input.tillRequired })
    .onConflictDoUpdate({ target: settings.id, set: { tillRequired: input.tillRequired } });
  return getTillSettings(ctx.db);
}

/**
 * The till a cash payment goes into: the recording cashier's open till at the payment's branch,
 * held FOR SHARE until the paying transaction ends, so the till cannot close in between. Null for
 * other methods, or when there is none and tills are not required (409 when they are).
 */
export async function tillForCashPayment(
  tx: Db,
  p: { actor: Pick<Actor, 'id'>; branchId: string | null; method: PaymentMethod },
): Promise<string | null> {
  if (p.method !== 'cash') return null;
  const [till] = p.branchId
    ? await tx
        .select({ id: tills.id })
        .from(tills)
        .where(and(eq(tills.cashierId, p.actor.id), eq(tills.branchId, p.branchId), eq(tills.status, 'open')))
        .for('share')
        .limit(1)
    : [];
  if (till) return till.id;
  if ((await getTillSettings(tx)).tillRequired) throw new AppError('CONFLICT', TILL_MESSAGES.required);
  return null;
}

/**
 * The payment path's one call before it writes (payments.service.ts, recordPayment): the day lock,
 * then the till. Answers the till to link once the payment is written (linkTillPayment).
 */
export async function tillAtPayment(
  tx: Db,
  ctx: Pick<ServiceContext, 'actor' | 'deps'>,
  p: { branchId: string | null; method: PaymentMethod; receivedAt: Date },
): Promise<string | null> {
  await assertDayOpen(tx, p.branchId, p.receivedAt, ctx.deps.config.TIME_ZONE);
  return tillForCashPayment(tx, { actor: ctx.actor, branchId: p.branchId, method: p.method });
}

export async function linkTillPayment(tx: Db, tillId: string | null, paymentId: string): Promise<void> {
  if (tillId) await tx.insert(tillPayments).values({ tillId, paymentId });
}

/**
 * The void path's check (payments.service.ts, voidPayment): a payment of a locked day is voided by
 * an admin only. The void itself is dated when it is made, so the closed day's figures stay.
 */
export async function assertVoidAllowed(
  tx: Db,
  ctx: Pick<ServiceContext, 'actor' | 'deps'>,
  p: Pick<typeof payments.$inferSelect, 'branchId' | 'receivedAt'>,
): Promise<void> {
  if (!p.branchId || isAdmin(ctx.actor.role)) return;
  const day = todayIn(ctx.deps.config.TIME_ZONE, p.receivedAt);
  if (await isDayLocked(tx, p.branchId, day)) throw new AppError('FORBIDDEN', VOID_CLOSED_DAY);
}
