import { z } from 'zod';

/**
 * The bounds every input schema shares (docs/security.md, "Input limits"). A value outside them
 * is refused with a 400 and a message naming the field as the screen labels it, before it can
 * reach PostgreSQL (which refuses NUL in text, years past 294276, int4 past 2147483647) or `Date`.
 */

/** C0 control characters except tab, line feed and carriage return, plus DEL. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_MULTILINE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
/** Single-line text: no control characters at all (a tab or newline in a name is a paste accident). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_SINGLE_LINE = /[\u0000-\u001F\u007F]/;

export const hasNoControlChars = (s: string) => !CONTROL_SINGLE_LINE.test(s);
export const hasNoControlCharsMultiline = (s: string) => !CONTROL_MULTILINE.test(s);

const controlMessage = (label: string) =>
  `${label} contains characters that are not allowed (control characters such as NUL).`;

/**
 * A string without control characters. `label` names the field in the message; `multiline` lets
 * tab and newlines through (notes, descriptions, addresses). Chain `.trim()`, `.min()`, `.max()`.
 */
export function zText(label: string, opts: { multiline?: boolean; message?: string } = {}) {
  const base = opts.message !== undefined ? z.string({ error: opts.message }) : z.string();
  return base.refine(opts.multiline ? hasNoControlCharsMultiline : hasNoControlChars, controlMessage(label));
}

/** A blank text field is one left out: an empty or all-space string reads as undefined. */
export const blankToUndefined = (v: unknown) => (typeof v === 'string' && !v.trim() ? undefined : v);

/** Optional text, trimmed, of at most `max` characters; a blank one is left out. */
export const zOptionalText = (label: string, max: number) =>
  z.preprocess(
    blankToUndefined,
    zText(label).trim().max(max, `${label} must be at most ${max} characters.`).optional(),
  );

/** An id as sent by a screen or path: any text; services answer 404 when it names no row. */
export const zId = (label = 'Id') => zText(label).max(200, `${label} is not valid.`);

/** Search boxes: at most 200 characters. */
export const SEARCH_MAX = 200;
export const zSearch = (label = 'Search') =>
  zText(label).trim().max(SEARCH_MAX, `${label} must be at most ${SEARCH_MAX} characters.`);

// ------------------------------------------------------------------ dates

/** Years a date may name: wide enough for any birth date or plan, narrow enough for every engine. */
export const MIN_YEAR = 1900;
export const MAX_YEAR = 2100;
const yearInRange = (y: number) => y >= MIN_YEAR && y <= MAX_YEAR;
export const dateRangeMessage = (label: string) => `${label} must be between ${MIN_YEAR} and ${MAX_YEAR}.`;

const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** `YYYY-MM-DD` naming a real calendar day in 1900–2100; null otherwise. */
export function parseDay(s: string): string | null {
  const m = DAY_RE.exec(s);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
  return yearInRange(y) ? s : null;
}

/** A calendar day in TIME_ZONE as a filter bound: optional, and a blank field is no bound. */
export const zOptionalDay = (label: string) =>
  z.preprocess(
    blankToUndefined,
    zText(label)
      .refine((s) => parseDay(s) !== null, `${label} must be a date (YYYY-MM-DD) between 1900 and 2100.`)
      .optional(),
  );

/** True when the year part of `YYYY-...` (or of an ISO instant) is in 1900–2100. */
export function hasYearInRange(s: string): boolean {
  const m = /^(\d{4})-/.exec(s);
  return m !== null && yearInRange(Number(m[1]));
}

/** An ISO date-time with offset (`2025-01-31T10:00:00Z`), years 1900–2100. */
export const zInstant = (label: string) =>
  z.iso
    .datetime({ offset: true, error: `${label} must be an ISO date-time.` })
    .refine((s) => hasYearInRange(s) && !Number.isNaN(Date.parse(s)), dateRangeMessage(label));

// ------------------------------------------------------------------ money

/**
 * Amounts are stored as bigint minor units; 9,999,999,999.99 keeps every amount, and any sum of a
 * few thousand of them, exact in a JavaScript number (below 2^53 minor units).
 */
export const MAX_MONEY = 9_999_999_999.99;
export const moneyRangeMessage = (label: string) => `${label} must be between 0 and 9,999,999,999.99.`;

// ------------------------------------------------------------------ integers

/** PostgreSQL `integer` (int4). */
export const INT4_MAX = 2_147_483_647;
export const INT4_MIN = -2_147_483_648;

/** A whole number in [min, max] (defaults to the int4 range). */
export function zInt(wholeMessage: string, min = INT4_MIN, max = INT4_MAX, rangeMessage = wholeMessage) {
  return z.number({ error: wholeMessage }).int(wholeMessage).min(min, rangeMessage).max(max, rangeMessage);
}

/** Pages: far beyond any list this product holds, well inside what OFFSET and `Date` handle. */
export const MAX_PAGE = 100_000;

/**
 * `page` and `limit` of a REST list read from the query string (so coerced from text), `byDefault`
 * rows unless asked and `max` at most; the messages name the query parameters as the caller wrote them.
 */
export function restPage(max: number, byDefault: number) {
  return {
    page: z.coerce
      .number({ error: 'page must be a whole number.' })
      .int('page must be a whole number.')
      .min(1, 'page must be at least 1.')
      .max(MAX_PAGE, `page must be at most ${MAX_PAGE}.`)
      .default(1),
    limit: z.coerce
      .number({ error: 'limit must be a whole number.' })
      .int('limit must be a whole number.')
      .min(1, `limit must be between 1 and ${max}.`)
      .max(max, `limit must be between 1 and ${max}.`)
      .default(byDefault),
  };
}

/** The usual REST list page: 50 rows by default, 200 at most. */
export const restPageFields = restPage(200, 50);
