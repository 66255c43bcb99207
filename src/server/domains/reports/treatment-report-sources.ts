import { and, asc, count, eq, ne, sql } from 'drizzle-orm';
import type { BranchScope } from '../branch-scope';
import type { Db } from '../../db/client';
import { bookingInstallments, refunds, treatmentBookings, treatments, users } from '../../db/schema';
import { REPORT_COLUMN_LABELS, type TreatmentReportColumn } from '../../../shared/report-columns';
import { iso } from '../ids';
import { effectivePaymentStatusSql } from '../bookings/bookings.dto';
import { todayIn } from '../../../shared/calendar';
import type { CurrencySettings } from '../settings/settings.service';
import { tableSource } from './report-batches';
import { catalogueFilterLines, catalogueWhere, recordWhere } from './report-filters';
import { cellOf, listOrCustom, oneTableList } from './report-lists';
import type { ReportColumn, ReportSource } from './report-source';
import { sumMinor, totalsRow } from './report-totals';
import { durationText, money } from './report-values';
import { revenueSource } from './revenue-report-source';
import type { TTreatmentReportFilters } from '@shared/schemas/reports';

const cell = cellOf<typeof treatments.$inferSelect>();

/** The custom report's columns plus the ones only the treatment list shows. */
type TreatmentColumn = TreatmentReportColumn | 'localPrice' | 'foreignPrice' | 'maxSessions' | 'installments';

const TREATMENT_COLUMN_META: Record<TreatmentColumn, Omit<ReportColumn, 'key'>> = {
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

const TREATMENT_LIST_COLUMNS: TreatmentColumn[] = [
  'treatmentName',
  'category',
  'localPrice',
  'foreignPrice',
  'maxSessions',
  'installments',
  'duration',
  'createdAt',
];

/** The treatment reports filter on the local price. */
const treatmentWhere = (f: TTreatmentReportFilters) =>
  catalogueWhere({ category: treatments.category, price: treatments.localPrice }, f);
const treatmentFilterLines = (f: TTreatmentReportFilters, dateLabel: string) =>
  catalogueFilterLines('Local price', f, dateLabel);

/** The treatment list, or a custom treatment report when `fields` names its columns. */
export function treatmentListSource(db: Db, tz: string, f: TTreatmentReportFilters, fields?: string[]): ReportSource {
  const list = listOrCustom(
    TREATMENT_COLUMN_META,
    (k) => TREATMENT_COLUMN_META[k].header,
    fields,
    TREATMENT_LIST_COLUMNS,
    {
      list: { title: 'Treatment List', fileBase: 'list_treatment_report' },
      custom: { title: 'Custom Treatment Report', fileBase: 'custom_treatment_report' },
    },
  );
  return oneTableList(db, tz, {
    list,
    table: treatments,
    where: treatmentWhere(f),
    dates: f,
    filterLines: treatmentFilterLines(f, 'Created'),
    cells: {
      treatmentName: cell('treatmentName', (v) => v),
      category: cell('category', (v) => v),
      localPrice: cell('localPrice', money),
      foreignPrice: cell('foreignPrice', money),
      maxSessions: cell('maxSessions', (v) => v),
      installments: cell('installments', (v) => v),
      duration: {
        uses: ['durationWeeks', 'durationDays', 'durationMonths'],
        cell: (t) => durationText(t.durationWeeks, t.durationDays, t.durationMonths),
      },
      price: cell('localPrice', money),
      discountedPrice: cell('discountedPrice', money),
      specialRequirements: cell('specialRequirements', (v) => v),
      createdAt: cell('createdAt', iso),
      updatedAt: cell('updatedAt', iso),
      description: cell('description', (v) => v),
    },
  });
}

// Partial payments included: what the ledger's valid allocations hold (docs/payments.md).
const bookingPaid = sql<number>`coalesce((select sum(${bookingInstallments.amountPaid}) from ${bookingInstallments}
  where ${bookingInstallments.bookingId} = ${treatmentBookings.id}), 0)`;
// What the instalments are owed in all now, discounts included (docs/payments.md#adjustments).
const bookingBilled = sql<number>`coalesce((select sum(${bookingInstallments.amount}) from ${bookingInstallments}
  where ${bookingInstallments.bookingId} = ${treatmentBookings.id}), 0)`;
const bookingOutstanding = sql<number>`coalesce((select sum(${bookingInstallments.amount} - ${bookingInstallments.amountPaid}) from ${bookingInstallments}
  where ${bookingInstallments.bookingId} = ${treatmentBookings.id}), 0)`;
// Money given back on the booking's payments (docs/payments.md#refunds): what the instalments hold
// paid is already net of it, so collected is paid + refunded.
const bookingRefunded = sql<number>`coalesce((select sum(${refunds.amount}) from ${refunds}
  where ${refunds.bookingId} = ${treatmentBookings.id}), 0)`;

const bookingWhere = (f: TTreatmentReportFilters, scope: BranchScope | null) =>
  recordWhere(treatmentWhere(f), scope, { owner: treatmentBookings.userId, day: treatmentBookings.bookedOn }, f);

export function bookingSource(db: Db, tz: string, f: TTreatmentReportFilters, scope: BranchScope | null): ReportSource {
  const where = bookingWhere(f, scope);
  // The status every booking answer shows: the stored one turns "overdue" only when the nightly
  // job runs, while an unpaid instalment is past due from midnight (docs/treatments.md). The day
  // is the one the report started on, for every row of it.
  const paymentStatus = effectivePaymentStatusSql(todayIn(tz));
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
  return tableSource({
    title: 'Treatment Booking Report',
    fileBase: 'bookings_treatment_report',
    columns,
    filterLines: treatmentFilterLines(f, 'Booked'),
    table: treatmentBookings,
    where,
    count: (w) =>
      db
        .select({ n: count() })
        .from(treatmentBookings)
        .leftJoin(treatments, eq(treatments.id, treatmentBookings.treatmentId))
        .where(w),
    select: (w, cursor) =>
      db
        .select({
          b: treatmentBookings,
          username: users.username,
          email: users.email,
          paid: bookingPaid.mapWith(Number),
          outstanding: bookingOutstanding.mapWith(Number),
          paymentStatus,
          ...cursor,
        })
        .from(treatmentBookings)
        .leftJoin(users, eq(users.id, treatmentBookings.userId))
        .leftJoin(treatments, eq(treatments.id, treatmentBookings.treatmentId))
        .where(w),
    row: (r) => ({
      customer: r.username ?? r.b.deletedUsername ?? 'Unknown',
      email: r.email ?? r.b.deletedEmail ?? null,
      treatment: r.b.treatmentName,
      userType: r.b.userType,
      paymentType: r.b.paymentType,
      paymentStatus: r.paymentStatus,
      status: r.b.status,
      bookedOn: r.b.bookedOn,
      currency: r.b.currency,
      price: money(r.b.price),
      paid: money(r.paid),
      outstanding: money(r.outstanding),
    }),
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
  });
}

export function treatmentRevenueSource(
  db: Db,
  f: TTreatmentReportFilters,
  currency: CurrencySettings,
  scope: BranchScope | null,
): ReportSource {
  const where = [...bookingWhere(f, scope), ne(treatmentBookings.status, 'cancelled')];
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
          expected: sumMinor(bookingBilled),
          collected: sumMinor(sql`${bookingPaid} + ${bookingRefunded}`),
          refunded: sumMinor(bookingRefunded),
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
