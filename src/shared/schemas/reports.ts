import { z } from 'zod';
import {
  blankToUndefined,
  dateRangeMessage,
  MAX_MONEY,
  moneyRangeMessage,
  parseDay,
  zId,
  zText,
} from '@shared/schemas/primitives';
import { hasAtMostTwoDecimals, toMinor } from '@shared/money';
import { COURSE_REPORT_COLUMNS, TREATMENT_REPORT_COLUMNS, USER_REPORT_COLUMNS } from '@shared/report-columns';
import { ROLES } from '@shared/roles';

/** Query strings arrive as text; an empty value (`?category=`) means "no filter". */

/**
 * How the Reports screen labels each filter: messages name fields that way, so the person who
 * typed the value recognises it (the 400's `details` still carry the query parameter's name).
 */
const LABELS: Record<string, string> = {
  minFee: 'Min Fee',
  maxFee: 'Max Fee',
  minPrice: 'Min Price',
  maxPrice: 'Max Price',
  startDate: 'Start Date',
  endDate: 'End Date',
};
const labelOf = (name: string) => LABELS[name] ?? name;

const amount = (name: string) =>
  z.preprocess(
    blankToUndefined,
    z
      .union([z.string(), z.number()], { message: `${labelOf(name)} must be a number.` })
      .transform((v, ctx) => {
        const n = typeof v === 'number' ? v : Number(v.trim());
        if (!Number.isFinite(n)) {
          ctx.addIssue({ code: 'custom', message: `${labelOf(name)} must be a number.` });
          return z.NEVER;
        }
        if (n > MAX_MONEY) {
          ctx.addIssue({ code: 'custom', message: moneyRangeMessage(labelOf(name)) });
          return z.NEVER;
        }
        if (n < 0 || !hasAtMostTwoDecimals(n)) {
          ctx.addIssue({ code: 'custom', message: `${labelOf(name)} must be 0 or more, with at most two decimals.` });
          return z.NEVER;
        }
        return toMinor(n);
      })
      .optional(),
  );

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})/;
/** YYYY-MM-DD (an ISO date-time is cut to its date): the filters work on whole days. */
const day = (name: string) =>
  z.preprocess(
    blankToUndefined,
    z
      .string({ message: `${labelOf(name)} must be a date (YYYY-MM-DD).` })
      .transform((v, ctx) => {
        const m = DATE_RE.exec(v.trim());
        const d = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
        if (!m || !d || d.getUTCMonth() !== Number(m[2]) - 1 || d.getUTCDate() !== Number(m[3])) {
          ctx.addIssue({ code: 'custom', message: `${labelOf(name)} must be a date (YYYY-MM-DD).` });
          return z.NEVER;
        }
        // Bounded so that endDate + 1 day and the time-zone shift stay valid in PostgreSQL and Date.
        if (!parseDay(`${m[1]}-${m[2]}-${m[3]}`)) {
          ctx.addIssue({ code: 'custom', message: dateRangeMessage(labelOf(name)) });
          return z.NEVER;
        }
        return `${m[1]}-${m[2]}-${m[3]}`;
      })
      .optional(),
  );

const category = z.preprocess(
  blankToUndefined,
  zText('Category').trim().max(100, 'Category must be at most 100 characters.').optional(),
);

export const ZReportFormat = z.preprocess(
  blankToUndefined,
  z.enum(['json', 'xlsx', 'pdf'], { message: 'format must be one of json, xlsx, pdf.' }).optional(),
);

interface RangeShape {
  min?: number;
  max?: number;
  startDate?: string;
  endDate?: string;
}

function checkRanges(v: RangeShape, ctx: z.RefinementCtx, minName: string, maxName: string) {
  if (v.min !== undefined && v.max !== undefined && v.min > v.max) {
    ctx.addIssue({
      code: 'custom',
      path: [minName],
      message: `${labelOf(minName)} cannot be greater than ${labelOf(maxName)}.`,
    });
  }
  if (v.startDate && v.endDate && v.startDate > v.endDate) {
    ctx.addIssue({ code: 'custom', path: ['startDate'], message: 'Start Date cannot be after End Date.' });
  }
}

/** Money filters are kept in minor units from here on. */
export const ZCourseReportFilters = z
  .object({
    category,
    minFee: amount('minFee'),
    maxFee: amount('maxFee'),
    startDate: day('startDate'),
    endDate: day('endDate'),
  })
  .superRefine((v, ctx) => checkRanges({ min: v.minFee, max: v.maxFee, ...v }, ctx, 'minFee', 'maxFee'));
export type TCourseReportFilters = z.infer<typeof ZCourseReportFilters>;

/** Treatments speak of price; minFee/maxFee are accepted too, as the old screens sent them. */
export const ZTreatmentReportFilters = z
  .object({
    category,
    minPrice: amount('minPrice'),
    maxPrice: amount('maxPrice'),
    minFee: amount('minFee'),
    maxFee: amount('maxFee'),
    startDate: day('startDate'),
    endDate: day('endDate'),
  })
  .transform(({ minFee, maxFee, ...v }) => ({ ...v, minPrice: v.minPrice ?? minFee, maxPrice: v.maxPrice ?? maxFee }))
  .superRefine((v, ctx) => checkRanges({ min: v.minPrice, max: v.maxPrice, ...v }, ctx, 'minPrice', 'maxPrice'));
export type TTreatmentReportFilters = z.infer<typeof ZTreatmentReportFilters>;

export const ZUserReportFilters = z
  .object({
    role: z.preprocess(
      blankToUndefined,
      z.enum(ROLES, { message: `role must be one of ${ROLES.join(', ')}.` }).optional(),
    ),
    branchId: z.preprocess(blankToUndefined, z.string().uuid('branchId must be a branch id.').optional()),
    startDate: day('startDate'),
    endDate: day('endDate'),
  })
  .superRefine((v, ctx) => checkRanges(v, ctx, '', ''));
export type TUserReportFilters = z.infer<typeof ZUserReportFilters>;

function columnsSchema<T extends string>(allowed: readonly T[]) {
  return z
    .array(z.string({ message: 'fields must be a list of column names.' }), {
      message: 'fields must be a list of column names.',
    })
    .max(allowed.length * 2)
    .superRefine((cols, ctx) => {
      const bad = cols.filter((c) => !(allowed as readonly string[]).includes(c));
      if (bad.length) {
        ctx.addIssue({
          code: 'custom',
          message: `Unknown report column${bad.length > 1 ? 's' : ''}: ${bad.join(', ')}. Allowed columns: ${allowed.join(', ')}.`,
        });
      }
    })
    .transform((cols) => [...new Set(cols)] as T[])
    .optional();
}

/** Body of the custom report calls: `{ fields }` (`columns` accepted as another name). */
function customBody<T extends string>(allowed: readonly T[]) {
  return z
    .object({ fields: columnsSchema(allowed), columns: columnsSchema(allowed) })
    .transform((b) => ({ fields: b.fields?.length ? b.fields : b.columns?.length ? b.columns : undefined }));
}

export const ZCourseCustomBody = customBody(COURSE_REPORT_COLUMNS);
export const ZTreatmentCustomBody = customBody(TREATMENT_REPORT_COLUMNS);
export const ZUserCustomBody = customBody(USER_REPORT_COLUMNS);

export const ZCourseReportQuery = z.intersection(z.object({ format: ZReportFormat }), ZCourseReportFilters);
export const ZTreatmentReportQuery = z.intersection(z.object({ format: ZReportFormat }), ZTreatmentReportFilters);
export const ZUserReportQuery = z.intersection(z.object({ format: ZReportFormat }), ZUserReportFilters);

export const ZReportFileIdInput = z.object({ id: zId('Report file') });

/**
 * What a report is, in a form that can be stored on a report_files row and rebuilt by the job.
 * Money filters are minor units.
 */
/** A list report: its filters, and the columns it shows when it is a custom one. */
const listSpec = <R extends string, F extends z.ZodType>(report: R, filters: F) =>
  z.object({ report: z.literal(report), filters, fields: z.array(z.string()).optional() });
const fixedSpec = <R extends string, F extends z.ZodType>(report: R, filters: F) =>
  z.object({ report: z.literal(report), filters });
const courseFilters = z.custom<TCourseReportFilters>();
const treatmentFilters = z.custom<TTreatmentReportFilters>();

export const ZReportSpec = z.discriminatedUnion('report', [
  listSpec('users', z.custom<TUserReportFilters>()),
  listSpec('courses', courseFilters),
  fixedSpec('enrollments', courseFilters),
  fixedSpec('course-revenue', courseFilters),
  listSpec('treatments', treatmentFilters),
  fixedSpec('bookings', treatmentFilters),
  fixedSpec('treatment-revenue', treatmentFilters),
]);
export type TReportSpec = z.infer<typeof ZReportSpec>;

/** How many rows a report would have with these filters (the Reports tab shows it after Apply). */
export const ZReportCountInput = z.discriminatedUnion('report', [
  z.object({ report: z.literal('courses'), filters: ZCourseReportFilters }),
  z.object({ report: z.literal('enrollments'), filters: ZCourseReportFilters }),
  z.object({ report: z.literal('treatments'), filters: ZTreatmentReportFilters }),
  z.object({ report: z.literal('bookings'), filters: ZTreatmentReportFilters }),
]);
export type TReportCountInput = z.infer<typeof ZReportCountInput>;
