import { z } from 'zod';
import {
  blankToUndefined,
  dateRangeMessage,
  hasYearInRange,
  MAX_MONEY,
  moneyRangeMessage,
  parseDay,
  zId,
  zOptionalText,
  zSearch,
  zText,
} from '@shared/schemas/primitives';
import { hasAtMostTwoDecimals } from '@shared/money';
import { ZPageInput, zSortBy } from '@shared/pagination';

export const REQUIRED = 'Please fill all the required fields.';
const NOT_A_NUMBER = 'Fees and installments must be valid numbers.';

/**
 * The old client's form sends numbers as strings; an empty value is a missing field, not zero
 * (z.coerce would turn '' into 0 and let a blank fee through).
 */
function numeric<T extends z.ZodTypeAny>(inner: T) {
  return z.preprocess((v) => {
    if (v === null || v === undefined) return undefined;
    if (typeof v === 'string') {
      const s = v.trim();
      if (!s) return undefined;
      const n = Number(s.replace(/,/g, ''));
      return Number.isNaN(n) ? s : n;
    }
    return v;
  }, inner);
}

const fee = (label: string) =>
  numeric(
    z
      .number({ error: (iss) => (iss.input === undefined ? REQUIRED : NOT_A_NUMBER) })
      .min(0, `${label} cannot be negative.`)
      .max(MAX_MONEY, `${label} is too large.`)
      .refine(hasAtMostTwoDecimals, `${label} can have at most two decimals.`),
  );

const text = (max: number, label: string) =>
  zText(label, { message: REQUIRED }).trim().min(1, REQUIRED).max(max, `${label} must be at most ${max} characters.`);

const courseFields = {
  courseName: text(150, 'Course name'),
  duration: text(100, 'Duration'),
  totalFee: fee('Total fee'),
  installments: numeric(
    z
      .number({ error: (iss) => (iss.input === undefined ? REQUIRED : NOT_A_NUMBER) })
      .int('Installments must be a whole number of at least 1.')
      .min(1, 'Installments must be a whole number of at least 1.')
      .max(120, 'Installments must be at most 120.'),
  ),
  category: text(100, 'Category'),
  admissionFee: fee('Admission fee'),
  currency: zText('Currency').trim().toUpperCase().length(3, 'Currency must be a three-letter code.').optional(),
  description: zText('Description', { multiline: true })
    .trim()
    .max(2000, 'Description must be at most 2000 characters.')
    .nullish(),
};

export const ZCreateCourseInput = z.object(courseFields);
export type TCreateCourseInput = z.infer<typeof ZCreateCourseInput>;

/** An inline edit may send every field or only the changed ones; a sent field must be valid. */
export const ZUpdateCourseFields = z.object(courseFields).partial();
export const ZUpdateCourseInput = ZUpdateCourseFields.extend({ id: zId('Course') });
export type TUpdateCourseInput = z.infer<typeof ZUpdateCourseInput>;

export const ZCourseIdInput = z.object({ id: zId('Course') });

/** The columns the list sorts by (its sortable headers). */
export const COURSE_SORT_COLUMNS = ['courseName', 'category', 'totalFee', 'createdAt'] as const;

export const ZListCoursesInput = ZPageInput.extend({
  category: zText('Category').trim().max(100, 'Category must be at most 100 characters.').optional(),
  sortBy: zSortBy(COURSE_SORT_COLUMNS, 'createdAt'),
});
export type TListCoursesInput = z.infer<typeof ZListCoursesInput>;

const optionalFee = (label: string) =>
  numeric(
    z
      .number({ error: 'Fee filters must be numbers.' })
      .min(0, 'Fee filters cannot be negative.')
      .max(MAX_MONEY, moneyRangeMessage(label))
      .refine(hasAtMostTwoDecimals, `${label} can have at most two decimals.`)
      .optional(),
  );
/** A day (YYYY-MM-DD, years 1900-2100); an ISO date-time is accepted and cut to its day. */
const optionalDate = (label: string) =>
  z.preprocess(
    blankToUndefined,
    z
      .string({ error: 'Dates must be valid dates (YYYY-MM-DD).' })
      .trim()
      .transform((s, ctx) => {
        const day = parseDay(s.slice(0, 10));
        if (day && (s.length === 10 || (s[10] === 'T' && !Number.isNaN(Date.parse(s))))) return s;
        const outOfRange = /^\d{4}-\d{2}-\d{2}/.test(s) && !hasYearInRange(s);
        ctx.addIssue({
          code: 'custom',
          message: outOfRange ? dateRangeMessage(label) : 'Dates must be valid dates (YYYY-MM-DD).',
        });
        return z.NEVER;
      })
      .optional(),
  );

/** GET /api/course/filtered: every filter optional; dates bound the creation date (inclusive days). */
export const ZFilterCoursesInput = z.object({
  category: zOptionalText('Category', 100),
  minFee: optionalFee('Minimum fee'),
  maxFee: optionalFee('Maximum fee'),
  startDate: optionalDate('Start date'),
  endDate: optionalDate('End date'),
  search: z.preprocess(blankToUndefined, zSearch().optional()),
});
export type TFilterCoursesInput = z.infer<typeof ZFilterCoursesInput>;
