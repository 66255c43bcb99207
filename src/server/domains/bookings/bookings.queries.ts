import { and, asc, count, desc, eq, or, sql, type AnyColumn, type Placeholder, type SQL } from 'drizzle-orm';
import { firstRow } from '../../db/rows';
import { treatmentBookings, treatments, users } from '../../db/schema';
import type { Page } from '../../../shared/pagination';
import { AppError } from '../../errors';
import { assertId, isUuid } from '../ids';
import { ilikeContains } from '../sql-conditions';
import { keysetList, pageRows, sortValueIn, totalKey } from '../keyset';
import { reusedPage } from '../read-cache';
import { assertUserInScope, branchCondition, branchScopeOf } from '../branch-scope';
import { type TBookingFilters, type TListBookingsInput } from '@shared/schemas/bookings';
import { ofPeopleMatching } from '../person-search';

import {
  BOOKING_NOT_FOUND,
  effectivePaymentStatusSql,
  inScope,
  paymentStatusIsSql,
  selectBookings,
  today,
  toBookingDto,
  toBookingDtos,
  type BookingDto,
  type Ctx,
} from './bookings.dto';

export async function getBooking(ctx: Ctx, id: string): Promise<BookingDto> {
  assertId(id, 'Booking');
  await inScope(ctx, id);
  const t = today(ctx);
  const rows = await selectBookings(ctx.db, t).where(eq(treatmentBookings.id, id)).limit(1);
  if (!rows.length) throw new AppError('NOT_FOUND', BOOKING_NOT_FOUND);
  return toBookingDto(firstRow(rows), t);
}

/** The filters; their values may be placeholders in a statement built once (db/prepared.ts). */
type Filters = { [K in keyof TBookingFilters]?: TBookingFilters[K] | Placeholder } & {
  search?: string;
  userId?: string | Placeholder;
};

/**
 * The screen's filters as one condition. `sargable` says how the payment status is tested (see
 * paymentStatusIsSql): through the stored column's index (counts, capped lists; the default) or by
 * the case expression (a page, which stops after its rows).
 */
function filterWhere(
  todayIso: string | Placeholder,
  f: Filters,
  { sargable = true }: { sargable?: boolean } = {},
): SQL | undefined {
  // Same meaning as coalesce(live value, kept copy) ILIKE text, written so the users trigram index
  // finds the matching customers first (the foreign keys null the id when the row goes).
  const customerEmail = (text: string) =>
    or(
      sql`${treatmentBookings.userId} in (select ${users.id} from ${users} where ${ilikeContains(users.email, text)})`,
      and(sql`${treatmentBookings.userId} is null`, ilikeContains(treatmentBookings.deletedEmail, text)),
    );
  const treatmentName = (text: string) =>
    or(
      sql`${treatmentBookings.treatmentId} in (select ${treatments.id} from ${treatments} where ${ilikeContains(treatments.treatmentName, text)})`,
      and(sql`${treatmentBookings.treatmentId} is null`, ilikeContains(treatmentBookings.treatmentName, text)),
    );
  return and(
    f.userId ? eq(treatmentBookings.userId, f.userId) : undefined,
    f.paymentStatus ? paymentStatusIsSql(todayIso, f.paymentStatus, sargable) : undefined,
    f.userType ? eq(treatmentBookings.userType, f.userType) : undefined,
    f.status ? eq(treatmentBookings.status, f.status) : undefined,
    f.search
      ? or(customerEmail(f.search), treatmentName(f.search), ofPeopleMatching(treatmentBookings.userId, f.search))
      : undefined,
  );
}

/**
 * What each sortable column of the bookings screen sorts by: what the row shows (the customer's
 * e-mail, or the kept one of a deleted user; the treatment's live name, or the kept one).
 */
function sortKey(sortBy: TListBookingsInput['sortBy'], todayIso: string | Placeholder): SQL | AnyColumn {
  switch (sortBy) {
    case 'customer':
      return sql`coalesce(${users.email}, ${treatmentBookings.deletedEmail})`;
    case 'treatmentName':
      return sql`coalesce(${treatments.treatmentName}, ${treatmentBookings.treatmentName})`;
    case 'paymentStatus':
      return effectivePaymentStatusSql(todayIso);
    case 'paymentType':
      return treatmentBookings.paymentType;
    case 'bookedOn':
      return treatmentBookings.bookedOn;
    case 'createdAt':
      return treatmentBookings.createdAt;
  }
}

/** Only the default order, by the plain creation time, reads past a cursor; the other columns are
 * computed or kept copies (customer, status) and page by number. */
const KEYSET = {
  sortKey: treatmentBookings.createdAt,
  plainColumn: true,
  id: treatmentBookings.id,
  idDir: 'asc' as const,
  sortValueOf: sortValueIn(treatmentBookings, treatmentBookings.createdAt, treatmentBookings.id),
};

/**
 * The bookings screen: paged, searched (customer email or treatment name) and filtered on the
 * server. In the embedded mode the same caller's same page is reused until the data changes,
 * looked for before any of its work is done (docs/performance.md#embedded-reuse).
 */
export function listBookings(ctx: Ctx, input: TListBookingsInput): Promise<Page<BookingDto>> {
  return reusedPage(ctx.deps, { list: 'bookings', callerId: ctx.actor?.id ?? '', input }, () =>
    bookingsListPage(ctx, input),
  );
}

async function bookingsListPage(ctx: Ctx, input: TListBookingsInput): Promise<Page<BookingDto>> {
  // Not an id matches no booking (never a database error on a malformed uuid).
  if (input.userId && !isUuid(input.userId)) return { items: [], total: 0, page: input.page, pageSize: input.pageSize };
  const t = today(ctx);
  const branchScope = await branchScopeOf(ctx);
  const scope = branchCondition(branchScope);
  const order = (day: string | Placeholder) => {
    const key = sortKey(input.sortBy, day);
    return [input.sortDir === 'asc' ? asc(key) : desc(key), asc(treatmentBookings.id)];
  };
  return keysetList(ctx, input, {
    keyset: input.sortBy === 'createdAt' ? KEYSET : null,
    totalKey: totalKey(`bookings ${t}`, ctx.actor?.id ?? '', input),
    rows: (start) =>
      pageRows(ctx.db, start, {
        statement: input.search ? null : `bookings ${input.sortBy} ${input.sortDir}`,
        pageSize: input.pageSize,
        order: order(t),
        preparedOrder: (p) => order(p.today),
        plain: (after) =>
          selectBookings(ctx.db, t)
            .where(and(scope, filterWhere(t, input, { sargable: false }), after))
            .$dynamic(),
        prepared: (d, p) =>
          selectBookings(d, p.today)
            .where(
              and(
                branchCondition(branchScope && { branchId: p.scope ?? null }),
                filterWhere(p.today, p, { sargable: false }),
              ),
            )
            .$dynamic(),
        values: {
          today: t,
          paymentStatus: input.paymentStatus,
          userType: input.userType,
          status: input.status,
          userId: input.userId,
          scope: branchScope?.branchId,
        },
      }),
    count: async () =>
      (
        await ctx.db
          .select({ n: count() })
          .from(treatmentBookings)
          .leftJoin(users, eq(users.id, treatmentBookings.userId))
          .leftJoin(treatments, eq(treatments.id, treatmentBookings.treatmentId))
          .where(and(scope, filterWhere(t, input)))
      )[0]?.n ?? 0,
    cursorRow: (r) => r.booking,
    items: (rows) => toBookingDtos(rows, t),
  });
}

/** GET /api/bookings/bookings answers a bare array (docs/architecture.md); capped so it cannot grow without bound. */
export async function listAllBookings(ctx: Ctx, filters: TBookingFilters): Promise<BookingDto[]> {
  const t = today(ctx);
  const rows = await selectBookings(ctx.db, t)
    .where(and(branchCondition(await branchScopeOf(ctx)), filterWhere(t, filters)))
    .orderBy(desc(treatmentBookings.createdAt), asc(treatmentBookings.id))
    .limit(5000);
  return toBookingDtos(rows, t);
}

export async function listUserBookings(ctx: Ctx, userId: string): Promise<BookingDto[]> {
  assertId(userId, 'User');
  const [u] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.id, userId)).limit(1);
  if (!u) throw new AppError('NOT_FOUND', 'User not found.');
  await assertUserInScope(ctx, userId, 'User not found.');
  const t = today(ctx);
  const rows = await selectBookings(ctx.db, t)
    .where(filterWhere(t, { userId }))
    .orderBy(desc(treatmentBookings.createdAt), asc(treatmentBookings.id))
    .limit(5000);
  return toBookingDtos(rows, t);
}

/** docs/treatments.md: progress/{userId}/{treatmentId} addresses the newest booking of that pair. */
export async function newestBookingId(ctx: Ctx, userId: string, treatmentId: string): Promise<string> {
  if (!isUuid(userId) || !isUuid(treatmentId)) throw new AppError('NOT_FOUND', BOOKING_NOT_FOUND);
  const [row] = await ctx.db
    .select({ id: treatmentBookings.id })
    .from(treatmentBookings)
    .where(and(eq(treatmentBookings.userId, userId), eq(treatmentBookings.treatmentId, treatmentId)))
    .orderBy(desc(treatmentBookings.createdAt), desc(treatmentBookings.id))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', BOOKING_NOT_FOUND);
  return row.id;
}

export async function getProgress(ctx: Ctx, userId: string, treatmentId: string): Promise<BookingDto> {
  return getBooking(ctx, await newestBookingId(ctx, userId, treatmentId));
}
