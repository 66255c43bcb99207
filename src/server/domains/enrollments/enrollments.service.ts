import { and, asc, count, desc, eq, inArray, lt, not, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { courses, enrollmentInstallments, enrollments, users } from '../../db/schema';
import type { AppDeps } from '../../deps';
import type { Actor } from '../../auth/sessions';
import { assertRecordInScope, assertUserInScope, branchCondition, branchScopeOf, ownerInScope } from '../branch-scope';
import { enrollmentDisplayStatus, isAdmissionSettled, type DisplayStatus } from '../../../shared/enrollment-status';
import { fromMinor } from '../../../shared/money';
import type { Page } from '../../../shared/pagination';
import { AppError, isUniqueViolation } from '../../errors';
import { assertId, iso, ilikeContains, isUuid, offsetOf } from '../common';
import { getCurrencySettings } from '../settings/settings.service';
import { buildInstallmentSchedule, paidColumns, toInstallmentDto as toBaseInstallmentDto } from '../installments';
import { todayIn } from './dates';
import type {
  TCreateEnrollmentInput,
  TDeleteEnrollmentInput,
  TListEnrollmentsInput,
  TOverdueInput,
  TPayAdmissionFeeInput,
  TPayInstallmentInput,
  TUpdateEnrollmentInput,
} from '@shared/schemas/enrollments';

interface Ctx {
  db: Db;
  deps: Pick<AppDeps, 'config'>;
  /** Who is acting; absent for internal callers, which are never limited to a branch. */
  actor?: Actor | null;
}

const NOT_FOUND = 'Enrollment not found.';
const ALREADY_ENROLLED = 'User is already enrolled in this course';
const USER_NOT_FOUND = 'User not found. Please check the email.';
const COMPLETED_LOCKED = 'This enrollment is completed; its payments can no longer be changed.';

const today = (ctx: Ctx) => todayIn(ctx.deps.config.TIME_ZONE);
/** A limited manager reaches only enrolments of their branch's students (docs/security.md#branch-scope). */
const inScope = (ctx: Ctx, id: string) => assertRecordInScope(ctx, 'enrollment', id, NOT_FOUND);

// ---------------------------------------------------------------------------------------------
// Answers (docs/product.md#records-and-their-fields names)

const enrollmentColumns = {
  e: enrollments,
  user: { id: users.id, username: users.username, email: users.email },
  course: { id: courses.id, courseName: courses.courseName, totalFee: courses.totalFee },
};

function selectEnrollments(db: Db) {
  return db
    .select(enrollmentColumns)
    .from(enrollments)
    .leftJoin(users, eq(users.id, enrollments.userId))
    .leftJoin(courses, eq(courses.id, enrollments.courseId));
}

type EnrollmentJoinRow = Awaited<ReturnType<ReturnType<typeof selectEnrollments>['execute']>>[number];
type InstallmentRow = typeof enrollmentInstallments.$inferSelect;

export function toInstallmentDto(i: InstallmentRow, todayIso: string) {
  return { ...toBaseInstallmentDto(i), isOverdue: !i.isPaid && i.dueDate < todayIso };
}

function toEnrollmentDto(r: EnrollmentJoinRow, installments: InstallmentRow[], todayIso: string) {
  const e = r.e;
  const status = e.status === 'completed' ? 'Completed' : 'Active';
  const paidMinor =
    (e.admissionFeePaid ? e.admissionFee : 0) + installments.reduce((s, i) => s + (i.isPaid ? i.amount : 0), 0);
  const dueMinor = e.admissionFee + e.totalFee;
  return {
    _id: e.id,
    userId: r.user?.id ? { _id: r.user.id, username: r.user.username, email: r.user.email } : null,
    courseId: r.course?.id
      ? { _id: r.course.id, courseName: r.course.courseName, totalFee: fromMinor(r.course.totalFee) }
      : null,
    paymentType: e.paymentType,
    admissionFeePaid: e.admissionFeePaid,
    admissionFeePaidAt: iso(e.admissionFeePaidAt),
    admissionFee: fromMinor(e.admissionFee),
    totalFee: fromMinor(e.totalFee),
    currency: e.currency,
    status,
    displayStatus: enrollmentDisplayStatus({
      status,
      admissionFeePaid: e.admissionFeePaid,
      admissionFee: e.admissionFee,
      installments,
    }),
    installments: installments.map((i) => toInstallmentDto(i, todayIso)),
    paidAmount: fromMinor(paidMinor),
    outstandingAmount: fromMinor(dueMinor - paidMinor),
    enrolledOn: e.enrolledOn,
    completedAt: iso(e.completedAt),
    deletedUsername: e.deletedUsername,
    deletedEmail: e.deletedEmail,
    deletedCourseName: e.deletedCourseName,
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
  };
}
export type EnrollmentDto = ReturnType<typeof toEnrollmentDto>;

/** One query for the installments of a whole page of enrolments (no N+1). */
async function withInstallments(db: Db, rows: EnrollmentJoinRow[], todayIso: string): Promise<EnrollmentDto[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.e.id);
  const inst = await db
    .select()
    .from(enrollmentInstallments)
    .where(inArray(enrollmentInstallments.enrollmentId, ids))
    .orderBy(asc(enrollmentInstallments.enrollmentId), asc(enrollmentInstallments.seq));
  const byEnrollment = new Map<string, InstallmentRow[]>();
  for (const i of inst) {
    const list = byEnrollment.get(i.enrollmentId);
    if (list) list.push(i);
    else byEnrollment.set(i.enrollmentId, [i]);
  }
  return rows.map((r) => toEnrollmentDto(r, byEnrollment.get(r.e.id) ?? [], todayIso));
}

async function loadEnrollment(ctx: Ctx, id: string): Promise<EnrollmentDto> {
  const [row] = await selectEnrollments(ctx.db).where(eq(enrollments.id, id)).limit(1);
  if (!row) throw new AppError('NOT_FOUND', NOT_FOUND);
  const [dto] = await withInstallments(ctx.db, [row], today(ctx));
  return dto!;
}

// ---------------------------------------------------------------------------------------------
// Display status in SQL, so the status filter pages on the server. Mirrors enrollmentDisplayStatus.

const hasUnpaid = sql`exists (select 1 from ${enrollmentInstallments} where ${enrollmentInstallments.enrollmentId} = ${enrollments.id} and ${enrollmentInstallments.isPaid} = false)`;
const hasPaid = sql`exists (select 1 from ${enrollmentInstallments} where ${enrollmentInstallments.enrollmentId} = ${enrollments.id} and ${enrollmentInstallments.isPaid} = true)`;
const settled = or(eq(enrollments.admissionFeePaid, true), eq(enrollments.admissionFee, 0))!;
const fullyPaid = and(settled, not(hasUnpaid))!;

function displayStatusWhere(s: DisplayStatus): SQL {
  switch (s) {
    case 'Completed':
      return and(eq(enrollments.status, 'completed'), fullyPaid)!;
    case 'Active (Paid)':
      return and(eq(enrollments.status, 'active'), fullyPaid)!;
    case 'Pending Payment':
      return and(not(fullyPaid), eq(enrollments.admissionFeePaid, false), not(hasPaid))!;
    case 'Active (Partial)':
      return and(not(fullyPaid), or(eq(enrollments.admissionFeePaid, true), hasPaid))!;
  }
}

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
  const userMatch = or(ilikeContains(users.email, s), ilikeContains(users.username, s));
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

export async function listEnrollments(ctx: Ctx, input: TListEnrollmentsInput): Promise<Page<EnrollmentDto>> {
  const empty = { items: [], total: 0, page: input.page, pageSize: input.pageSize };
  if ((input.courseId && !isUuid(input.courseId)) || (input.userId && !isUuid(input.userId))) return empty;
  const s = input.search;
  const scope = await branchScopeOf(ctx);
  const where = and(
    branchCondition(scope),
    s
      ? or(
          ...(await searchIdConditions(ctx.db, s)),
          ilikeContains(enrollments.deletedEmail, s),
          ilikeContains(enrollments.deletedUsername, s),
          ilikeContains(enrollments.deletedCourseName, s),
        )
      : undefined,
    input.displayStatus ? displayStatusWhere(input.displayStatus) : undefined,
    input.courseId ? eq(enrollments.courseId, input.courseId) : undefined,
    input.userId ? eq(enrollments.userId, input.userId) : undefined,
  );
  const order = input.sortDir === 'asc' ? asc(SORT[input.sortBy]) : desc(SORT[input.sortBy]);
  const [rows, [total]] = await Promise.all([
    selectEnrollments(ctx.db)
      .where(where)
      .orderBy(order, asc(enrollments.id))
      .limit(input.pageSize)
      .offset(offsetOf(input.page, input.pageSize)),
    ctx.db
      .select({ n: count() })
      .from(enrollments)
      .leftJoin(users, eq(users.id, enrollments.userId))
      .leftJoin(courses, eq(courses.id, enrollments.courseId))
      .where(where),
  ]);
  return {
    items: await withInstallments(ctx.db, rows, today(ctx)),
    total: total?.n ?? 0,
    page: input.page,
    pageSize: input.pageSize,
  };
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
  return withInstallments(ctx.db, rows, today(ctx));
}

export async function getEnrollment(ctx: Ctx, id: string): Promise<EnrollmentDto> {
  assertId(id, 'Enrollment');
  await inScope(ctx, id);
  return loadEnrollment(ctx, id);
}

/** Unpaid installments due before today, oldest first, with who owes them. */
export async function listOverdueInstallments(ctx: Ctx, input: TOverdueInput) {
  const todayIso = today(ctx);
  const rows = await ctx.db
    .select({
      inst: enrollmentInstallments,
      enrollmentId: enrollments.id,
      deletedUsername: enrollments.deletedUsername,
      deletedEmail: enrollments.deletedEmail,
      deletedCourseName: enrollments.deletedCourseName,
      user: { id: users.id, username: users.username, email: users.email },
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
  return rows.map((r) => ({
    ...toInstallmentDto(r.inst, todayIso),
    installmentNumber: r.inst.seq + 1,
    enrollmentId: r.enrollmentId,
    userId: r.user?.id ? { _id: r.user.id, username: r.user.username, email: r.user.email } : null,
    courseId: r.course?.id ? { _id: r.course.id, courseName: r.course.courseName } : null,
    deletedUsername: r.deletedUsername,
    deletedEmail: r.deletedEmail,
    deletedCourseName: r.deletedCourseName,
  }));
}

/**
 * Three counts in one SQL round trip: both enrolment counts in one pass over enrollments; the
 * overdue count reads only the partial unpaid-by-due-date index.
 */
export async function enrollmentStatistics(ctx: Ctx) {
  const todayIso = today(ctx);
  const mine = ownerInScope(await branchScopeOf(ctx), enrollments.userId);
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
}

export async function currencySettings(ctx: Ctx) {
  return getCurrencySettings(ctx.db);
}

// ---------------------------------------------------------------------------------------------
// Writes

async function findUserId(db: Db, input: TCreateEnrollmentInput): Promise<string> {
  const where = input.userId
    ? isUuid(input.userId)
      ? eq(users.id, input.userId)
      : undefined
    : eq(sql`lower(${users.email})`, input.email!.trim().toLowerCase());
  if (!where) throw new AppError('NOT_FOUND', USER_NOT_FOUND);
  const [u] = await db.select({ id: users.id }).from(users).where(where).limit(1);
  if (!u) throw new AppError('NOT_FOUND', USER_NOT_FOUND);
  return u.id;
}

export async function createEnrollment(ctx: Ctx, input: TCreateEnrollmentInput): Promise<EnrollmentDto> {
  const userId = await findUserId(ctx.db, input);
  await assertUserInScope(ctx, userId, USER_NOT_FOUND);
  assertId(input.courseId, 'Course');
  const enrolledOn = today(ctx);
  let id: string;
  try {
    id = await ctx.db.transaction(async (tx) => {
      const [course] = await tx.select().from(courses).where(eq(courses.id, input.courseId)).limit(1);
      if (!course) throw new AppError('NOT_FOUND', 'Course not found.');
      const [open] = await tx
        .select({ id: enrollments.id })
        .from(enrollments)
        .where(
          and(eq(enrollments.userId, userId), eq(enrollments.courseId, course.id), eq(enrollments.status, 'active')),
        )
        .limit(1);
      if (open) throw new AppError('CONFLICT', ALREADY_ENROLLED);
      const [row] = await tx
        .insert(enrollments)
        .values({
          userId,
          courseId: course.id,
          paymentType: input.paymentType,
          totalFee: course.totalFee,
          admissionFee: course.admissionFee,
          currency: course.currency,
          enrolledOn,
        })
        .returning({ id: enrollments.id });
      const schedule = buildInstallmentSchedule(course.totalFee, input.paymentType, course.installments, enrolledOn);
      await tx.insert(enrollmentInstallments).values(schedule.map((p) => ({ ...p, enrollmentId: row!.id })));
      return row!.id;
    });
  } catch (err) {
    // Two simultaneous enrolments: the partial unique index refuses the second.
    if (isUniqueViolation(err)) throw new AppError('CONFLICT', ALREADY_ENROLLED);
    throw err;
  }
  return loadEnrollment(ctx, id);
}

/** Locks the enrolment row so concurrent toggles and `complete` see one consistent state. */
async function lockEnrollment(tx: Db, id: string) {
  assertId(id, 'Enrollment');
  const [row] = await tx.select().from(enrollments).where(eq(enrollments.id, id)).for('update').limit(1);
  if (!row) throw new AppError('NOT_FOUND', NOT_FOUND);
  return row;
}

/** PUT: change the payment plan (only while nothing is paid) or the admission-fee state. */
export async function updateEnrollment(ctx: Ctx, input: TUpdateEnrollmentInput): Promise<EnrollmentDto> {
  await inScope(ctx, input.id);
  await ctx.db.transaction(async (tx) => {
    const e = await lockEnrollment(tx, input.id);
    if (e.status === 'completed' && (input.paymentType !== undefined || input.admissionFeePaid !== undefined)) {
      throw new AppError('CONFLICT', COMPLETED_LOCKED);
    }
    if (input.paymentType !== undefined && input.paymentType !== e.paymentType) {
      const [paid] = await tx
        .select({ n: count() })
        .from(enrollmentInstallments)
        .where(and(eq(enrollmentInstallments.enrollmentId, e.id), eq(enrollmentInstallments.isPaid, true)));
      if ((paid?.n ?? 0) > 0)
        throw new AppError('CONFLICT', 'The payment type cannot change once an installment is paid.');
      let parts = 1;
      if (input.paymentType === 'installment') {
        const [course] = e.courseId
          ? await tx
              .select({ installments: courses.installments })
              .from(courses)
              .where(eq(courses.id, e.courseId))
              .limit(1)
          : [];
        if (!course)
          throw new AppError(
            'CONFLICT',
            'The course of this enrollment was deleted, so its installment plan is unknown.',
          );
        parts = course.installments;
      }
      await tx.delete(enrollmentInstallments).where(eq(enrollmentInstallments.enrollmentId, e.id));
      const schedule = buildInstallmentSchedule(e.totalFee, input.paymentType, parts, e.enrolledOn);
      await tx.insert(enrollmentInstallments).values(schedule.map((p) => ({ ...p, enrollmentId: e.id })));
      await tx.update(enrollments).set({ paymentType: input.paymentType }).where(eq(enrollments.id, e.id));
    }
    if (input.admissionFeePaid !== undefined) await setAdmissionFee(tx, e, input.admissionFeePaid);
  });
  return loadEnrollment(ctx, input.id);
}

async function setAdmissionFee(tx: Db, e: typeof enrollments.$inferSelect, isPaid: boolean) {
  if (e.admissionFeePaid === isPaid) return;
  await tx
    .update(enrollments)
    .set({ admissionFeePaid: isPaid, admissionFeePaidAt: isPaid ? new Date() : null })
    .where(eq(enrollments.id, e.id));
}

/** Repeating a call is harmless: an already-paid installment keeps its first paidAt. */
export async function payInstallment(ctx: Ctx, input: TPayInstallmentInput): Promise<EnrollmentDto> {
  await inScope(ctx, input.id);
  await ctx.db.transaction(async (tx) => {
    const e = await lockEnrollment(tx, input.id);
    const isPaid = input.isPaid ?? true;
    const which =
      input.installmentId !== undefined
        ? isUuid(input.installmentId)
          ? eq(enrollmentInstallments.id, input.installmentId)
          : undefined
        : eq(enrollmentInstallments.seq, input.installmentIndex!);
    const [inst] = which
      ? await tx
          .select()
          .from(enrollmentInstallments)
          .where(and(eq(enrollmentInstallments.enrollmentId, e.id), which))
          .limit(1)
      : [];
    if (!inst) throw new AppError('NOT_FOUND', 'Installment not found in this enrollment.');
    if (inst.isPaid === isPaid) return;
    if (e.status === 'completed') throw new AppError('CONFLICT', COMPLETED_LOCKED);
    await tx.update(enrollmentInstallments).set(paidColumns(isPaid)).where(eq(enrollmentInstallments.id, inst.id));
    await tx.update(enrollments).set({ updatedAt: new Date() }).where(eq(enrollments.id, e.id));
  });
  return loadEnrollment(ctx, input.id);
}

export async function payAdmissionFee(ctx: Ctx, input: TPayAdmissionFeeInput): Promise<EnrollmentDto> {
  await inScope(ctx, input.id);
  await ctx.db.transaction(async (tx) => {
    const e = await lockEnrollment(tx, input.id);
    if (e.admissionFeePaid === input.isPaid) return;
    if (e.status === 'completed') throw new AppError('CONFLICT', COMPLETED_LOCKED);
    await setAdmissionFee(tx, e, input.isPaid);
  });
  return loadEnrollment(ctx, input.id);
}

function describeUnpaid(admissionUnpaid: boolean, unpaidInstallments: number): string {
  const parts: string[] = [];
  if (admissionUnpaid) parts.push('the admission fee is unpaid');
  if (unpaidInstallments > 0)
    parts.push(`${unpaidInstallments} ${unpaidInstallments === 1 ? 'installment is' : 'installments are'} unpaid`);
  return `Cannot complete this enrollment: ${parts.join(' and ')}.`;
}

/** docs/courses.md: only a fully paid enrolment completes; completing twice is harmless. */
export async function completeEnrollment(ctx: Ctx, id: string): Promise<EnrollmentDto> {
  await inScope(ctx, id);
  await ctx.db.transaction(async (tx) => {
    const e = await lockEnrollment(tx, id);
    if (e.status === 'completed') return;
    const [unpaid] = await tx
      .select({ n: count() })
      .from(enrollmentInstallments)
      .where(and(eq(enrollmentInstallments.enrollmentId, e.id), eq(enrollmentInstallments.isPaid, false)));
    const unpaidCount = unpaid?.n ?? 0;
    const admissionUnpaid = !isAdmissionSettled({ admissionFeePaid: e.admissionFeePaid, admissionFee: e.admissionFee });
    if (admissionUnpaid || unpaidCount > 0) {
      throw new AppError('CONFLICT', describeUnpaid(admissionUnpaid, unpaidCount), {
        admissionFeeUnpaid: admissionUnpaid,
        unpaidInstallments: unpaidCount,
      });
    }
    await tx.update(enrollments).set({ status: 'completed', completedAt: new Date() }).where(eq(enrollments.id, e.id));
  });
  return loadEnrollment(ctx, id);
}

/**
 * The caller names the enrolment's student as a guard against deleting the wrong row. An
 * enrolment whose user was deleted has no id left to match, so any id is accepted for it.
 */
export async function deleteEnrollment(ctx: Ctx, input: TDeleteEnrollmentInput): Promise<{ message: string }> {
  assertId(input.id, 'Enrollment');
  await inScope(ctx, input.id);
  return ctx.db.transaction(async (tx) => {
    const e = await lockEnrollment(tx, input.id);
    if (e.userId && e.userId !== input.userId) {
      throw new AppError('BAD_REQUEST', 'The user ID does not match this enrollment.');
    }
    await tx.delete(enrollments).where(eq(enrollments.id, e.id));
    return { message: 'Enrollment deleted successfully!' };
  });
}

// ---------------------------------------------------------------------------------------------
// Keeping history when a user or course goes (docs/courses.md). Call inside the deleting transaction,
// before the row is deleted: the foreign key then sets the id to null.

export async function detachUserFromEnrollments(tx: Db, userId: string): Promise<void> {
  const [u] = await tx
    .select({ username: users.username, email: users.email })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!u) return;
  await tx
    .update(enrollments)
    .set({ deletedUsername: u.username, deletedEmail: u.email })
    .where(eq(enrollments.userId, userId));
}

export async function detachCourseFromEnrollments(tx: Db, courseId: string): Promise<void> {
  const [c] = await tx
    .select({ courseName: courses.courseName })
    .from(courses)
    .where(eq(courses.id, courseId))
    .limit(1);
  if (!c) return;
  await tx.update(enrollments).set({ deletedCourseName: c.courseName }).where(eq(enrollments.courseId, courseId));
}
