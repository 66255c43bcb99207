import { and, asc, count, eq, gte, lte, ne, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import {
  bookingInstallments,
  branches,
  courses,
  enrollmentInstallments,
  enrollments,
  treatmentBookings,
  treatments,
  users,
} from '../../db/schema';
import { enrollmentDisplayStatus } from '../../../shared/enrollment-status';
import { formatDay, formatMoney } from '../../../shared/format';
import { fromMinor } from '../../../shared/money';
import {
  COURSE_REPORT_COLUMNS,
  DEFAULT_USER_REPORT_COLUMNS,
  REPORT_COLUMN_LABELS,
  USER_REPORT_COLUMNS,
} from '../../../shared/report-columns';
import type { CurrencySettings } from '../settings/settings.service';
import type {
  TCourseReportFilters,
  TReportSpec,
  TTreatmentReportFilters,
  TUserReportFilters,
} from '@shared/schemas/reports';

export type CellValue = string | number | null;
export type ReportRow = Record<string, CellValue>;

export interface ReportColumn {
  key: string;
  header: string;
  /** money: a decimal amount; date: YYYY-MM-DD; datetime: an ISO instant. */
  type: 'text' | 'money' | 'int' | 'date' | 'datetime';
  width: number;
}

/**
 * One report, whatever its output: the columns, a row count, the rows in batches (keyset
 * pagination, so memory stays flat however many rows there are), and totals computed in SQL.
 */
export interface ReportSource {
  title: string;
  /** File name without date and extension (docs/product.md#rest-paths). */
  fileBase: string;
  columns: ReportColumn[];
  /** Human-readable lines naming the filters used (printed on the PDF and the Excel info sheet). */
  filterLines: string[];
  count(): Promise<number>;
  batches(batchSize: number): AsyncGenerator<ReportRow[]>;
  /** Rows printed after the data (bold), e.g. totals. */
  totals(): Promise<ReportRow[]>;
  /** Extra JSON fields of the `format=json` answer. */
  summary?(): Promise<Record<string, unknown>>;
}

interface Cursor {
  ts: string;
  id: string;
}

/** Walks a query ordered by (created_at, id); the timestamp travels as text to keep microseconds. */
async function* keyset<T extends { cursorTs: string; cursorId: string }>(
  fetch: (after: Cursor | null, limit: number) => Promise<T[]>,
  batchSize: number,
): AsyncGenerator<T[]> {
  let after: Cursor | null = null;
  for (;;) {
    const batch = await fetch(after, batchSize);
    if (batch.length) yield batch;
    if (batch.length < batchSize) return;
    const last = batch[batch.length - 1]!;
    after = { ts: last.cursorTs, id: last.cursorId };
  }
}

const afterCursor = (ts: AnyPgColumn, id: AnyPgColumn, after: Cursor | null): SQL | undefined =>
  after ? sql`(${ts}, ${id}) > (${after.ts}::timestamptz, ${after.id}::uuid)` : undefined;

const cursorTs = (col: AnyPgColumn) => sql<string>`${col}::text`;

const sameText = (col: AnyPgColumn, value: string) => sql`lower(${col}) = lower(${value})`;
/** Whole days in the institute's time zone, both ends included. */
const createdOnOrAfter = (col: AnyPgColumn, d: string, tz: string) =>
  sql`(${col} at time zone ${tz})::date >= ${d}::date`;
const createdOnOrBefore = (col: AnyPgColumn, d: string, tz: string) =>
  sql`(${col} at time zone ${tz})::date <= ${d}::date`;

const money = (minor: number | string | null | undefined) => (minor == null ? null : fromMinor(Number(minor)));
const iso = (d: Date | null) => (d ? d.toISOString() : null);
const sumMinor = (expr: SQL | AnyPgColumn) => sql<number>`coalesce(sum(${expr}), 0)`.mapWith(Number);

function moneyFilterLine(label: string, min?: number, max?: number): string[] {
  if (min === undefined && max === undefined) return [];
  if (min !== undefined && max !== undefined)
    return [`${label}: ${formatMoney(fromMinor(min))} to ${formatMoney(fromMinor(max))}`];
  if (min !== undefined) return [`${label}: at least ${formatMoney(fromMinor(min))}`];
  return [`${label}: at most ${formatMoney(fromMinor(max!))}`];
}

function dateFilterLine(label: string, start?: string, end?: string): string[] {
  if (!start && !end) return [];
  if (start && end) return [`${label}: ${formatDay(start)} to ${formatDay(end)}`];
  return start ? [`${label}: from ${formatDay(start)}`] : [`${label}: until ${formatDay(end)}`];
}

export function durationText(weeks: number, days: number, months: number): string {
  const parts = [weeks ? `${weeks}W` : '', days ? `${days}D` : '', months ? `${months}M` : ''].filter(Boolean);
  return parts.join(' ');
}

// ---------------------------------------------------------------- courses

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

const COURSE_LIST_COLUMNS = [
  'courseName',
  'category',
  'duration',
  'totalFee',
  'admissionFee',
  'installments',
  'createdAt',
] as const;

/** Category and fee select courses; the dates select what the report is about (see callers). */
function courseWhere(f: TCourseReportFilters): SQL[] {
  const w: SQL[] = [];
  if (f.category) w.push(sameText(courses.category, f.category));
  if (f.minFee !== undefined) w.push(gte(courses.totalFee, f.minFee));
  if (f.maxFee !== undefined) w.push(lte(courses.totalFee, f.maxFee));
  return w;
}

function courseFilterLines(f: TCourseReportFilters, dateLabel: string): string[] {
  return [
    ...(f.category ? [`Category: ${f.category}`] : []),
    ...moneyFilterLine('Course fee', f.minFee, f.maxFee),
    ...dateFilterLine(dateLabel, f.startDate, f.endDate),
  ];
}

function courseListSource(db: Db, tz: string, f: TCourseReportFilters, fields?: string[]): ReportSource {
  const keys = (fields ?? COURSE_LIST_COLUMNS) as Array<keyof typeof COURSE_COLUMN_META>;
  const where = courseWhere(f);
  if (f.startDate) where.push(createdOnOrAfter(courses.createdAt, f.startDate, tz));
  if (f.endDate) where.push(createdOnOrBefore(courses.createdAt, f.endDate, tz));
  const custom = fields !== undefined;
  return {
    title: custom ? 'Custom Course Report' : 'Course List',
    fileBase: custom ? 'custom_report' : 'course_report',
    columns: keys.map((k) => ({ key: k, header: REPORT_COLUMN_LABELS[k], ...COURSE_COLUMN_META[k] })),
    filterLines: courseFilterLines(f, 'Created'),
    async count() {
      const [r] = await db
        .select({ n: count() })
        .from(courses)
        .where(and(...where));
      return r?.n ?? 0;
    },
    async *batches(size) {
      const fetch = (after: Cursor | null, limit: number) =>
        db
          .select({ c: courses, cursorTs: cursorTs(courses.createdAt), cursorId: courses.id })
          .from(courses)
          .where(and(...where, afterCursor(courses.createdAt, courses.id, after)))
          .orderBy(asc(courses.createdAt), asc(courses.id))
          .limit(limit);
      for await (const batch of keyset(fetch, size)) {
        yield batch.map(({ c }) => {
          const all: Record<string, CellValue> = {
            courseName: c.courseName,
            category: c.category,
            duration: c.duration,
            totalFee: money(c.totalFee),
            admissionFee: money(c.admissionFee),
            installments: c.installments,
            createdAt: iso(c.createdAt),
            updatedAt: iso(c.updatedAt),
            description: c.description,
          };
          return Object.fromEntries(keys.map((k) => [k, all[k] ?? null]));
        });
      }
    },
    async totals() {
      const moneyKeys = keys.filter((k) => k === 'totalFee' || k === 'admissionFee');
      if (!moneyKeys.length) return [];
      const [r] = await db
        .select({ totalFee: sumMinor(courses.totalFee), admissionFee: sumMinor(courses.admissionFee) })
        .from(courses)
        .where(and(...where));
      return [totalsRow(keys, { ...Object.fromEntries(moneyKeys.map((k) => [k, money(r?.[k] ?? 0)])) })];
    },
  };
}

/** A totals row: the label goes in the first column that carries no total. */
function totalsRow(keys: readonly string[], values: ReportRow, label = 'Total'): ReportRow {
  const row: ReportRow = Object.fromEntries(keys.map((k) => [k, null]));
  const labelKey = keys.find((k) => !(k in values));
  if (labelKey) row[labelKey] = label;
  return { ...row, ...values };
}

// The paid and outstanding parts of one enrolment: admission fee plus installments.
const enrolPaid = sql<number>`(case when ${enrollments.admissionFeePaid} then ${enrollments.admissionFee} else 0 end
  + coalesce((select sum(${enrollmentInstallments.amount}) from ${enrollmentInstallments}
     where ${enrollmentInstallments.enrollmentId} = ${enrollments.id} and ${enrollmentInstallments.isPaid}), 0))`;
const enrolOutstanding = sql<number>`(case when ${enrollments.admissionFeePaid} then 0 else ${enrollments.admissionFee} end
  + coalesce((select sum(${enrollmentInstallments.amount}) from ${enrollmentInstallments}
     where ${enrollmentInstallments.enrollmentId} = ${enrollments.id} and not ${enrollmentInstallments.isPaid}), 0))`;

function enrollmentWhere(f: TCourseReportFilters): SQL[] {
  const w = courseWhere(f);
  if (f.startDate) w.push(gte(enrollments.enrolledOn, f.startDate));
  if (f.endDate) w.push(lte(enrollments.enrolledOn, f.endDate));
  return w;
}

function enrollmentSource(db: Db, f: TCourseReportFilters): ReportSource {
  const where = enrollmentWhere(f);
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
  const from = () =>
    db
      .select({
        e: enrollments,
        username: users.username,
        email: users.email,
        courseName: courses.courseName,
        category: courses.category,
        paid: enrolPaid.mapWith(Number),
        outstanding: enrolOutstanding.mapWith(Number),
        installmentCount:
          sql<number>`(select count(*) from ${enrollmentInstallments} where ${enrollmentInstallments.enrollmentId} = ${enrollments.id})`.mapWith(
            Number,
          ),
        paidCount:
          sql<number>`(select count(*) from ${enrollmentInstallments} where ${enrollmentInstallments.enrollmentId} = ${enrollments.id} and ${enrollmentInstallments.isPaid})`.mapWith(
            Number,
          ),
        cursorTs: cursorTs(enrollments.createdAt),
        cursorId: enrollments.id,
      })
      .from(enrollments)
      .leftJoin(users, eq(users.id, enrollments.userId))
      .leftJoin(courses, eq(courses.id, enrollments.courseId));
  return {
    title: 'Enrollment Report',
    fileBase: 'enrollment_report',
    columns,
    filterLines: courseFilterLines(f, 'Enrolled'),
    async count() {
      const [r] = await db
        .select({ n: count() })
        .from(enrollments)
        .leftJoin(courses, eq(courses.id, enrollments.courseId))
        .where(and(...where));
      return r?.n ?? 0;
    },
    async *batches(size) {
      const fetch = (after: Cursor | null, limit: number) =>
        from()
          .where(and(...where, afterCursor(enrollments.createdAt, enrollments.id, after)))
          .orderBy(asc(enrollments.createdAt), asc(enrollments.id))
          .limit(limit);
      for await (const batch of keyset(fetch, size)) {
        yield batch.map((r) => ({
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
          status: enrollmentDisplayStatus({
            status: r.e.status,
            admissionFeePaid: r.e.admissionFeePaid,
            admissionFee: r.e.admissionFee,
            installments: Array.from({ length: r.installmentCount }, (_, i) => ({ isPaid: i < r.paidCount })),
          }),
        }));
      }
    },
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
  };
}

// ---------------------------------------------------------------- revenue (courses and treatments)

interface RevenueGroup {
  name: string;
  category: string | null;
  currency: string;
  count: number;
  expected: number;
  collected: number;
  outstanding: number;
}

const REVENUE_COLUMNS = (countLabel: string, nameLabel: string): ReportColumn[] => [
  { key: 'name', header: nameLabel, type: 'text', width: 30 },
  { key: 'category', header: 'Category', type: 'text', width: 18 },
  { key: 'currency', header: 'Currency', type: 'text', width: 10 },
  { key: 'count', header: countLabel, type: 'int', width: 12 },
  { key: 'expected', header: 'Billed', type: 'money', width: 16 },
  { key: 'collected', header: 'Collected', type: 'money', width: 16 },
  { key: 'outstanding', header: 'Outstanding', type: 'money', width: 16 },
];

/**
 * Money of different currencies is never added together, except in the one line that converts
 * the foreign currency at the current exchange rate (docs/reports.md, Reports).
 */
function revenueSource(opts: {
  title: string;
  fileBase: string;
  countLabel: string;
  nameLabel: string;
  filterLines: string[];
  currency: CurrencySettings;
  groups: () => Promise<RevenueGroup[]>;
}): ReportSource {
  const { localCurrency, foreignCurrency, exchangeRate } = opts.currency;
  let cached: Promise<RevenueGroup[]> | undefined;
  const groups = () => (cached ??= opts.groups());
  const toRow = (g: RevenueGroup): ReportRow => ({
    name: g.name,
    category: g.category,
    currency: g.currency,
    count: g.count,
    expected: money(g.expected),
    collected: money(g.collected),
    outstanding: money(g.outstanding),
  });
  async function summary() {
    const byCurrency = new Map<
      string,
      { currency: string; count: number; expected: number; collected: number; outstanding: number }
    >();
    for (const g of await groups()) {
      const t = byCurrency.get(g.currency) ?? {
        currency: g.currency,
        count: 0,
        expected: 0,
        collected: 0,
        outstanding: 0,
      };
      t.count += g.count;
      t.expected += g.expected;
      t.collected += g.collected;
      t.outstanding += g.outstanding;
      byCurrency.set(g.currency, t);
    }
    const toLocal = (c: string, minor: number) =>
      c === localCurrency ? minor : c === foreignCurrency ? Math.round(minor * exchangeRate) : 0;
    const local = { currency: localCurrency, exchangeRate, expected: 0, collected: 0, outstanding: 0 };
    for (const t of byCurrency.values()) {
      local.expected += toLocal(t.currency, t.expected);
      local.collected += toLocal(t.currency, t.collected);
      local.outstanding += toLocal(t.currency, t.outstanding);
    }
    return {
      byCurrency: [...byCurrency.values()].map((t) => ({
        ...t,
        expected: money(t.expected),
        collected: money(t.collected),
        outstanding: money(t.outstanding),
      })),
      local: {
        ...local,
        expected: money(local.expected),
        collected: money(local.collected),
        outstanding: money(local.outstanding),
      },
    };
  }
  return {
    title: opts.title,
    fileBase: opts.fileBase,
    columns: REVENUE_COLUMNS(opts.countLabel, opts.nameLabel),
    filterLines: opts.filterLines,
    count: async () => (await groups()).length,
    async *batches() {
      const all = await groups();
      if (all.length) yield all.map(toRow);
    },
    async totals() {
      const s = await summary();
      const rows: ReportRow[] = s.byCurrency.map((t) => ({ name: `Total (${t.currency})`, category: null, ...t }));
      if (s.byCurrency.some((t) => t.currency !== localCurrency)) {
        rows.push({
          name: `Total in ${localCurrency} (1 ${foreignCurrency} = ${exchangeRate} ${localCurrency})`,
          category: null,
          currency: localCurrency,
          count: s.byCurrency.reduce((a, t) => a + t.count, 0),
          expected: s.local.expected,
          collected: s.local.collected,
          outstanding: s.local.outstanding,
        });
      }
      return rows;
    },
    summary: async () => ({ totals: await summary() }),
  };
}

function courseRevenueSource(db: Db, f: TCourseReportFilters, currency: CurrencySettings): ReportSource {
  const where = enrollmentWhere(f);
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
          expected: sumMinor(sql`${enrollments.totalFee} + ${enrollments.admissionFee}`),
          collected: sumMinor(enrolPaid),
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

// ---------------------------------------------------------------- treatments

const TREATMENT_COLUMN_META: Record<string, Omit<ReportColumn, 'key'>> = {
  treatmentName: { header: REPORT_COLUMN_LABELS.treatmentName, type: 'text', width: 30 },
  category: { header: REPORT_COLUMN_LABELS.category, type: 'text', width: 18 },
  localPrice: { header: 'Local Price (Rs.)', type: 'money', width: 16 },
  foreignPrice: { header: 'Foreign Price ($)', type: 'money', width: 16 },
  maxSessions: { header: 'Max Sessions', type: 'int', width: 13 },
  installments: { header: 'Installments', type: 'int', width: 12 },
  duration: { header: REPORT_COLUMN_LABELS.duration, type: 'text', width: 14 },
  price: { header: REPORT_COLUMN_LABELS.price, type: 'money', width: 16 },
  discountedPrice: { header: REPORT_COLUMN_LABELS.discountedPrice, type: 'money', width: 20 },
  specialRequirements: { header: REPORT_COLUMN_LABELS.specialRequirements, type: 'text', width: 30 },
  createdAt: { header: REPORT_COLUMN_LABELS.createdAt, type: 'datetime', width: 18 },
  updatedAt: { header: REPORT_COLUMN_LABELS.updatedAt, type: 'datetime', width: 18 },
  description: { header: REPORT_COLUMN_LABELS.description, type: 'text', width: 40 },
};

const TREATMENT_LIST_COLUMNS = [
  'treatmentName',
  'category',
  'localPrice',
  'foreignPrice',
  'maxSessions',
  'installments',
  'duration',
  'createdAt',
];

function treatmentWhere(f: TTreatmentReportFilters): SQL[] {
  const w: SQL[] = [];
  if (f.category) w.push(sameText(treatments.category, f.category));
  if (f.minPrice !== undefined) w.push(gte(treatments.localPrice, f.minPrice));
  if (f.maxPrice !== undefined) w.push(lte(treatments.localPrice, f.maxPrice));
  return w;
}

function treatmentFilterLines(f: TTreatmentReportFilters, dateLabel: string): string[] {
  return [
    ...(f.category ? [`Category: ${f.category}`] : []),
    ...moneyFilterLine('Local price', f.minPrice, f.maxPrice),
    ...dateFilterLine(dateLabel, f.startDate, f.endDate),
  ];
}

function treatmentListSource(db: Db, tz: string, f: TTreatmentReportFilters, fields?: string[]): ReportSource {
  const keys = fields ?? TREATMENT_LIST_COLUMNS;
  const where = treatmentWhere(f);
  if (f.startDate) where.push(createdOnOrAfter(treatments.createdAt, f.startDate, tz));
  if (f.endDate) where.push(createdOnOrBefore(treatments.createdAt, f.endDate, tz));
  const custom = fields !== undefined;
  return {
    title: custom ? 'Custom Treatment Report' : 'Treatment List',
    fileBase: custom ? 'custom_treatment_report' : 'list_treatment_report',
    columns: keys.map((k) => ({ key: k, ...TREATMENT_COLUMN_META[k]! })),
    filterLines: treatmentFilterLines(f, 'Created'),
    async count() {
      const [r] = await db
        .select({ n: count() })
        .from(treatments)
        .where(and(...where));
      return r?.n ?? 0;
    },
    async *batches(size) {
      const fetch = (after: Cursor | null, limit: number) =>
        db
          .select({ t: treatments, cursorTs: cursorTs(treatments.createdAt), cursorId: treatments.id })
          .from(treatments)
          .where(and(...where, afterCursor(treatments.createdAt, treatments.id, after)))
          .orderBy(asc(treatments.createdAt), asc(treatments.id))
          .limit(limit);
      for await (const batch of keyset(fetch, size)) {
        yield batch.map(({ t }) => {
          const all: ReportRow = {
            treatmentName: t.treatmentName,
            category: t.category,
            localPrice: money(t.localPrice),
            foreignPrice: money(t.foreignPrice),
            maxSessions: t.maxSessions,
            installments: t.installments,
            duration: durationText(t.durationWeeks, t.durationDays, t.durationMonths),
            price: money(t.localPrice),
            discountedPrice: money(t.discountedPrice),
            specialRequirements: t.specialRequirements,
            createdAt: iso(t.createdAt),
            updatedAt: iso(t.updatedAt),
            description: t.description,
          };
          return Object.fromEntries(keys.map((k) => [k, all[k] ?? null]));
        });
      }
    },
    async totals() {
      return [];
    },
  };
}

const bookingPaid = sql<number>`coalesce((select sum(${bookingInstallments.amount}) from ${bookingInstallments}
  where ${bookingInstallments.bookingId} = ${treatmentBookings.id} and ${bookingInstallments.isPaid}), 0)`;
const bookingOutstanding = sql<number>`coalesce((select sum(${bookingInstallments.amount}) from ${bookingInstallments}
  where ${bookingInstallments.bookingId} = ${treatmentBookings.id} and not ${bookingInstallments.isPaid}), 0)`;

function bookingWhere(f: TTreatmentReportFilters): SQL[] {
  const w = treatmentWhere(f);
  if (f.startDate) w.push(gte(treatmentBookings.bookedOn, f.startDate));
  if (f.endDate) w.push(lte(treatmentBookings.bookedOn, f.endDate));
  return w;
}

function bookingSource(db: Db, f: TTreatmentReportFilters): ReportSource {
  const where = bookingWhere(f);
  const columns: ReportColumn[] = [
    { key: 'customer', header: 'Customer', type: 'text', width: 20 },
    { key: 'email', header: 'Email', type: 'text', width: 28 },
    { key: 'treatment', header: 'Treatment', type: 'text', width: 26 },
    { key: 'userType', header: 'Patient Type', type: 'text', width: 12 },
    { key: 'paymentType', header: 'Payment Type', type: 'text', width: 13 },
    { key: 'paymentStatus', header: 'Payment Status', type: 'text', width: 15 },
    { key: 'status', header: 'Booking Status', type: 'text', width: 14 },
    { key: 'bookedOn', header: 'Booked On', type: 'date', width: 13 },
    { key: 'currency', header: 'Currency', type: 'text', width: 10 },
    { key: 'price', header: 'Price', type: 'money', width: 14 },
    { key: 'paid', header: 'Paid', type: 'money', width: 14 },
    { key: 'outstanding', header: 'Outstanding', type: 'money', width: 14 },
  ];
  return {
    title: 'Treatment Booking Report',
    fileBase: 'bookings_treatment_report',
    columns,
    filterLines: treatmentFilterLines(f, 'Booked'),
    async count() {
      const [r] = await db
        .select({ n: count() })
        .from(treatmentBookings)
        .leftJoin(treatments, eq(treatments.id, treatmentBookings.treatmentId))
        .where(and(...where));
      return r?.n ?? 0;
    },
    async *batches(size) {
      const fetch = (after: Cursor | null, limit: number) =>
        db
          .select({
            b: treatmentBookings,
            username: users.username,
            email: users.email,
            paid: bookingPaid.mapWith(Number),
            outstanding: bookingOutstanding.mapWith(Number),
            cursorTs: cursorTs(treatmentBookings.createdAt),
            cursorId: treatmentBookings.id,
          })
          .from(treatmentBookings)
          .leftJoin(users, eq(users.id, treatmentBookings.userId))
          .leftJoin(treatments, eq(treatments.id, treatmentBookings.treatmentId))
          .where(and(...where, afterCursor(treatmentBookings.createdAt, treatmentBookings.id, after)))
          .orderBy(asc(treatmentBookings.createdAt), asc(treatmentBookings.id))
          .limit(limit);
      for await (const batch of keyset(fetch, size)) {
        yield batch.map((r) => ({
          customer: r.username ?? r.b.deletedUsername ?? 'Unknown',
          email: r.email ?? r.b.deletedEmail ?? null,
          treatment: r.b.treatmentName,
          userType: r.b.userType,
          paymentType: r.b.paymentType,
          paymentStatus: r.b.paymentStatus,
          status: r.b.status,
          bookedOn: r.b.bookedOn,
          currency: r.b.currency,
          price: money(r.b.price),
          paid: money(r.paid),
          outstanding: money(r.outstanding),
        }));
      }
    },
    /** One totals row per currency; cancelled bookings are listed but not counted. */
    async totals() {
      const rows = await db
        .select({
          currency: treatmentBookings.currency,
          price: sumMinor(treatmentBookings.price),
          paid: sumMinor(bookingPaid),
          outstanding: sumMinor(bookingOutstanding),
        })
        .from(treatmentBookings)
        .leftJoin(treatments, eq(treatments.id, treatmentBookings.treatmentId))
        .where(and(...where, ne(treatmentBookings.status, 'cancelled')))
        .groupBy(treatmentBookings.currency)
        .orderBy(asc(treatmentBookings.currency));
      const keys = columns.map((c) => c.key);
      return rows.map((r) =>
        totalsRow(
          keys,
          { currency: r.currency, price: money(r.price), paid: money(r.paid), outstanding: money(r.outstanding) },
          `Total ${r.currency} (excluding cancelled)`,
        ),
      );
    },
  };
}

function treatmentRevenueSource(db: Db, f: TTreatmentReportFilters, currency: CurrencySettings): ReportSource {
  const where = [...bookingWhere(f), ne(treatmentBookings.status, 'cancelled')];
  const name = sql<string>`coalesce(${treatments.treatmentName}, ${treatmentBookings.treatmentName})`;
  return revenueSource({
    title: 'Treatment Revenue Report',
    fileBase: 'revenue_treatment_report',
    countLabel: 'Bookings',
    nameLabel: 'Treatment',
    filterLines: [...treatmentFilterLines(f, 'Booked'), 'Cancelled bookings are excluded'],
    currency,
    groups: async () => {
      const rows = await db
        .select({
          treatmentId: treatmentBookings.treatmentId,
          name,
          category: treatments.category,
          currency: treatmentBookings.currency,
          count: count(),
          expected: sumMinor(treatmentBookings.price),
          collected: sumMinor(bookingPaid),
          outstanding: sumMinor(bookingOutstanding),
        })
        .from(treatmentBookings)
        .leftJoin(treatments, eq(treatments.id, treatmentBookings.treatmentId))
        .where(and(...where))
        .groupBy(treatmentBookings.treatmentId, name, treatments.category, treatmentBookings.currency)
        .orderBy(asc(name), asc(treatmentBookings.currency));
      return rows.map(({ treatmentId: _, ...r }) => r);
    },
  });
}

// ---------------------------------------------------------------- users

const USER_COLUMN_META: Record<(typeof USER_REPORT_COLUMNS)[number], Omit<ReportColumn, 'key' | 'header'>> = {
  username: { type: 'text', width: 18 },
  fullName: { type: 'text', width: 24 },
  email: { type: 'text', width: 30 },
  role: { type: 'text', width: 12 },
  branch: { type: 'text', width: 20 },
  phone: { type: 'text', width: 16 },
  createdAt: { type: 'datetime', width: 18 },
};

function userSource(db: Db, tz: string, f: TUserReportFilters, fields?: string[]): ReportSource {
  const keys = (fields ?? DEFAULT_USER_REPORT_COLUMNS) as Array<keyof typeof USER_COLUMN_META>;
  const where: SQL[] = [];
  if (f.role) where.push(eq(users.role, f.role));
  if (f.branchId) where.push(eq(users.branchId, f.branchId));
  if (f.startDate) where.push(createdOnOrAfter(users.createdAt, f.startDate, tz));
  if (f.endDate) where.push(createdOnOrBefore(users.createdAt, f.endDate, tz));
  const custom = fields !== undefined;
  return {
    title: custom ? 'Custom User Report' : 'User Report',
    fileBase: 'user_report',
    columns: keys.map((k) => ({ key: k, header: REPORT_COLUMN_LABELS[k], ...USER_COLUMN_META[k] })),
    filterLines: [
      ...(f.role ? [`Role: ${f.role}`] : []),
      ...(f.branchId ? [`Branch id: ${f.branchId}`] : []),
      ...dateFilterLine('Created', f.startDate, f.endDate),
    ],
    async count() {
      const [r] = await db
        .select({ n: count() })
        .from(users)
        .where(and(...where));
      return r?.n ?? 0;
    },
    async *batches(size) {
      // The password hash is never selected.
      const fetch = (after: Cursor | null, limit: number) =>
        db
          .select({
            username: users.username,
            fullName: users.fullName,
            email: users.email,
            role: users.role,
            branch: branches.name,
            phone: users.phone,
            createdAt: users.createdAt,
            cursorTs: cursorTs(users.createdAt),
            cursorId: users.id,
          })
          .from(users)
          .leftJoin(branches, eq(branches.id, users.branchId))
          .where(and(...where, afterCursor(users.createdAt, users.id, after)))
          .orderBy(asc(users.createdAt), asc(users.id))
          .limit(limit);
      for await (const batch of keyset(fetch, size)) {
        yield batch.map((u) => {
          const all: ReportRow = { ...u, createdAt: iso(u.createdAt) };
          return Object.fromEntries(keys.map((k) => [k, all[k] ?? null]));
        });
      }
    },
    async totals() {
      return [];
    },
  };
}

/** Builds the source of a stored or requested report. */
export function reportSource(
  db: Db,
  spec: TReportSpec,
  opts: { timeZone: string; currency: CurrencySettings },
): ReportSource {
  const tz = opts.timeZone;
  switch (spec.report) {
    case 'users':
      return userSource(db, tz, spec.filters, spec.fields);
    case 'courses':
      return courseListSource(db, tz, spec.filters, spec.fields);
    case 'enrollments':
      return enrollmentSource(db, spec.filters);
    case 'course-revenue':
      return courseRevenueSource(db, spec.filters, opts.currency);
    case 'treatments':
      return treatmentListSource(db, tz, spec.filters, spec.fields);
    case 'bookings':
      return bookingSource(db, spec.filters);
    case 'treatment-revenue':
      return treatmentRevenueSource(db, spec.filters, opts.currency);
  }
}
