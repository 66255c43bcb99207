import { and, asc, count, desc, eq, gte, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import { courses } from '../../db/schema';
import { firstRow } from '../../db/rows';
import { fromMinor, toMinor } from '../../../shared/money';
import type { Page } from '../../../shared/pagination';
import { AppError } from '../../errors';
import { recordCatalogueChange, type CatalogueView } from '../audit/audit.service';
import type { SystemContext } from '../context';
import { assertId } from '../ids';
import { numberedPage } from '../paging';
import { ilikeContains } from '../sql-conditions';
import { detachCourseFromEnrollments } from '../enrollments/enrollments.service';
import type {
  TCreateCourseInput,
  TFilterCoursesInput,
  TListCoursesInput,
  TUpdateCourseInput,
} from '@shared/schemas/courses';
import type { TCourse, TCourseOption } from '@shared/schemas/courses.output';
import { afterWrite } from '../read-cache';

type CourseRow = typeof courses.$inferSelect;

/** docs/product.md#records-and-their-fields Course; money as decimal numbers. */
export function toCourseDto(c: CourseRow): TCourse {
  return {
    _id: c.id,
    courseName: c.courseName,
    duration: c.duration,
    totalFee: fromMinor(c.totalFee),
    installments: c.installments,
    category: c.category,
    admissionFee: fromMinor(c.admissionFee),
    currency: c.currency,
    description: c.description,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}
export type CourseDto = TCourse;

/** A course as its audit entries name and show it. */
const auditView = (c: CourseDto): CatalogueView => ({ name: c.courseName, fields: c });

const NOT_FOUND = 'Course not found.';
const SORT = {
  courseName: courses.courseName,
  category: courses.category,
  totalFee: courses.totalFee,
  createdAt: courses.createdAt,
};

function searchWhere(search: string | undefined, category: string | undefined): SQL | undefined {
  return and(
    search ? or(ilikeContains(courses.courseName, search), ilikeContains(courses.category, search)) : undefined,
    category ? eq(sql`lower(${courses.category})`, category.toLowerCase()) : undefined,
  );
}

export async function listCourses({ db }: SystemContext, input: TListCoursesInput): Promise<Page<CourseDto>> {
  const where = searchWhere(input.search, input.category);
  const order = input.sortDir === 'asc' ? asc(SORT[input.sortBy]) : desc(SORT[input.sortBy]);
  const rows = db.select().from(courses).where(where).$dynamic();
  const total = db.select({ n: count() }).from(courses).where(where);
  return numberedPage(input, rows, [order, asc(courses.id)], total, toCourseDto);
}

/** GET /api/course answers a bare array; an institute has tens of courses, the cap is a safety net. */
export async function listAllCourses({ db }: SystemContext): Promise<CourseDto[]> {
  const rows = await db.select().from(courses).orderBy(desc(courses.createdAt), asc(courses.id)).limit(5000);
  return rows.map(toCourseDto);
}

/** The enrol form's dropdown: id, name and the fee facts it shows. */
export async function courseOptions({ db }: SystemContext): Promise<TCourseOption[]> {
  const rows = await db
    .select({
      id: courses.id,
      courseName: courses.courseName,
      totalFee: courses.totalFee,
      admissionFee: courses.admissionFee,
      installments: courses.installments,
      currency: courses.currency,
    })
    .from(courses)
    .orderBy(asc(courses.courseName))
    .limit(5000);
  return rows.map((r) => ({
    _id: r.id,
    courseName: r.courseName,
    totalFee: fromMinor(r.totalFee),
    admissionFee: fromMinor(r.admissionFee),
    installments: r.installments,
    currency: r.currency,
  }));
}

export async function courseCategories({ db }: SystemContext): Promise<string[]> {
  const rows = await db
    .selectDistinct({ category: courses.category })
    .from(courses)
    .orderBy(asc(courses.category))
    .limit(1000);
  return rows.map((r) => r.category);
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** A bare date as the end includes that whole day; a full timestamp is taken as it is. */
function endBound(endDate: string): SQL {
  if (!DATE_ONLY.test(endDate)) return lte(courses.createdAt, new Date(endDate));
  const next = new Date(endDate);
  next.setUTCDate(next.getUTCDate() + 1);
  return lt(courses.createdAt, next);
}

/** Date bounds are whole days: endDate includes every course created on that day. */
export async function filterCourses({ db }: SystemContext, input: TFilterCoursesInput): Promise<CourseDto[]> {
  if (input.minFee !== undefined && input.maxFee !== undefined && input.minFee > input.maxFee) {
    throw new AppError('BAD_REQUEST', 'The minimum fee cannot be above the maximum fee.');
  }
  const where = and(
    searchWhere(input.search, input.category),
    input.minFee !== undefined ? gte(courses.totalFee, toMinor(input.minFee)) : undefined,
    input.maxFee !== undefined ? lte(courses.totalFee, toMinor(input.maxFee)) : undefined,
    input.startDate ? gte(courses.createdAt, new Date(input.startDate)) : undefined,
    input.endDate ? endBound(input.endDate) : undefined,
  );
  const rows = await db
    .select()
    .from(courses)
    .where(where)
    .orderBy(desc(courses.createdAt), asc(courses.id))
    .limit(5000);
  return rows.map(toCourseDto);
}

export async function getCourse({ db }: SystemContext, id: string): Promise<CourseDto> {
  assertId(id, 'Course');
  const [row] = await db.select().from(courses).where(eq(courses.id, id)).limit(1);
  if (!row) throw new AppError('NOT_FOUND', NOT_FOUND);
  return toCourseDto(row);
}

/** The demo seed creates courses too, with no actor: its entries name none. */
export async function createCourse(ctx: SystemContext, input: TCreateCourseInput): Promise<CourseDto> {
  return afterWrite(
    ctx.deps,
    ctx.db.transaction(async (tx) => {
      const rows = await tx
        .insert(courses)
        .values({
          courseName: input.courseName,
          duration: input.duration,
          totalFee: toMinor(input.totalFee),
          installments: input.installments,
          category: input.category,
          admissionFee: toMinor(input.admissionFee),
          currency: input.currency ?? 'LKR',
          description: input.description ?? null,
        })
        .returning();
      const dto = toCourseDto(firstRow(rows));
      await recordCatalogueChange(tx, ctx, 'course', dto._id, null, auditView(dto));
      return dto;
    }),
  );
}

/** Enrolments keep their own fee snapshot, so a fee change here never rewrites history. */
export async function updateCourse(ctx: SystemContext, input: TUpdateCourseInput): Promise<CourseDto> {
  assertId(input.id, 'Course');
  const set: Partial<typeof courses.$inferInsert> = {};
  if (input.courseName !== undefined) set.courseName = input.courseName;
  if (input.duration !== undefined) set.duration = input.duration;
  if (input.totalFee !== undefined) set.totalFee = toMinor(input.totalFee);
  if (input.installments !== undefined) set.installments = input.installments;
  if (input.category !== undefined) set.category = input.category;
  if (input.admissionFee !== undefined) set.admissionFee = toMinor(input.admissionFee);
  if (input.currency !== undefined) set.currency = input.currency;
  if (input.description !== undefined) set.description = input.description;
  if (Object.keys(set).length === 0) return getCourse(ctx, input.id);
  return afterWrite(
    ctx.deps,
    ctx.db.transaction(async (tx) => {
      const [old] = await tx.select().from(courses).where(eq(courses.id, input.id)).for('update').limit(1);
      if (!old) throw new AppError('NOT_FOUND', NOT_FOUND);
      const before = toCourseDto(old);
      const after = toCourseDto(
        firstRow(await tx.update(courses).set(set).where(eq(courses.id, input.id)).returning()),
      );
      await recordCatalogueChange(tx, ctx, 'course', after._id, auditView(before), auditView(after));
      return after;
    }),
  );
}

/** docs/courses.md: the course's enrolments stay, carrying the course name. */
export async function deleteCourse(ctx: SystemContext, id: string): Promise<{ message: string }> {
  assertId(id, 'Course');
  return afterWrite(
    ctx.deps,
    ctx.db.transaction(async (tx) => {
      const [row] = await tx.select().from(courses).where(eq(courses.id, id)).for('update').limit(1);
      if (!row) throw new AppError('NOT_FOUND', NOT_FOUND);
      await detachCourseFromEnrollments(tx, id);
      await tx.delete(courses).where(eq(courses.id, id));
      await recordCatalogueChange(tx, ctx, 'course', id, auditView(toCourseDto(row)), null);
      return { message: 'Course deleted successfully!' };
    }),
  );
}
