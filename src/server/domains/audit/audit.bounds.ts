import { sql, type SQL } from 'drizzle-orm';
import { auditLog } from '../../db/schema';
import { isAuditDay } from '@shared/schemas/audit';

/**
 * The log's time filter as SQL on `created_at` (index-friendly: the bound is a constant). A day
 * means the whole day in the institute's time zone: `from` its first instant, `to` up to the next
 * day's start; a date-time is that instant, included.
 */
export function fromBound(from: string, timeZone: string): SQL {
  return isAuditDay(from)
    ? sql`${auditLog.createdAt} >= ((${from}::date)::timestamp at time zone ${timeZone})`
    : sql`${auditLog.createdAt} >= ${from}::timestamptz`;
}

export function toBound(to: string, timeZone: string): SQL {
  return isAuditDay(to)
    ? sql`${auditLog.createdAt} < (((${to}::date) + 1)::timestamp at time zone ${timeZone})`
    : sql`${auditLog.createdAt} <= ${to}::timestamptz`;
}
