import { z } from 'zod';
import { hasAtMostTwoDecimals } from '@shared/money';
import { ZPageInput } from '@shared/pagination';

export const REQUIRED = 'Please fill all the required fields.';
const NOT_A_NUMBER = 'Fees and installments must be valid numbers.';
/** Fees are stored in minor units as bigint; this keeps them inside numeric(12,2). */
const MAX_FEE = 9_999_999_999.99;

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
      .max(MAX_FEE, `${label} is too large.`)
      .refine(hasAtMostTwoDecimals, `${label} can have at most two decimals.`),
  );

const text = (max: number, label: string) =>
  z.string({ message: REQUIRED }).trim().min(1, REQUIRED).max(max, `${label} must be at most ${max} characters.`);

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
  currency: z.string().trim().toUpperCase().length(3, 'Currency must be a three-letter code.').optional(),
  description: z.string().trim().max(2000, 'Description must be at most 2000 characters.').nullish(),
};

export const ZCreateCourseInput = z.object(courseFields);
export type TCreateCourseInput = z.infer<typeof ZCreateCourseInput>;

/** An inline edit may send every field or only the changed ones; a sent field must be valid. */
export const ZUpdateCourseFields = z.object(courseFields).partial();
export const ZUpdateCourseInput = ZUpdateCourseFields.extend({ id: z.string() });
export type TUpdateCourseInput = z.infer<typeof ZUpdateCourseInput>;

export const ZCourseIdInput = z.object({ id: z.string() });

export const ZListCoursesInput = ZPageInput.extend({
  category: z.string().trim().max(100).optional(),
  sortBy: z.enum(['courseName', 'category', 'totalFee', 'createdAt']).default('createdAt'),
});
export type TListCoursesInput = z.infer<typeof ZListCoursesInput>;

const optionalFee = numeric(z.number({ error: 'Fee filters must be numbers.' }).min(0, 'Fee filters cannot be negative.').optional());
const optionalDate = z.preprocess(
  (v) => (typeof v === 'string' && !v.trim() ? undefined : v),
  z
    .string()
    .trim()
    .refine((s) => !Number.isNaN(Date.parse(s)), 'Dates must be valid dates (YYYY-MM-DD).')
    .optional(),
);

/** GET /api/course/filtered: every filter optional; dates bound the creation date (inclusive days). */
export const ZFilterCoursesInput = z.object({
  category: z.preprocess((v) => (typeof v === 'string' && !v.trim() ? undefined : v), z.string().trim().max(100).optional()),
  minFee: optionalFee,
  maxFee: optionalFee,
  startDate: optionalDate,
  endDate: optionalDate,
  search: z.preprocess((v) => (typeof v === 'string' && !v.trim() ? undefined : v), z.string().trim().max(200).optional()),
});
export type TFilterCoursesInput = z.infer<typeof ZFilterCoursesInput>;
