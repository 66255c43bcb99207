import { z } from 'zod';
import { AUDIT_ACTIONS, AUDIT_ENTITY_TYPES } from '@shared/audit';
import {
  blankToUndefined,
  dateRangeMessage,
  hasYearInRange,
  MAX_PAGE,
  parseDay,
  zId,
  zSearch,
  zText,
} from '@shared/schemas/primitives';

/** Query strings arrive as text; an empty value (`?action=`) means "no filter". */
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema.optional());

const entityType = z.enum(AUDIT_ENTITY_TYPES, {
  message: `entityType must be one of ${AUDIT_ENTITY_TYPES.join(', ')}.`,
});
const action = z.enum(AUDIT_ACTIONS, { message: `action must be one of ${AUDIT_ACTIONS.join(', ')}.` });

const boundMessage = (label: string) =>
  `${label} must be a date (YYYY-MM-DD) or an ISO date-time with an offset or Z (2026-12-01T17:19:08Z).`;

/** True for `YYYY-MM-DD` alone: a whole day in TIME_ZONE, where a date-time is one instant. */
export const isAuditDay = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v);

const instant = z.iso.datetime({ offset: true });

/**
 * A bound of the log's time filter: a day (YYYY-MM-DD, the whole day in the institute's time zone:
 * `from` its start, `to` its end) or an instant (an ISO date-time with an offset or Z, as
 * `createdAt` answers it), so a caller can page by the entries' own times.
 */
const bound = (label: string) =>
  zText(label, { message: boundMessage(label) })
    .trim()
    .refine((v) => isAuditDay(v) || instant.safeParse(v).success, { message: boundMessage(label), abort: true })
    .refine((v) => (isAuditDay(v) ? parseDay(v) !== null : hasYearInRange(v)), dateRangeMessage(label));

const intParam = (label: string, min: number, max: number, fallback: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : blankToUndefined(v)),
    z
      .number({ message: `${label} must be a whole number.` })
      .int(`${label} must be a whole number.`)
      .min(min, `${label} must be between ${min} and ${max}.`)
      .max(max, `${label} must be between ${min} and ${max}.`)
      .default(fallback),
  );

const filterShape = {
  entityType: optional(entityType),
  entityId: optional(zText('entityId').trim().max(200, 'entityId is not valid.')),
  actorId: optional(zId('actorId')),
  /** The screens name the actor by username or email. */
  actor: optional(zSearch('Actor')),
  action: optional(action),
  from: optional(bound('from')),
  to: optional(bound('to')),
  search: optional(zSearch()),
};
/**
 * Two days, or two instants, out of order would silently answer nothing: refused instead. A day
 * against an instant depends on TIME_ZONE, which the query applies; such a pair is left to it.
 */
const rangeInOrder: [(f: { from?: string; to?: string }) => boolean, { message: string; path: string[] }] = [
  (f) => {
    if (!f.from || !f.to) return true;
    if (isAuditDay(f.from) && isAuditDay(f.to)) return f.from <= f.to;
    if (!isAuditDay(f.from) && !isAuditDay(f.to)) return Date.parse(f.from) <= Date.parse(f.to);
    return true;
  },
  { message: 'from must be on or before to.', path: ['to'] },
];

/** The filters every read of the log takes (docs/audit.md#reading-it). */
export const ZAuditFilters = z.object(filterShape).refine(...rangeInOrder);
export type TAuditFilters = z.infer<typeof ZAuditFilters>;

export const AUDIT_PAGE_MAX = 200;

/** `GET /api/audit`: the filters plus page and limit (50 by default). */
export const ZAuditRestQuery = z
  .object({
    ...filterShape,
    page: intParam('page', 1, MAX_PAGE, 1),
    limit: intParam('limit', 1, AUDIT_PAGE_MAX, 50),
  })
  .refine(...rangeInOrder);
export type TAuditRestQuery = z.infer<typeof ZAuditRestQuery>;

/** A keyset position as the list answered it (`nextCursor`): opaque to callers. */
const cursor = zText('cursor').max(200, 'The cursor is not valid.').optional();
const limit = z
  .number({ message: 'limit must be a whole number.' })
  .int('limit must be a whole number.')
  .min(1, 'limit must be between 1 and 100.')
  .max(100, 'limit must be between 1 and 100.')
  .default(50);

/** `audit.list`: the filters and keyset paging, newest first unless `sortDir` is 'asc' (the screen's Time header). */
export const ZAuditListInput = z
  .object({
    ...filterShape,
    cursor,
    limit,
    sortDir: z.enum(['asc', 'desc'], { message: 'sortDir must be asc or desc.' }).default('desc'),
  })
  .refine(...rangeInOrder);
export type TAuditListInput = z.infer<typeof ZAuditListInput>;

/** `audit.forEntity`: one record's history, newest first. */
export const ZAuditForEntityInput = z.object({
  entityType,
  entityId: zText('entityId').trim().min(1, 'entityId is required.').max(200, 'entityId is not valid.'),
  cursor,
  limit,
});
export type TAuditForEntityInput = z.infer<typeof ZAuditForEntityInput>;
