import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { expect } from 'vitest';
import type { Db } from '../../src/server/db/client';
import {
  bookingInstallments,
  courses,
  enrollmentInstallments,
  enrollments,
  reportFileChunks,
  treatmentBookings,
  treatments,
} from '../../src/server/db/schema';
import { toMinor } from '../../src/shared/money';

const suffix = () => randomBytes(3).toString('hex');
export const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000);

/** Amounts are decimals here, as a person writes them; the rows hold minor units. */
export async function makeCourse(
  db: Db,
  o: Partial<{
    courseName: string;
    category: string;
    totalFee: number;
    admissionFee: number;
    installments: number;
    createdAt: Date;
    description: string;
  }> = {},
) {
  const [c] = await db
    .insert(courses)
    .values({
      courseName: o.courseName ?? `Course ${suffix()}`,
      duration: '3 months',
      totalFee: toMinor(o.totalFee ?? 1000),
      admissionFee: toMinor(o.admissionFee ?? 0),
      installments: o.installments ?? 1,
      category: o.category ?? 'General',
      description: o.description ?? null,
      ...(o.createdAt ? { createdAt: o.createdAt, updatedAt: o.createdAt } : {}),
    })
    .returning();
  return c!;
}

/** An enrolment with its installments given as [amount, paid]. */
export async function makeEnrollment(
  db: Db,
  o: {
    userId: string | null;
    course: typeof courses.$inferSelect;
    paymentType?: 'full' | 'installment';
    enrolledOn: string;
    admissionFeePaid?: boolean;
    status?: 'active' | 'completed';
    installments: Array<[number, boolean]>;
    createdAt?: Date;
  },
) {
  const [e] = await db
    .insert(enrollments)
    .values({
      userId: o.userId,
      courseId: o.course.id,
      paymentType: o.paymentType ?? (o.installments.length > 1 ? 'installment' : 'full'),
      totalFee: o.course.totalFee,
      admissionFee: o.course.admissionFee,
      admissionFeePaid: o.admissionFeePaid ?? false,
      // The ledger's sum agrees with the switch (docs/payments.md), as after a real payment.
      admissionFeeAmountPaid: o.admissionFeePaid ? o.course.admissionFee : 0,
      status: o.status ?? 'active',
      enrolledOn: o.enrolledOn,
      ...(o.createdAt ? { createdAt: o.createdAt } : {}),
    })
    .returning();
  if (o.installments.length) {
    await db.insert(enrollmentInstallments).values(
      o.installments.map(([amount, paid], seq) => ({
        enrollmentId: e!.id,
        seq,
        amount: toMinor(amount),
        dueDate: o.enrolledOn,
        amountPaid: paid ? toMinor(amount) : 0,
        isPaid: paid,
        paidAt: paid ? new Date() : null,
      })),
    );
  }
  return e!;
}

export async function makeTreatment(
  db: Db,
  o: Partial<{
    treatmentName: string;
    category: string | null;
    localPrice: number;
    foreignPrice: number;
    maxSessions: number;
    installments: number;
    durationWeeks: number;
    createdAt: Date;
  }> = {},
) {
  const [t] = await db
    .insert(treatments)
    .values({
      treatmentName: o.treatmentName ?? `Treatment ${suffix()}`,
      category: o.category === undefined ? 'General' : o.category,
      localPrice: toMinor(o.localPrice ?? 1000),
      foreignPrice: toMinor(o.foreignPrice ?? 10),
      maxSessions: o.maxSessions ?? 5,
      installments: o.installments ?? 1,
      durationWeeks: o.durationWeeks ?? 0,
      ...(o.createdAt ? { createdAt: o.createdAt, updatedAt: o.createdAt } : {}),
    })
    .returning();
  return t!;
}

export async function makeBooking(
  db: Db,
  o: {
    userId: string | null;
    treatment: typeof treatments.$inferSelect;
    userType: 'local' | 'foreign';
    bookedOn: string;
    installments: Array<[number, boolean]>;
    status?: 'active' | 'cancelled';
    paymentType?: 'full' | 'installment';
    createdAt?: Date;
  },
) {
  const price = o.userType === 'local' ? o.treatment.localPrice : o.treatment.foreignPrice;
  const paidCount = o.installments.filter(([, p]) => p).length;
  const [b] = await db
    .insert(treatmentBookings)
    .values({
      userId: o.userId,
      treatmentId: o.treatment.id,
      treatmentName: o.treatment.treatmentName,
      maxSessions: o.treatment.maxSessions,
      userType: o.userType,
      paymentType: o.paymentType ?? (o.installments.length > 1 ? 'installment' : 'full'),
      paymentStatus: paidCount === 0 ? 'pending' : paidCount === o.installments.length ? 'paid' : 'partially_paid',
      price,
      currency: o.userType === 'local' ? 'LKR' : 'USD',
      status: o.status ?? 'active',
      bookedOn: o.bookedOn,
      ...(o.createdAt ? { createdAt: o.createdAt } : {}),
    })
    .returning();
  if (o.installments.length) {
    await db.insert(bookingInstallments).values(
      o.installments.map(([amount, paid], seq) => ({
        bookingId: b!.id,
        seq,
        amount: toMinor(amount),
        dueDate: o.bookedOn,
        amountPaid: paid ? toMinor(amount) : 0,
        isPaid: paid,
        paidAt: paid ? new Date() : null,
      })),
    );
  }
  return b!;
}

/** A download as the browser gets it: status, headers and the raw bytes. */
export async function download(
  baseUrl: string,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown } = {},
) {
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(baseUrl + path, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** The first sheet's rows as arrays of cell values (1-based columns dropped). */
export async function readXlsx(bytes: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  const sheet = wb.worksheets[0]!;
  const rows: unknown[][] = [];
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return { wb, sheet, rows };
}

/** Every page's text, in order, one string per page. */
export async function readPdfText(bytes: Buffer): Promise<string[]> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), verbosity: 0 }).promise;
  const pages: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    pages.push(content.items.map((it) => ('str' in it ? it.str : '')).join(' '));
  }
  await doc.destroy();
  return pages;
}

/** `count` courses in category 'Bulk' in one statement: fees 1,000.01, 1,000.02, ...; admission 5. */
export async function insertBulkCourses(db: Db, count: number) {
  await db.execute(sql`
    insert into courses (course_name, duration, total_fee_minor, installments, category, admission_fee_minor)
    select 'Bulk course ' || lpad(g::text, 5, '0'), '1 month', 100000 + g, 1, 'Bulk', 500
    from generate_series(1, ${count}) g`);
}

/** The course list workbook of insertBulkCourses(count): a header, every course once, and totals. */
export async function expectBulkCourseWorkbook(bytes: Buffer, count: number) {
  const { rows } = await readXlsx(bytes);
  expect(rows[0]![0]).toBe('Course Name');
  expect(rows).toHaveLength(count + 2);
  // Rows made in one statement share created_at; the id breaks the tie, so compare as a set.
  expect(new Set(rows.slice(1, count + 1).map((r) => r[0])).size).toBe(count);
  expect(rows[count + 1]!.slice(0, 5)).toEqual([
    'Total',
    undefined,
    undefined,
    (count * 100000 + (count * (count + 1)) / 2) / 100,
    count * 5,
  ]);
}

/** The number of stored pieces of a report file, every run counted. */
export async function countPieces(db: Db, fileId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(reportFileChunks)
    .where(eq(reportFileChunks.fileId, fileId));
  return row?.n ?? 0;
}
