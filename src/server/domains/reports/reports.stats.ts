import { and, asc, count, desc, eq, ne, sql } from 'drizzle-orm';
import type { SystemContext } from '../context';
import { branches, courses, enrollments, treatmentBookings, treatments, users } from '../../db/schema';
import { fromMinor } from '../../../shared/money';
import { branchCondition, branchScopeOf, ownerInScope } from '../branch-scope';
import { toCourseDto } from '../courses/courses.service';
import { toTreatmentDto } from '../treatments/treatments.service';
import type { TCourseStatistics, TTreatmentStatistics, TUserStatistics } from '@shared/schemas/reports.output';

/** "New" means created in the last 30 days (docs/product.md#constants). */
const RECENT_DAYS = 30;
const since = sql.raw(`now() - interval '${RECENT_DAYS} days'`);
const POPULAR_LIMIT = 5;

/** Money aggregates come back in minor units; the API speaks decimals with two places. */
const minorAgg = (expr: ReturnType<typeof sql>) =>
  sql<number | null>`${expr}`.mapWith((v) => (v == null ? null : Number(v)));
const dec = (minor: number | null | undefined) => (minor == null ? 0 : fromMinor(Math.round(minor)));

/**
 * A manager limited to their branch (docs/security.md#branch-scope) counts only that branch's people
 * and what they enrolled in or booked; the course and treatment catalogues are shared by all branches.
 */
export async function userStatistics(ctx: SystemContext): Promise<TUserStatistics> {
  const { db } = ctx;
  const mine = branchCondition(await branchScopeOf(ctx));
  const [totals, roleCounts, branchCounts] = await Promise.all([
    db
      .select({
        totalUsers: count(),
        recentUsers: sql<number>`count(*) filter (where ${users.createdAt} >= ${since})`.mapWith(Number),
      })
      .from(users)
      .where(mine),
    db
      .select({ _id: users.role, count: count() })
      .from(users)
      .where(mine)
      .groupBy(users.role)
      .orderBy(desc(count()), asc(users.role)),
    // Users without a branch are not in any branch's count (the shape names a branch).
    db
      .select({ _id: branches.id, name: branches.name, location: branches.location, count: count() })
      .from(users)
      .innerJoin(branches, eq(branches.id, users.branchId))
      .where(mine)
      .groupBy(branches.id, branches.name, branches.location)
      .orderBy(desc(count()), asc(branches.name)),
  ]);
  return {
    data: {
      totalUsers: totals[0]?.totalUsers ?? 0,
      recentUsers: totals[0]?.recentUsers ?? 0,
      roleCounts,
      branchCounts: branchCounts.map(({ count: n, ...branch }) => ({ branch, count: n })),
    },
  };
}

export async function courseStatistics(ctx: SystemContext): Promise<TCourseStatistics> {
  const { db } = ctx;
  const scope = await branchScopeOf(ctx);
  const enrolCount = sql<number>`count(${enrollments.id})`.mapWith(Number);
  const [totals, categoryCounts, popular] = await Promise.all([
    db
      .select({
        totalCourses: count(),
        recentCourses: sql<number>`count(*) filter (where ${courses.createdAt} >= ${since})`.mapWith(Number),
        avgFee: minorAgg(sql`avg(${courses.totalFee})`),
        minFee: minorAgg(sql`min(${courses.totalFee})`),
        maxFee: minorAgg(sql`max(${courses.totalFee})`),
      })
      .from(courses),
    db
      .select({ _id: courses.category, count: count() })
      .from(courses)
      .groupBy(courses.category)
      .orderBy(desc(count()), asc(courses.category)),
    db
      .select({ course: courses, enrollmentCount: enrolCount })
      .from(courses)
      .innerJoin(enrollments, and(eq(enrollments.courseId, courses.id), ownerInScope(scope, enrollments.userId)))
      .groupBy(courses.id)
      .orderBy(desc(enrolCount), asc(courses.courseName))
      .limit(POPULAR_LIMIT),
  ]);
  const t = totals[0];
  return {
    data: {
      totalCourses: t?.totalCourses ?? 0,
      recentCourses: t?.recentCourses ?? 0,
      categoryCounts,
      feeStats: { avgFee: dec(t?.avgFee), minFee: dec(t?.minFee), maxFee: dec(t?.maxFee) },
      popularCourses: popular.map((p) => ({ course: toCourseDto(p.course), enrollmentCount: p.enrollmentCount })),
    },
  };
}

export async function treatmentStatistics(ctx: SystemContext): Promise<TTreatmentStatistics> {
  const { db } = ctx;
  const scope = await branchScopeOf(ctx);
  const bookingCount = sql<number>`count(${treatmentBookings.id})`.mapWith(Number);
  const [totals, categoryCounts, popular] = await Promise.all([
    db
      .select({
        totalTreatments: count(),
        recentTreatments: sql<number>`count(*) filter (where ${treatments.createdAt} >= ${since})`.mapWith(Number),
        avgLocalPrice: minorAgg(sql`avg(${treatments.localPrice})`),
        minLocalPrice: minorAgg(sql`min(${treatments.localPrice})`),
        maxLocalPrice: minorAgg(sql`max(${treatments.localPrice})`),
        avgForeignPrice: minorAgg(sql`avg(${treatments.foreignPrice})`),
        minForeignPrice: minorAgg(sql`min(${treatments.foreignPrice})`),
        maxForeignPrice: minorAgg(sql`max(${treatments.foreignPrice})`),
      })
      .from(treatments),
    db
      .select({ _id: treatments.category, count: count() })
      .from(treatments)
      .groupBy(treatments.category)
      .orderBy(desc(count()), asc(treatments.category)),
    // Cancelled bookings do not make a treatment popular.
    db
      .select({ treatment: treatments, bookingCount })
      .from(treatments)
      .innerJoin(
        treatmentBookings,
        and(
          eq(treatmentBookings.treatmentId, treatments.id),
          ne(treatmentBookings.status, 'cancelled'),
          ownerInScope(scope, treatmentBookings.userId),
        ),
      )
      .groupBy(treatments.id)
      .orderBy(desc(bookingCount), asc(treatments.treatmentName))
      .limit(POPULAR_LIMIT),
  ]);
  const t = totals[0];
  return {
    data: {
      totalTreatments: t?.totalTreatments ?? 0,
      recentTreatments: t?.recentTreatments ?? 0,
      categoryCounts,
      localPriceStats: {
        avgLocalPrice: dec(t?.avgLocalPrice),
        minLocalPrice: dec(t?.minLocalPrice),
        maxLocalPrice: dec(t?.maxLocalPrice),
      },
      foreignPriceStats: {
        avgForeignPrice: dec(t?.avgForeignPrice),
        minForeignPrice: dec(t?.minForeignPrice),
        maxForeignPrice: dec(t?.maxForeignPrice),
      },
      popularTreatments: popular.map((p) => ({ treatment: toTreatmentDto(p.treatment), bookingCount: p.bookingCount })),
    },
  };
}
