import { eq } from 'drizzle-orm';
import { batches, branches } from '../../db/schema';
import { AppError } from '../../errors';
import { branchScopeOf } from '../branch-scope';
import { periodFilterLines } from '../reports/report-filters';
import { attendanceStatsOf, NO_FIGURES, rateOf } from '../classes/attendance.stats';
import { studentOf } from '../classes/roster.service';
import type { ServiceContext } from '../context';
import { isUuid } from '../ids';
import {
  batchFigures,
  placesOf,
  rosterPlaces,
  type AttendanceReportScope,
  type StudentKey,
} from './attendance-reports.sql';
import {
  ATTENDANCE_REPORT_PAGE,
  type TAttendanceBatchRow,
  type TAttendanceReport,
  type TAttendanceReportFilters,
  type TAttendanceStudentPage,
  type TAttendanceStudentRow,
  type TAttendanceStudentsInput,
} from '@shared/schemas/attendance-reports';

export const ATTENDANCE_REPORT_MESSAGES = {
  branch: 'Branch is not valid.',
  batch: 'Batch is not valid.',
  cursor: 'The cursor is not valid: send back a nextCursor of the same report.',
  branchNotFound: 'Branch not found.',
  batchNotFound: 'Batch not found.',
} as const;

/** The roster places read (and their figures worked out) per statement when walking the students. */
export const STUDENT_CHUNK = 1000;

/**
 * What a caller's report covers. A manager limited to a branch (docs/security.md#branch-scope)
 * always gets that branch, whatever branchId they send; a batch of another branch is not found for
 * them. An id that is not an id answers 400, one of nothing 404.
 */
export async function attendanceReportScope(
  ctx: ServiceContext,
  f: Pick<TAttendanceReportFilters, 'from' | 'to' | 'branchId' | 'batchId'>,
): Promise<AttendanceReportScope> {
  if (f.branchId !== undefined && !isUuid(f.branchId))
    throw new AppError('BAD_REQUEST', ATTENDANCE_REPORT_MESSAGES.branch);
  if (f.batchId !== undefined && !isUuid(f.batchId))
    throw new AppError('BAD_REQUEST', ATTENDANCE_REPORT_MESSAGES.batch);
  const limit = await branchScopeOf(ctx);
  const branchId = limit ? limit.branchId : (f.branchId ?? null);
  if (!limit && branchId) {
    const [row] = await ctx.db.select({ id: branches.id }).from(branches).where(eq(branches.id, branchId)).limit(1);
    if (!row) throw new AppError('NOT_FOUND', ATTENDANCE_REPORT_MESSAGES.branchNotFound);
  }
  if (f.batchId) {
    const [row] = await ctx.db
      .select({ branchId: batches.branchId })
      .from(batches)
      .where(eq(batches.id, f.batchId))
      .limit(1);
    if (!row || (limit && row.branchId !== limit.branchId))
      throw new AppError('NOT_FOUND', ATTENDANCE_REPORT_MESSAGES.batchNotFound);
  }
  return {
    from: f.from,
    to: f.to,
    branchId,
    batchId: f.batchId ?? null,
    none: limit !== null && limit.branchId === null,
    now: new Date(),
  };
}

/** The batches' figures (the rate from the marks, as for a student). */
export async function batchRows(ctx: ServiceContext, s: AttendanceReportScope): Promise<TAttendanceBatchRow[]> {
  return (await batchFigures(ctx.db, s)).map((r) => ({
    batch: { _id: r.batchId, name: r.batchName, status: r.batchStatus },
    branch: { _id: r.branchId, name: r.branchName },
    sessions: r.sessions,
    held: r.held,
    cancelled: r.cancelled,
    upcoming: r.upcoming,
    present: r.present,
    late: r.late,
    absent: r.absent,
    excused: r.excused,
    unmarked: r.unmarked,
    rate: rateOf(r),
  }));
}

interface StudentChunk {
  rows: Array<TAttendanceStudentRow & { key: StudentKey }>;
  /** The last roster place read: the walk goes on after it. */
  last: StudentKey | null;
  /** True when fewer places than asked were left. */
  done: boolean;
}

/**
 * `size` roster places after `after`, each with its figures over the range: one keyset read and one
 * aggregate (attendanceStatsOf, the rate rule of docs/classes.md#rates), whatever the size.
 */
async function studentChunk(
  ctx: ServiceContext,
  s: AttendanceReportScope,
  after: StudentKey | null,
  size: number,
): Promise<StudentChunk> {
  const places = await rosterPlaces(ctx.db, s, after, size);
  if (!places.length) return { rows: [], last: after, done: true };
  const stats = await attendanceStatsOf(ctx.db, placesOf(places.map((p) => p.enrollmentId)), s.now, {
    from: s.from,
    to: s.to,
  });
  const rows = places.map((p) => {
    const { absentInARow: _run, ...f } = stats.get(p.enrollmentId) ?? NO_FIGURES;
    return {
      enrollmentId: p.enrollmentId,
      batch: { _id: p.batchId, name: p.batchName },
      student: studentOf(p),
      ...f,
      key: { batchName: p.batchName, batchId: p.batchId, sortName: p.sortName, enrollmentId: p.enrollmentId },
    };
  });
  const lastPlace = places.at(-1)!;
  return {
    rows,
    last: {
      batchName: lastPlace.batchName,
      batchId: lastPlace.batchId,
      sortName: lastPlace.sortName,
      enrollmentId: lastPlace.enrollmentId,
    },
    done: places.length < size,
  };
}

/** A row under the threshold: a rate, and below it (the falling-behind list's rule). */
export const isUnder = (rate: number | null, threshold: number) => rate !== null && rate < threshold;

/**
 * Every student row after `after` (or those under `threshold`), in batches of at most STUDENT_CHUNK,
 * for the files: flat memory however many students.
 */
export async function* studentRows(
  ctx: ServiceContext,
  s: AttendanceReportScope,
  under: number | null = null,
): AsyncGenerator<TAttendanceStudentRow[]> {
  let after: StudentKey | null = null;
  for (;;) {
    const chunk = await studentChunk(ctx, s, after, STUDENT_CHUNK);
    const rows = chunk.rows.filter((r) => under === null || isUnder(r.rate, under)).map(({ key: _key, ...r }) => r);
    if (rows.length) yield rows;
    if (chunk.done) return;
    after = chunk.last;
  }
}

const encodeCursor = (k: StudentKey) =>
  Buffer.from(JSON.stringify([k.batchName, k.batchId, k.sortName, k.enrollmentId])).toString('base64url');

function decodeCursor(cursor: string): StudentKey {
  let v: unknown = null;
  try {
    v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    // answered below
  }
  if (Array.isArray(v) && v.length === 4 && v.every((x) => typeof x === 'string')) {
    const [batchName, batchId, sortName, enrollmentId] = v as [string, string, string, string];
    if (isUuid(batchId) && isUuid(enrollmentId)) return { batchName, batchId, sortName, enrollmentId };
  }
  throw new AppError('BAD_REQUEST', ATTENDANCE_REPORT_MESSAGES.cursor);
}

/**
 * One page of the student rows (or of those under `threshold`), and the cursor of the rows after
 * it. The students under the threshold are found by walking the roster places a chunk at a time
 * until the page and one more row are found, so a page costs a few aggregates, not one per student.
 */
async function studentPage(
  ctx: ServiceContext,
  s: AttendanceReportScope,
  o: { cursor?: string; limit: number; under: number | null },
): Promise<TAttendanceStudentPage> {
  let after = o.cursor ? decodeCursor(o.cursor) : null;
  const found: Array<TAttendanceStudentRow & { key: StudentKey }> = [];
  const size = o.under === null ? o.limit + 1 : STUDENT_CHUNK;
  for (;;) {
    const chunk = await studentChunk(ctx, s, after, size);
    const under = o.under;
    found.push(...(under === null ? chunk.rows : chunk.rows.filter((r) => isUnder(r.rate, under))));
    if (found.length > o.limit || chunk.done) break;
    after = chunk.last;
  }
  const page = found.slice(0, o.limit);
  const more = found.length > o.limit;
  return {
    data: page.map(({ key: _key, ...r }) => r),
    nextCursor: more && page.length ? encodeCursor(page.at(-1)!.key) : null,
  };
}

/** The report's figures for a scope, with the first page of each student list. */
export async function attendanceReportOf(
  ctx: ServiceContext,
  s: AttendanceReportScope,
  limit = ATTENDANCE_REPORT_PAGE,
): Promise<TAttendanceReport> {
  const threshold = ctx.deps.config.ATTENDANCE_THRESHOLD;
  const [byBatch, byStudent, underThreshold] = await Promise.all([
    batchRows(ctx, s),
    studentPage(ctx, s, { limit, under: null }),
    studentPage(ctx, s, { limit, under: threshold }),
  ]);
  return {
    from: s.from,
    to: s.to,
    branchId: s.branchId,
    batchId: s.batchId,
    threshold,
    byBatch,
    byStudent,
    underThreshold,
  };
}

/** GET /api/reports/attendance and tRPC attendanceReports.get. Staff only (the callers check). */
export async function attendanceReport(ctx: ServiceContext, f: TAttendanceReportFilters): Promise<TAttendanceReport> {
  return attendanceReportOf(ctx, await attendanceReportScope(ctx, f));
}

/** GET /api/reports/attendance/students and tRPC attendanceReports.students: the next page of a list. */
export async function attendanceStudents(
  ctx: ServiceContext,
  input: TAttendanceStudentsInput,
): Promise<TAttendanceStudentPage> {
  const s = await attendanceReportScope(ctx, input);
  const under = input.list === 'underThreshold' ? ctx.deps.config.ATTENDANCE_THRESHOLD : null;
  return studentPage(ctx, s, { cursor: input.cursor, limit: input.limit, under });
}

/** The filters as the files print them, the branch's and batch's names looked up. */
export async function attendanceReportFilterLines(ctx: ServiceContext, s: AttendanceReportScope): Promise<string[]> {
  const lines = await periodFilterLines(ctx.db, s);
  if (s.batchId) {
    const id = s.batchId;
    const [row] = await ctx.db.select({ n: batches.name }).from(batches).where(eq(batches.id, id)).limit(1);
    lines.push(`Batch: ${row?.n ?? 'Unknown'}`);
  }
  return lines;
}
