import { and, asc, count, desc, eq, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { auditLog, users } from '../../db/schema';
import type { ServiceContext } from '../context';
import { AppError } from '../../errors';
import { isAdmin } from '../../../shared/roles';
import { isUuid } from '../ids';
import { offsetOf } from '../paging';
import { ilikeContains } from '../sql-conditions';
import { listTotal, totalKey } from '../keyset';
import { fromBound, toBound } from './audit.bounds';
import type { TAuditFilters, TAuditForEntityInput, TAuditListInput, TAuditRestQuery } from '@shared/schemas/audit';
import type { TAuditEntry } from '@shared/schemas/audit.output';

/**
 * Reading the audit trail (docs/audit.md#reading-it): admins and superadmins only, newest first.
 * The screens page by keyset (the log grows fastest of all tables); the documented REST list
 * pages by number, as the other /api lists do.
 */

export const AUDIT_READERS_ONLY = 'Only admins and superadmins can read the audit log.';
export const BAD_CURSOR = 'The cursor is not valid.';

/** The procedures and paths check the role first; the rule lives here too, for any other caller. */
export function assertAuditReader(ctx: Pick<ServiceContext, 'actor'>) {
  if (!isAdmin(ctx.actor.role)) throw new AppError('FORBIDDEN', AUDIT_READERS_ONLY);
}

/**
 * An entry's columns after its id and time, in the table's order: who acted, on what record (and
 * the record whose History shows it), what changed, and the request. The archive writes them in
 * this order (audit.retention.ts).
 */
export const auditEntryDetails = {
  actorId: auditLog.actorId,
  actorUsername: auditLog.actorUsername,
  actorRole: auditLog.actorRole,
  action: auditLog.action,
  entityType: auditLog.entityType,
  entityId: auditLog.entityId,
  parentType: auditLog.parentType,
  parentId: auditLog.parentId,
  summary: auditLog.summary,
  changes: auditLog.changes,
  ip: auditLog.ip,
  userAgent: auditLog.userAgent,
  requestId: auditLog.requestId,
};

/** The exact timestamp (microseconds) for a keyset cursor; a JS Date keeps only milliseconds. */
export const auditCursorTs = sql<string>`${auditLog.createdAt}::text`;

const entryColumns = {
  id: auditLog.id,
  createdAt: auditLog.createdAt,
  cursorTs: auditCursorTs,
  ...auditEntryDetails,
  // The actor's name as the account is named now (the entry keeps the username it acted under).
  actorFullName: users.fullName,
};
export type AuditRow = Awaited<ReturnType<typeof selectEntries>>[number];

type SortDir = 'asc' | 'desc';

function selectEntries(db: Db, where: SQL | undefined, limit: number, offset = 0, dir: SortDir = 'desc') {
  const order = dir === 'asc' ? asc : desc;
  return db
    .select(entryColumns)
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorId))
    .where(where)
    .orderBy(order(auditLog.createdAt), order(auditLog.id))
    .limit(limit)
    .offset(offset);
}

/** An entry as the read paths answer it, typed with their output contract (a field one lacks fails the build). */
export function toAuditDto(r: AuditRow): TAuditEntry {
  return {
    id: r.id,
    createdAt: r.createdAt.toISOString(),
    actor: r.actorId
      ? { id: r.actorId, username: r.actorUsername ?? '', role: r.actorRole ?? '', fullName: r.actorFullName }
      : null,
    action: r.action,
    entityType: r.entityType,
    entityId: r.entityId,
    summary: r.summary,
    changes: r.changes ?? [],
    ip: r.ip,
    userAgent: r.userAgent,
    requestId: r.requestId,
  };
}

/** An actor named by username or email: the user's id, else (a deleted user) the name recorded then. */
async function actorCondition(db: Db, actor: string): Promise<SQL> {
  const [u] = await db
    .select({ id: users.id })
    .from(users)
    .where(or(sql`lower(${users.username}) = lower(${actor})`, sql`lower(${users.email}) = lower(${actor})`))
    .limit(1);
  return u ? eq(auditLog.actorId, u.id) : sql`lower(${auditLog.actorUsername}) = lower(${actor})`;
}

/** The filters as SQL; null when they can match nothing (an actor id that is no id). */
export async function auditWhere(db: Db, f: TAuditFilters, timeZone: string): Promise<SQL | undefined | null> {
  if (f.actorId && !isUuid(f.actorId)) return null;
  return and(
    f.entityType ? eq(auditLog.entityType, f.entityType) : undefined,
    f.entityId ? eq(auditLog.entityId, f.entityId) : undefined,
    f.actorId ? eq(auditLog.actorId, f.actorId) : undefined,
    f.actor ? await actorCondition(db, f.actor) : undefined,
    f.action ? eq(auditLog.action, f.action) : undefined,
    f.from ? fromBound(f.from, timeZone) : undefined,
    f.to ? toBound(f.to, timeZone) : undefined,
    f.search ? ilikeContains(auditLog.summary, f.search) : undefined,
  );
}

/**
 * `GET /api/audit`: a numbered page with the total, newest first. Page 1 counts, exactly; the pages
 * after it reuse the count made for the same caller and filters within the last 30 seconds, as the
 * screens' lists do for a page read by cursor (docs/audit.md#reading-it): paging through the log
 * costs one count, not one per page.
 */
export async function listAuditPage(
  ctx: ServiceContext,
  q: TAuditRestQuery,
): Promise<{ data: TAuditEntry[]; total: number; page: number }> {
  assertAuditReader(ctx);
  const where = await auditWhere(ctx.db, q, ctx.deps.config.TIME_ZONE);
  if (where === null) return { data: [], total: 0, page: q.page };
  const { page, limit, ...filters } = q;
  const countAll = async () => (await ctx.db.select({ n: count() }).from(auditLog).where(where))[0]?.n ?? 0;
  const [rows, total] = await Promise.all([
    selectEntries(ctx.db, where, limit, offsetOf(page, limit)),
    listTotal(ctx.deps, totalKey('audit', ctx.actor.id, filters), page > 1, countAll),
  ]);
  return { data: rows.map(toAuditDto), total, page };
}

export interface AuditSlice {
  items: TAuditEntry[];
  /** Pass back as `cursor` for the next (older) entries; null at the end. */
  nextCursor: string | null;
}

interface Cursor {
  ts: string;
  id: string;
}

/** The cursor names the order it was read in: sent with the other order it would skip entries. */
function encodeCursor(r: AuditRow, dir: SortDir): string {
  return Buffer.from(JSON.stringify([dir, r.cursorTs, r.id]), 'utf8').toString('base64url');
}

function decodeCursor(cursor: string, dir: SortDir): Cursor {
  try {
    const v: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(v) &&
      v.length === 3 &&
      v[0] === dir &&
      typeof v[1] === 'string' &&
      typeof v[2] === 'string' &&
      /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/.test(v[1]) &&
      isUuid(v[2])
    ) {
      return { ts: v[1], id: v[2] };
    }
  } catch {
    // Falls through to the same answer as any other malformed cursor.
  }
  throw new AppError('BAD_REQUEST', BAD_CURSOR);
}

/** Entries older than the cursor: (created_at, id) below it, in the indexes' own order. */
const olderThan = (c: Cursor) => sql`(${auditLog.createdAt}, ${auditLog.id}) < (${c.ts}::timestamptz, ${c.id}::uuid)`;
/** Entries newer than the cursor, for the oldest-first order. */
const newerThan = (c: Cursor) => sql`(${auditLog.createdAt}, ${auditLog.id}) > (${c.ts}::timestamptz, ${c.id}::uuid)`;

async function slice(
  db: Db,
  where: SQL | undefined,
  cursor: string | undefined,
  limit: number,
  dir: SortDir = 'desc',
): Promise<AuditSlice> {
  const at = cursor ? decodeCursor(cursor, dir) : undefined;
  const after = at ? (dir === 'asc' ? newerThan(at) : olderThan(at)) : undefined;
  // One more than asked says whether there is a next slice without a count.
  const rows = await selectEntries(db, and(where, after), limit + 1, 0, dir);
  const page = rows.slice(0, limit);
  return {
    items: page.map(toAuditDto),
    nextCursor: rows.length > limit && page.length ? encodeCursor(page.at(-1)!, dir) : null,
  };
}

/** `audit.list`: the Audit log screen's slices, newest first (oldest first when its Time header asks). */
export async function listAudit(
  ctx: ServiceContext,
  input: Omit<TAuditListInput, 'sortDir'> & { sortDir?: SortDir },
): Promise<AuditSlice> {
  assertAuditReader(ctx);
  const where = await auditWhere(ctx.db, input, ctx.deps.config.TIME_ZONE);
  if (where === null) return { items: [], nextCursor: null };
  return slice(ctx.db, where, input.cursor, input.limit, input.sortDir);
}

/**
 * `audit.forEntity`: one record's History panel. An enrolment's or a booking's also holds the
 * entries of its parts (installments, admission fee, sessions, notes, payments, receipts), which
 * name it as their parent.
 */
export async function auditForEntity(ctx: ServiceContext, input: TAuditForEntityInput): Promise<AuditSlice> {
  assertAuditReader(ctx);
  const own = and(eq(auditLog.entityType, input.entityType), eq(auditLog.entityId, input.entityId));
  const where =
    input.entityType === 'enrollment' || input.entityType === 'booking'
      ? or(own, and(eq(auditLog.parentType, input.entityType), eq(auditLog.parentId, input.entityId)))
      : own;
  return slice(ctx.db, where, input.cursor, input.limit);
}

/** Batches for the Excel export, newest first, by keyset so memory stays flat. */
export async function* auditBatches(db: Db, where: SQL | undefined, batchSize: number): AsyncGenerator<TAuditEntry[]> {
  let after: Cursor | null = null;
  for (;;) {
    const rows = await selectEntries(db, and(where, after ? olderThan(after) : undefined), batchSize);
    if (rows.length) yield rows.map(toAuditDto);
    const last = rows.at(-1);
    if (!last || rows.length < batchSize) return;
    after = { ts: last.cursorTs, id: last.id };
  }
}
