import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { BranchScope } from '../branch-scope';
import type { Db } from '../../db/client';
import { courses, enrollmentInstallments, enrollments, refunds, users } from '../../db/schema';
import { COURSE_REPORT_COLUMNS, REPORT_COLUMN_LABELS } from '../../../shared/report-columns';
import { iso } from '../ids';
import type { CurrencySettings } from '../settings/settings.service';
import { tableSource } from './report-batches';
import { catalogueFilterLines, catalogueWhere, recordWhere, type CatalogueFilters } from './report-filters';
import { cellOf, listOrCustom, oneTableList } from './report-lists';
import type { ReportColumn, ReportSource } from './report-source';
import { sumMinor, totalsRow } from './report-totals';
import { money } from './report-values';
import { revenueSource } from './revenue-report-source';
import type { TCourseReportFilters } from '@shared/schemas/reports';

const COURSE_COLUMN_META: Record<(typeof COURSE_REPORT_COLUMNS)[number], Omit<ReportColumn, 'key' | 'header'>> = {
  courseName: { type: 'text', width: 30 },
  category: { type: 'text', width: 18 },
  duration: { type: 'text', width: 14 },
  totalFee: { type: 'money', width: 16 },
  admissionFee: { type: 'money', width: 18 },
  installments: { type: 'int', width: 12 },
  createdAt: { type: 'datetime', width: 18 },
  updatedAt: { type: 'datetime', width: 18 },
  description: { type: 'text', width: 40 },
};

const cell = cellOf<typeof courses.$inferSelect>();

/** The course list: every reportable column but the last update and the description. */
const COURSE_LIST_COLUMNS = COURSE_REPORT_COLUMNS.filter((k) => k !== 'updatedAt' && k !== 'description');

/** The course reports filter on the course fee. */
const catalogue = (f: TCourseReportFilters): CatalogueFilters => ({ ...f, minPrice: f.minFee, maxPrice: f.maxFee });
const courseWhere = (f: TCourseReportFilters) =>
  catalogueWhere({ category: courses.category, price: courses.totalFee }, catalogue(f));
const courseFilterLines = (f: TCourseReportFilters, dateLabel: string) =>
  catalogueFilterLines('Course fee', catalogue(f), dateLabel);

/** The course list, or a custom course report when `fields` names its columns. */
export function courseListSource(db: Db, tz: string, f: TCourseReportFilters, fields?: string[]): ReportSource {
  const list = listOrCustom(COURSE_COLUMN_META, (k) => REPORT_COLUMN_LABELS[k], fields, COURSE_LIST_COLUMNS, {
    list: { title: 'Course List', fileBase: 'course_report' },
    custom: { title: 'Custom Course Report', fileBase: 'custom_report' },
  });
  return oneTableList(db, tz, {
    list,
    table: courses,
    where: courseWhere(f),
    dates: f,
    filterLines: courseFilterLines(f, 'Created'),
    cells: {
      courseName: cell('courseName', (v) => v),
      category: cell('category', (v) => v),
      duration: cell('duration', (v) => v),
      totalFee: cell('totalFee', money),
      admissionFee: cell('admissionFee', money),
      installments: cell('installments', (v) => v),
      createdAt: cell('createdAt', iso),
      updatedAt: cell('updatedAt', iso),
      description: cell('description', (v) => v),
    },
    async totals(where) {
      const moneyKeys = list.keys.filter((k) => k === 'totalFee' || k === 'admissionFee');
      if (!moneyKeys.length) return [];
      const [r] = await db
        .select({ totalFee: sumMinor(courses.totalFee), admissionFee: sumMinor(courses.admissionFee) })
        .from(courses)
        .where(and(...where));
      return [totalsRow(list.keys, { ...Object.fromEntries(moneyKeys.map((k) => [k, money(r?.[k] ?? 0)])) })];
    },
  });
}

// The paid and outstanding parts of one enrolment: admission fee plus installments, partial
// payments included ("collected" is what the ledger's valid allocations hold, docs/payments.md).
const enrolPaid = sql<number>`(${enrollments.admissionFeeAmountPaid}
  + coalesce((select sum(${enrollmentInstallments.amountPaid}) from ${enrollmentInstallments}
     where ${enrollmentInstallments.enrollmentId} = ${enrollments.id}), 0))`;
const enrolOutstanding = sql<number>`(${enrollments.admissionFee} - ${enrollments.admissionFeeAmountPaid}
  + coalesce((select sum(${enrollmentInstallments.amount} - ${enrollmentInstallments.amountPaid}) from ${enrollmentInstallments}
     where ${enrollmentInstallments.enrollmentId} = ${enrollments.id}), 0))`;

// What the items are owed in all now: the fees less any discount, scholarship or write-off
// (docs/payments.md#adjustments), so billed = collected + outstanding.
const enrolBilled = sql<number>`(${enrollments.admissionFee}
  + coalesce((select sum(${enrollmentInstallments.amount}) from ${enrollmentInstallments}
     where ${enrollmentInstallments.enrollmentId} = ${enrollments.id}), 0))`;

// Money given back on the enrolment's payments (docs/payments.md#refunds): what the items hold paid
// is already net of it, so collected is paid + refunded.
const enrolRefunded = sql<number>`coalesce((select sum(${refunds.amount}) from ${refunds}
  where ${refunds.enrollmentId} = ${enrollments.id}), 0)`;

const enrollmentWhere = (f: TCourseReportFilters, scope: BranchScope | null) =>
  recordWhere(courseWhere(f), scope, { owner: enrollments.userId, day: enrollments.enrolledOn }, f);

export function enrollmentSource(db: Db, f: TCourseReportFilters, scope: BranchScope | null): ReportSource {
  const where = enrollmentWhere(f, scope);
  const columns: ReportColumn[] = [
    { key: 'student', header: 'Student', type: 'text', width: 20 },
    { key: 'email', header: 'Email', type: 'text', width: 28 },
    { key: 'course', header: 'Course', type: 'text', width: 26 },
    { key: 'category', header: 'Category', type: 'text', width: 16 },
    { key: 'paymentType', header: 'Payment Type', type: 'text', width: 13 },
    { key: 'enrolledOn', header: 'Enrolled On', type: 'date', width: 13 },
    { key: 'totalFee', header: 'Course Fee (Rs.)', type: 'money', width: 16 },
    { key: 'admissionFee', header: 'Admission Fee (Rs.)', type: 'money', width: 18 },
    { key: 'paid', header: 'Paid (Rs.)', type: 'money', width: 16 },
    { key: 'outstanding', header: 'Outstanding (Rs.)', type: 'money', width: 17 },
    { key: 'status', header: 'Status', type: 'text', width: 16 },
  ];
  return tableSource({
    title: 'Enrollment Report',
    fileBase: 'enrollment_report',
    columns,
    filterLines: courseFilterLines(f, 'Enrolled'),
    table: enrollments,
    where,
    count: (w) =>
      db.select({ n: count() }).from(enrollments).leftJoin(courses, eq(courses.id, enrollments.courseId)).where(w),
    select: (w, cursor) =>
      db
        .select({
          e: enrollments,
          username: users.username,
          email: users.email,
          courseName: courses.courseName,
          category: courses.category,
          paid: enrolPaid.mapWith(Number),
          outstanding: enrolOutstanding.mapWith(Number),
          ...cursor,
        })
        .from(enrollments)
        .leftJoin(users, eq(users.id, enrollments.userId))
        .leftJoin(courses, eq(courses.id, enrollments.courseId))
        .where(w),
    row: (r) => ({
      student: r.username ?? r.e.deletedUsername ?? 'Unknown',
      email: r.email ?? r.e.deletedEmail ?? null,
      course: r.courseName ?? r.e.deletedCourseName ?? 'Unknown course',
      category: r.category ?? null,
      paymentType: r.e.paymentType,
      enrolledOn: r.e.enrolledOn,
      totalFee: money(r.e.totalFee),
      admissionFee: money(r.e.admissionFee),
      paid: money(r.paid),
      outstanding: money(r.outstanding),
      // The column the writes keep (docs/performance.md#stored-display-status), not re-derived per row.
      status: r.e.displayStatus,
    }),
    async totals() {
      const [r] = await db
        .select({
          totalFee: sumMinor(enrollments.totalFee),
          admissionFee: sumMinor(enrollments.admissionFee),
          paid: sumMinor(enrolPaid),
          outstanding: sumMinor(enrolOutstanding),
        })
        .from(enrollments)
        .leftJoin(courses, eq(courses.id, enrollments.courseId))
        .where(and(...where));
      return [
        totalsRow(
          columns.map((c) => c.key),
          {
            totalFee: money(r?.totalFee),
            admissionFee: money(r?.admissionFee),
            paid: money(r?.paid),
            outstanding: money(r?.outstanding),
          },
        ),
      ];
    },
  });
}

export function courseRevenueSource(
  db: Db,
  f: TCourseReportFilters,
  currency: CurrencySettings,
  scope: BranchScope | null,
): ReportSource {
  const where = enrollmentWhere(f, scope);
  const name = sql<string>`coalesce(${courses.courseName}, ${enrollments.deletedCourseName}, 'Unknown course')`;
  return revenueSource({
    title: 'Course Revenue Report',
    fileBase: 'revenue_report',
    countLabel: 'Enrollments',
    nameLabel: 'Course',
    filterLines: courseFilterLines(f, 'Enrolled'),
    currency,
    groups: async () => {
      const rows = await db
        .select({
          courseId: courses.id,
          name,
          category: courses.category,
          currency: enrollments.currency,
          count: count(),
          expected: sumMinor(enrolBilled),
          collected: sumMinor(sql`${enrolPaid} + ${enrolRefunded}`),
          refunded: sumMinor(enrolRefunded),
          outstanding: sumMinor(enrolOutstanding),
        })
        .from(enrollments)
        .leftJoin(courses, eq(courses.id, enrollments.courseId))
        .where(and(...where))
        .groupBy(courses.id, name, courses.category, enrollments.currency)
        .orderBy(asc(name), asc(enrollments.currency));
      return rows.map(({ courseId: _, ...r }) => r);
    },
  });
}
