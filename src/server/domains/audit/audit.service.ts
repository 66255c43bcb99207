import type { Db } from '../../db/client';
import { auditLog } from '../../db/schema';
import type { RequestMeta } from '../../deps';
import type { AuditAction, AuditChange, AuditEntityType, AuditValue } from '../../../shared/audit';

/**
 * Writing the audit trail (docs/audit.md). Every service that changes a record calls
 * `recordAudit` with the transaction of its change, so the entry and the change commit or roll
 * back together; both tRPC and REST reach it through the service, never the adapter.
 *
 *   await db.transaction(async (tx) => {
 *     const [before] = await tx.select().from(courses).where(eq(courses.id, id)).for('update');
 *     const [after] = await tx.update(courses).set(values).where(eq(courses.id, id)).returning();
 *     await recordAudit(tx, ctx, {
 *       action: 'update',
 *       entityType: 'course',
 *       entityId: id,
 *       summary: `Updated course ${after.courseName}`,
 *       changes: fieldChanges(toCourseDto(before), toCourseDto(after)),
 *     });
 *   });
 */

/** Who acted, as they are at this moment (a ServiceContext's actor fits). */
export interface AuditActor {
  id: string;
  username: string;
  role: string;
}

/** What recordAudit needs of the caller's context: a ServiceContext fits as it is. */
export interface AuditContext {
  /** None for an anonymous caller (a failed sign-in, a password-reset request) or the system (the seed). */
  actor?: AuditActor | null;
  /** Set by the tRPC and REST adapters; absent for jobs and the seed. */
  request?: RequestMeta;
}

/** A service's context where the actor may be absent (the seed): the database plus AuditContext. */
export interface AuditedContext extends AuditContext {
  db: Db;
}

export interface AuditEntryInput {
  action: AuditAction;
  entityType: AuditEntityType;
  /** The record's id (a uuid), or a fixed name such as 'currency' for the settings. */
  entityId: string | null;
  /** One line a person reads: `Marked installment 2 of Yoga Instruction for student1 as paid`. */
  summary: string;
  /** Before and after values, as `fieldChanges` makes them; secrets are dropped here again. */
  changes?: AuditChange[];
  /**
   * The enrolment or booking whose History also shows this entry (an installment's, a payment's,
   * a session note's); omitted for a record that stands alone.
   */
  parent?: { type: AuditParentType; id: string };
}

/** The records whose History gathers their parts' entries too (docs/audit.md#reading-it). */
export type AuditParentType = 'enrollment' | 'booking';

const MAX_SUMMARY = 500;
const MAX_TEXT_VALUE = 2000;

/**
 * Appends one entry. `tx` must be the transaction of the change the entry describes (or, for an
 * event that changes nothing, such as a download or a refused sign-in, the plain `db`).
 */
export async function recordAudit(tx: Db, ctx: AuditContext, entry: AuditEntryInput): Promise<void> {
  await tx.insert(auditLog).values({
    actorId: ctx.actor?.id ?? null,
    actorUsername: ctx.actor?.username ?? null,
    actorRole: ctx.actor?.role ?? null,
    action: entry.action,
    entityType: entry.entityType,
    entityId: entry.entityId,
    parentType: entry.parent?.type ?? null,
    parentId: entry.parent?.id ?? null,
    summary: clip(entry.summary, MAX_SUMMARY),
    changes: (entry.changes ?? []).filter((c) => !isSecretField(c.field)),
    ip: ctx.request?.ip ?? null,
    userAgent: ctx.request?.userAgent ?? null,
    requestId: ctx.request?.requestId ?? null,
  });
}

/**
 * An account's own event (signing in or out, a refused sign-in, a password reset): the entry is about
 * the user `userId` (null when the account tried does not exist); `by` says who acted and from where.
 */
export function recordAccountEvent(
  tx: Db,
  by: AuditContext,
  action: AuditAction,
  userId: string | null,
  summary: string,
): Promise<void> {
  return recordAudit(tx, by, { action, entityType: 'user', entityId: userId, summary });
}

/** A catalogue record as its entries name and show it: what a person calls it, and its fields. */
export interface CatalogueView {
  name: string;
  fields: Record<string, unknown>;
}

/**
 * The entry of a change to a named catalogue record (a branch, a course, a treatment): created,
 * updated or renamed (nothing is recorded when nothing changed), or deleted.
 */
export async function recordCatalogueChange(
  tx: Db,
  ctx: AuditContext,
  entityType: 'branch' | 'course' | 'treatment' | 'practitioner' | 'room',
  id: string,
  before: CatalogueView | null,
  after: CatalogueView | null,
): Promise<void> {
  const changes = fieldChanges(before?.fields ?? null, after?.fields ?? null);
  const entry = { entityType, entityId: id, changes };
  if (!before) {
    if (after)
      await recordAudit(tx, ctx, { ...entry, action: 'create', summary: `Created ${entityType} ${after.name}` });
    return;
  }
  if (!after)
    return recordAudit(tx, ctx, { ...entry, action: 'delete', summary: `Deleted ${entityType} ${before.name}` });
  if (!changes.length) return;
  const summary =
    before.name === after.name
      ? `Updated ${entityType} ${after.name}`
      : `Renamed ${entityType} ${before.name} to ${after.name}`;
  await recordAudit(tx, ctx, { ...entry, action: 'update', summary });
}

/**
 * Words that mark a field as secret wherever they appear in its name (`passwordHash`, `otp_hash`,
 * `sessionToken`, `apiKey`): such a field is never recorded, not even as "changed".
 */
const SECRET_WORDS = new Set(['password', 'passwd', 'hash', 'token', 'otp', 'secret', 'cookie', 'authorization']);
const SECRET_NAMES = new Set(['sessionid', 'apikey']);

function wordsOf(field: string): string[] {
  return field
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_.-]+/)
    .map((w) => w.toLowerCase())
    .filter(Boolean);
}

/** True for passwords and their hashes, tokens, OTPs and their hashes, and session ids. */
export function isSecretField(field: string): boolean {
  const last = field.split('.').at(-1) ?? field;
  if (SECRET_NAMES.has(last.replace(/[_-]/g, '').toLowerCase())) return true;
  return wordsOf(field).some((w) => SECRET_WORDS.has(w));
}

function clip(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date) && !ArrayBuffer.isView(v);
}

/** A value as stored: dates as ISO text, long text clipped, bytes and functions left out (undefined). */
function normalize(v: unknown): AuditValue | undefined {
  if (v === undefined || typeof v === 'function' || typeof v === 'symbol') return undefined;
  if (v === null) return null;
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
  if (ArrayBuffer.isView(v)) return undefined;
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'string') return clip(v, MAX_TEXT_VALUE);
  if (typeof v === 'number' || typeof v === 'boolean') return v;
  if (Array.isArray(v)) return v.map((x) => normalize(x) ?? null);
  if (isPlainObject(v)) {
    const out: Record<string, AuditValue> = {};
    for (const [k, x] of Object.entries(v)) {
      if (isSecretField(k)) continue;
      const n = normalize(x);
      if (n !== undefined) out[k] = n;
    }
    return out;
  }
  // Class instances (a Map, a driver's own type) have no faithful JSON form: recorded as absent.
  return null;
}

/** One level of nesting becomes `duration.weeks`, so a change shows the part that changed. */
function flatten(record: Record<string, unknown>): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [k, v] of Object.entries(record)) {
    if (isPlainObject(v)) for (const [k2, v2] of Object.entries(v)) out.set(`${k}.${k2}`, v2);
    else out.set(k, v);
  }
  return out;
}

const same = (a: AuditValue, b: AuditValue) => JSON.stringify(a) === JSON.stringify(b);

export interface FieldChangesOptions {
  /** Only these fields (in this order); by default every field of either side. */
  fields?: readonly string[];
  /** Fields never worth recording (ids, timestamps the database keeps). */
  omit?: readonly string[];
}

/** Fields a record carries that say nothing about the change: left out unless asked for. */
const ALWAYS_OMITTED = new Set(['id', '_id', 'createdAt', 'updatedAt']);

/**
 * The changed fields between two versions of a record, secrets stripped:
 * - an update (`before` and `after`): the fields whose value differs; a field `after` does not
 *   carry (undefined) is taken as unchanged, so `after` may be just the values that were set;
 * - a create (`before` null): every field `after` sets, with `before: null`;
 * - a delete (`after` null): every field `before` had, with `after: null`.
 * Nested objects are compared part by part (`duration.weeks`); null values are left out of a
 * create or delete.
 */
export function fieldChanges(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
  opts: FieldChangesOptions = {},
): AuditChange[] {
  const b = before ? flatten(before) : new Map<string, unknown>();
  const a = after ? flatten(after) : new Map<string, unknown>();
  const omit = new Set(opts.omit ?? []);
  const all = [...a.keys(), ...b.keys()];
  // With `fields`, their order; a nested field brings its parts (`duration` → `duration.weeks`, ...).
  const keys = opts.fields ? opts.fields.flatMap((f) => all.filter((k) => k === f || k.startsWith(`${f}.`))) : all;
  const changes: AuditChange[] = [];
  const seen = new Set<string>();
  for (const field of keys) {
    if (seen.has(field)) continue;
    seen.add(field);
    if (isSecretField(field) || omit.has(field) || (!opts.fields && ALWAYS_OMITTED.has(field))) continue;
    if (before && after) {
      if (!a.has(field) || a.get(field) === undefined) continue;
      const from = normalize(b.get(field)) ?? null;
      const to = normalize(a.get(field)) ?? null;
      if (!same(from, to)) changes.push({ field, before: from, after: to });
    } else if (after) {
      const to = normalize(a.get(field));
      if (to !== undefined && to !== null) changes.push({ field, before: null, after: to });
    } else if (before) {
      const from = normalize(b.get(field));
      if (from !== undefined && from !== null) changes.push({ field, before: from, after: null });
    }
  }
  return changes;
}

/** `username and full name`: the changed fields named for a summary line. */
export function changedFieldNames(changes: AuditChange[], labels: Record<string, string> = {}): string {
  const names = changes.map((c) => labels[c.field] ?? humanize(c.field));
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

function humanize(field: string): string {
  return wordsOf(field).join(' ');
}
