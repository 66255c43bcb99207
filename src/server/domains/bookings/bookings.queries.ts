import { and, asc, count, desc, eq, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { preparedOn } from '../../db/prepared';
import { firstRow } from '../../db/rows';
import { treatmentBookings, treatments, users } from '../../db/schema';
import type { Page } from '../../../shared/pagination';
import { AppError } from '../../errors';
import { assertId, containsPattern, ilikeContains, isUuid } from '../common';
import {
  afterCondition,
  countShape,
  keysetList,
  listShape,
  pageLimit,
  sortValueIn,
  totalKey,
  type ListShape,
} from '../keyset';
import { reusedPage } from '../read-cache';
import { assertUserInScope, branchCondition, branchScopeOf, preparedBranchCondition } from '../branch-scope';
import { type TBookingFilters, type TListBookingsInput } from '@shared/schemas/bookings';

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

/** Which of the screen's filters a request sets: with the order and scope, what decides the SQL. */
interface FilterShape {
  userId: boolean;
  /** The count tests "overdue" and any other status differently (paymentStatusIsSql). */
  paymentStatus: 'overdue' | 'other' | null;
  userType: boolean;
  status: boolean;
  search: boolean;
}

type Filters = TBookingFilters & { search?: string; userId?: string };

const P = sql.placeholder;

function filterShape(f: Filters): FilterShape {
  return {
    userId: !!f.userId,
    paymentStatus: f.paymentStatus ? (f.paymentStatus === 'overdue' ? 'overdue' : 'other') : null,
    userType: !!f.userType,
    status: !!f.status,
    search: !!f.search,
  };
}

/** The placeholders' values (a search travels as its ILIKE pattern). */
function filterValues(todayIso: string, f: Filters) {
  return {
    today: todayIso,
    userId: f.userId,
    paymentStatus: f.paymentStatus,
    userType: f.userType,
    status: f.status,
    search: f.search ? containsPattern(f.search) : undefined,
  };
}

/**
 * The screen's filters as one condition, its values as placeholders (`filterValues`), so a page
 * is built once per shape (db/prepared.ts). `sargable` says how the payment status is tested (see
 * paymentStatusIsSql): through the stored column's index (counts, capped lists; the default) or by
 * the case expression (a page, which stops after its rows).
 */
function filterWhere(f: FilterShape, { sargable = true }: { sargable?: boolean } = {}): SQL | undefined {
  // Same meaning as coalesce(live value, kept copy) ILIKE text, written so the users trigram index
  // finds the matching customers first (the foreign keys null the id when the row goes).
  const customerEmail = or(
    sql`${treatmentBookings.userId} in (select ${users.id} from ${users} where ${ilikeContains(users.email, P('search'))})`,
    and(sql`${treatmentBookings.userId} is null`, ilikeContains(treatmentBookings.deletedEmail, P('search'))),
  );
  const treatmentName = or(
    sql`${treatmentBookings.treatmentId} in (select ${treatments.id} from ${treatments} where ${ilikeContains(treatments.treatmentName, P('search'))})`,
    and(sql`${treatmentBookings.treatmentId} is null`, ilikeContains(treatmentBookings.treatmentName, P('search'))),
  );
  return and(
    f.userId ? eq(treatmentBookings.userId, P('userId')) : undefined,
    f.paymentStatus
      ? paymentStatusIsSql(P('today'), P('paymentStatus'), sargable, f.paymentStatus === 'overdue')
      : undefined,
    f.userType ? eq(treatmentBookings.userType, P('userType')) : undefined,
    f.status ? eq(treatmentBookings.status, P('status')) : undefined,
    f.search ? or(customerEmail, treatmentName) : undefined,
  );
}

/**
 * What each sortable column of the bookings screen sorts by: what the row shows (the customer's
 * e-mail, or the kept one of a deleted user; the treatment's live name, or the kept one).
 */
const SORT: Record<TListBookingsInput['sortBy'], SQL | AnyColumn> = {
  customer: sql`coalesce(${users.email}, ${treatmentBookings.deletedEmail})`,
  treatmentName: sql`coalesce(${treatments.treatmentName}, ${treatmentBookings.treatmentName})`,
  paymentStatus: effectivePaymentStatusSql(P('today')),
  paymentType: treatmentBookings.paymentType,
  bookedOn: treatmentBookings.bookedOn,
  createdAt: treatmentBookings.createdAt,
};

interface BookingsShape extends ListShape<TListBookingsInput['sortBy']>, FilterShape {}

/** Only the default order, by the plain creation time, reads past a cursor; the other columns are
 * computed or kept copies (customer, status) and page by number. */
const KEYSET = {
  sortKey: treatmentBookings.createdAt,
  plainColumn: true,
  id: treatmentBookings.id,
  idDir: 'asc' as const,
};

const bookingsPage = (db: Db, s: BookingsShape) =>
  preparedOn(db, `bookings.list ${JSON.stringify(s)}`, (d) => {
    const order = s.sortDir === 'asc' ? asc(SORT[s.sortBy]) : desc(SORT[s.sortBy]);
    const after = s.after
      ? afterCondition({ ...KEYSET, sortDir: s.sortDir }, P('afterValue'), P('afterId'))
      : undefined;
    return selectBookings(d, P('today'))
      .where(and(preparedBranchCondition(s.scope), filterWhere(s, { sargable: false }), after))
      .orderBy(order, asc(treatmentBookings.id))
      .limit(pageLimit(s.limit))
      .offset(s.offset ? P('offset') : 0)
      .prepare('bookings_list');
  });

const bookingsCount = (db: Db, s: BookingsShape) =>
  preparedOn(db, `bookings.count ${JSON.stringify(countShape(s))}`, (d) =>
    d
      .select({ n: count() })
      .from(treatmentBookings)
      .leftJoin(users, eq(users.id, treatmentBookings.userId))
      .leftJoin(treatments, eq(treatments.id, treatmentBookings.treatmentId))
      .where(and(preparedBranchCondition(s.scope), filterWhere(s)))
      .prepare('bookings_count'),
  );

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
  const scope = await branchScopeOf(ctx);
  const shape: BookingsShape = { ...listShape(input, scope), ...filterShape(input) };
  const values = { ...filterValues(t, input), scopeBranchId: scope?.branchId };
  return keysetList(ctx, input, {
    keyset:
      input.sortBy === 'createdAt'
        ? { ...KEYSET, sortValueOf: sortValueIn(treatmentBookings, treatmentBookings.createdAt, treatmentBookings.id) }
        : null,
    totalKey: totalKey(`bookings ${t}`, ctx.actor?.id ?? '', input),
    rows: (start) =>
      bookingsPage(ctx.db, { ...shape, after: !!start.cursor, offset: start.offset > 0 }).execute({
        ...values,
        afterValue: start.cursor?.value,
        afterId: start.cursor?.id,
        offset: start.offset,
      }),
    count: async () => (await bookingsCount(ctx.db, shape).execute(values))[0]?.n ?? 0,
    cursorRow: (r) => r.booking,
    items: (rows) => toBookingDtos(rows, t),
  });
}

/** GET /api/bookings/bookings answers a bare array (docs/architecture.md); capped so it cannot grow without bound. */
export async function listAllBookings(ctx: Ctx, filters: TBookingFilters): Promise<BookingDto[]> {
  const t = today(ctx);
  const rows = await selectBookings(ctx.db, P('today'))
    .where(and(branchCondition(await branchScopeOf(ctx)), filterWhere(filterShape(filters))))
    .orderBy(desc(treatmentBookings.createdAt), asc(treatmentBookings.id))
    .limit(5000)
    .execute(filterValues(t, filters));
  return toBookingDtos(rows, t);
}

export async function listUserBookings(ctx: Ctx, userId: string): Promise<BookingDto[]> {
  assertId(userId, 'User');
  const [u] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.id, userId)).limit(1);
  if (!u) throw new AppError('NOT_FOUND', 'User not found.');
  await assertUserInScope(ctx, userId, 'User not found.');
  const t = today(ctx);
  const rows = await selectBookings(ctx.db, P('today'))
    .where(filterWhere(filterShape({ userId })))
    .orderBy(desc(treatmentBookings.createdAt), asc(treatmentBookings.id))
    .limit(5000)
    .execute(filterValues(t, { userId }));
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
