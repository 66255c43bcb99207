import { and, asc, count, desc, eq, inArray, lt, or, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { personMatches } from '../person-search';
import type { Db } from '../../db/client';
import { courses, enrollmentInstallments, enrollments, users } from '../../db/schema';
import { branchCondition, branchScopeOf, ownerInScope } from '../branch-scope';
import type { Page } from '../../../shared/pagination';
import { assertId, isUuid } from '../ids';
import { offsetOf } from '../paging';
import { ilikeContains } from '../sql-conditions';
import { keysetList, pageRows, totalKey } from '../keyset';
import { toInstallmentDto } from '../installments';
import { getCurrencySettings } from '../settings/settings.service';
import { reusedPage, reusedRead } from '../read-cache';
import type { TListEnrollmentsInput, TOverdueInput } from '@shared/schemas/enrollments';
import type { TOverdueInstallment } from '@shared/schemas/enrollments.output';

import {
  inScope,
  loadEnrollment,
  selectEnrollments,
  today,
  toEnrollmentDtos,
  type Ctx,
  type EnrollmentDto,
} from './enrollments.dto';

const SORT = {
  createdAt: enrollments.createdAt,
  totalFee: enrollments.totalFee,
  courseName: sql`coalesce(${courses.courseName}, ${enrollments.deletedCourseName})`,
  username: sql`coalesce(${users.username}, ${enrollments.deletedUsername})`,
};

// ---------------------------------------------------------------------------------------------
// Reads

/** Up to this many matching users are passed as a literal list; more fall back to a subquery. */
const SEARCH_ID_LIMIT = 500;

/**
 * Search matches users and courses by id, found first: every arm of the OR is then an index
 * condition (trigram indexes on users and on the kept names), which an OR over the joined rows
 * cannot be. A literal list also tells the planner how few rows match, so a rare term reads a few
 * index entries instead of walking the whole newest-first index (docs/scale.md).
 */
async function searchIdConditions(db: Db, s: string): Promise<SQL[]> {
  const userMatch = or(ilikeContains(users.email, s), ilikeContains(users.username, s), personMatches(users, s));
  const [userRows, courseRows] = await Promise.all([
    db
      .select({ id: users.id })
      .from(users)
      .where(userMatch)
      .limit(SEARCH_ID_LIMIT + 1),
    db.select({ id: courses.id }).from(courses).where(ilikeContains(courses.courseName, s)),
  ]);
  const byUser =
    userRows.length > SEARCH_ID_LIMIT
      ? sql`${enrollments.userId} = any(array(select ${users.id} from ${users} where ${userMatch}))`
      : inArray(
          enrollments.userId,
          userRows.map((r) => r.id),
        );
  return [
    byUser,
    inArray(
      enrollments.courseId,
      courseRows.map((r) => r.id),
    ),
  ];
}

/** The page's and the count's filters (both joined to users and courses, as the search is). */
function enrollmentsWhere(
  input: { [K in 'displayStatus' | 'courseId' | 'userId']?: TListEnrollmentsInput[K] | Placeholder },
  scope: { branchId: string | Placeholder | null } | null,
  search: SQL | undefined,
): SQL | undefined {
  return and(
    branchCondition(scope),
    search,
    // A column kept by triggers (docs/performance.md#stored-display-status): an index condition.
    input.displayStatus ? eq(enrollments.displayStatus, input.displayStatus) : undefined,
    input.courseId ? eq(enrollments.courseId, input.courseId) : undefined,
    input.userId ? eq(enrollments.userId, input.userId) : undefined,
  );
}

/**
 * The enrollments screen's page. In the embedded mode the same caller's same page is reused until the data
 * changes, looked for before any of its work is done (docs/performance.md#embedded-reuse).
 */
export function listEnrollments(ctx: Ctx, input: TListEnrollmentsInput): Promise<Page<EnrollmentDto>> {
  return reusedPage(ctx.deps, { list: 'enrollments', callerId: ctx.actor?.id ?? '', input }, () =>
    enrollmentsPage(ctx, input),
  );
}

async function enrollmentsPage(ctx: Ctx, input: TListEnrollmentsInput): Promise<Page<EnrollmentDto>> {
  const empty = { items: [], total: 0, page: input.page, pageSize: input.pageSize };
  if ((input.courseId && !isUuid(input.courseId)) || (input.userId && !isUuid(input.userId))) return empty;
  const s = input.search;
  const { db } = ctx;
  const scope = await branchScopeOf(ctx);
  const search = s
    ? or(
        ...(await searchIdConditions(db, s)),
        ilikeContains(enrollments.deletedEmail, s),
        ilikeContains(enrollments.deletedUsername, s),
        ilikeContains(enrollments.deletedCourseName, s),
      )
    : undefined;
  const where = enrollmentsWhere(input, scope, search);
  const sortKey = SORT[input.sortBy];
  const order = [input.sortDir === 'asc' ? asc(sortKey) : desc(sortKey), asc(enrollments.id)];
  return keysetList(ctx, input, {
    keyset: {
      sortKey,
      plainColumn: input.sortBy === 'createdAt' || input.sortBy === 'totalFee',
      id: enrollments.id,
      idDir: 'asc',
      sortValueOf: async (d, id) =>
        (
          await d
            .select({ v: sql<string | null>`${sortKey}::text` })
            .from(enrollments)
            .leftJoin(users, eq(users.id, enrollments.userId))
            .leftJoin(courses, eq(courses.id, enrollments.courseId))
            .where(eq(enrollments.id, id))
        )[0]?.v,
    },
    totalKey: totalKey('enrollments', ctx.actor?.id ?? '', input),
    rows: (start) =>
      pageRows(db, start, {
        statement: s ? null : `enrollments ${input.sortBy} ${input.sortDir}`,
        pageSize: input.pageSize,
        order,
        plain: (after) => selectEnrollments(db).where(and(where, after)).$dynamic(),
        prepared: (d, p) =>
          selectEnrollments(d)
            .where(enrollmentsWhere(p, scope && { branchId: p.scope ?? null }, undefined))
            .$dynamic(),
        values: {
          displayStatus: input.displayStatus,
          courseId: input.courseId,
          userId: input.userId,
          scope: scope?.branchId,
        },
      }),
    count: async () =>
      (
        await db
          .select({ n: count() })
          .from(enrollments)
          .leftJoin(users, eq(users.id, enrollments.userId))
          .leftJoin(courses, eq(courses.id, enrollments.courseId))
          .where(where)
      )[0]?.n ?? 0,
    cursorRow: (r) => r.e,
    items: (rows) => toEnrollmentDtos(rows, today(ctx)),
  });
}

/** REST lists (newest first); `where` picks all, one student's or one course's enrolments. */
export async function listEnrollmentsWhere(
  ctx: Ctx,
  filter: { userId?: string; courseId?: string },
  page = 1,
  limit = 1000,
): Promise<EnrollmentDto[]> {
  if (filter.userId !== undefined) assertId(filter.userId, 'User');
  if (filter.courseId !== undefined) assertId(filter.courseId, 'Course');
  const where = and(
    branchCondition(await branchScopeOf(ctx)),
    filter.userId ? eq(enrollments.userId, filter.userId) : undefined,
    filter.courseId ? eq(enrollments.courseId, filter.courseId) : undefined,
  );
  const rows = await selectEnrollments(ctx.db)
    .where(where)
    .orderBy(desc(enrollments.createdAt), asc(enrollments.id))
    .limit(limit)
    .offset(offsetOf(page, limit));
  return toEnrollmentDtos(rows, today(ctx));
}

export async function getEnrollment(ctx: Ctx, id: string): Promise<EnrollmentDto> {
  assertId(id, 'Enrollment');
  await inScope(ctx, id);
  return loadEnrollment(ctx, id);
}

/** Unpaid installments due before today, oldest first, with who owes them. */
export async function listOverdueInstallments(ctx: Ctx, input: TOverdueInput): Promise<TOverdueInstallment[]> {
  const todayIso = today(ctx);
  const rows = await ctx.db
    .select({
      inst: enrollmentInstallments,
      enrollmentId: enrollments.id,
      deletedUsername: enrollments.deletedUsername,
      deletedEmail: enrollments.deletedEmail,
      deletedCourseName: enrollments.deletedCourseName,
      user: { id: users.id, username: users.username, email: users.email, fullName: users.fullName },
      course: { id: courses.id, courseName: courses.courseName },
    })
    .from(enrollmentInstallments)
    .innerJoin(enrollments, eq(enrollments.id, enrollmentInstallments.enrollmentId))
    .leftJoin(users, eq(users.id, enrollments.userId))
    .leftJoin(courses, eq(courses.id, enrollments.courseId))
    .where(
      and(
        eq(enrollmentInstallments.isPaid, false),
        lt(enrollmentInstallments.dueDate, todayIso),
        branchCondition(await branchScopeOf(ctx)),
      ),
    )
    .orderBy(asc(enrollmentInstallments.dueDate), asc(enrollmentInstallments.id))
    .limit(input.limit);
  // Typed as the contract: a field missing on either side fails the build.
  return rows.map((r): TOverdueInstallment => ({
    ...toInstallmentDto(r.inst, todayIso),
    installmentNumber: r.inst.seq + 1,
    enrollmentId: r.enrollmentId,
    userId: r.user?.id
      ? { _id: r.user.id, username: r.user.username, email: r.user.email, fullName: r.user.fullName }
      : null,
    courseId: r.course?.id ? { _id: r.course.id, courseName: r.course.courseName } : null,
    deletedUsername: r.deletedUsername,
    deletedEmail: r.deletedEmail,
    deletedCourseName: r.deletedCourseName,
  }));
}

/**
 * The All Enrollments cards: three counts in one SQL round trip (both enrolment counts in one pass
 * over enrollments; the overdue count reads only the partial unpaid-by-due-date index), within the
 * caller's scope. Reused per scope and day like the money dashboard (docs/courses.md#statistics):
 * the counts still read the whole table, and every desk that opens the screen asks for them.
 */
export async function enrollmentStatistics(ctx: Ctx) {
  const todayIso = today(ctx);
  const scope = await branchScopeOf(ctx);
  const key = `enrollment-statistics ${todayIso} ${scope ? (scope.branchId ?? 'no branch') : 'all'}`;
  return reusedRead(ctx.deps, key, async () => {
    const mine = ownerInScope(scope, enrollments.userId);
    const overdue = mine
      ? sql`(select count(*) from ${enrollmentInstallments} inner join ${enrollments} on ${enrollments.id} = ${enrollmentInstallments.enrollmentId} where ${enrollmentInstallments.isPaid} = false and ${enrollmentInstallments.dueDate} < ${todayIso} and ${mine})`
      : sql`(select count(*) from ${enrollmentInstallments} where ${enrollmentInstallments.isPaid} = false and ${enrollmentInstallments.dueDate} < ${todayIso})`;
    const [row] = await ctx.db
      .select({
        totalEnrollments: sql<number>`count(*)`.mapWith(Number),
        completedEnrollments: sql<number>`count(*) filter (where ${enrollments.status} = 'completed')`.mapWith(Number),
        overdueInstallments: sql<number>`${overdue}`.mapWith(Number),
      })
      .from(enrollments)
      .where(mine);
    return {
      totalEnrollments: row?.totalEnrollments ?? 0,
      completedEnrollments: row?.completedEnrollments ?? 0,
      overdueInstallments: row?.overdueInstallments ?? 0,
    };
  });
}

export async function currencySettings(ctx: Ctx) {
  return getCurrencySettings(ctx.db);
}
