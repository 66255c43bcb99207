import { oneOf } from '@/lib/list-search';
import { trpc, type RouterOutputs } from '@/lib/trpc';
import { AUDIT_ACTIONS, AUDIT_ENTITY_TYPES, type AuditAction, type AuditEntityType } from '@shared/audit';

export type AuditEntry = RouterOutputs['audit']['list']['items'][number];

export const AUDIT_SLICE = 50;

/** The Audit log screen's filters, kept in the URL so a filtered view can be shared and reloaded. */
export interface AuditSearch {
  from?: string;
  to?: string;
  actor?: string;
  entityType?: AuditEntityType;
  action?: AuditAction;
  q?: string;
  /** 'asc' shows the oldest entries first (the Time header); newest first otherwise. */
  dir?: 'asc';
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim().slice(0, 200) : undefined);

export function validateAuditSearch(search: Record<string, unknown>): AuditSearch {
  const day = (v: unknown) => (typeof v === 'string' && DAY.test(v) ? v : undefined);
  return {
    from: day(search.from),
    to: day(search.to),
    actor: text(search.actor),
    entityType: oneOf(AUDIT_ENTITY_TYPES, search.entityType),
    action: oneOf(AUDIT_ACTIONS, search.action),
    q: text(search.q),
    dir: search.dir === 'asc' ? 'asc' : undefined,
  };
}

function filtersOf(s: AuditSearch) {
  return { from: s.from, to: s.to, actor: s.actor, entityType: s.entityType, action: s.action, search: s.q };
}

/** `audit.list` slice by slice (keyset): "Load more" asks for the next one. */
export function auditListOptions(s: AuditSearch) {
  return trpc.audit.list.infiniteQueryOptions(
    { ...filtersOf(s), limit: AUDIT_SLICE, sortDir: s.dir ?? 'desc' },
    { getNextPageParam: (last) => last.nextCursor ?? undefined },
  );
}

export function entityHistoryOptions(entityType: AuditEntityType, entityId: string) {
  return trpc.audit.forEntity.infiniteQueryOptions(
    { entityType, entityId, limit: 20 },
    { getNextPageParam: (last) => last.nextCursor ?? undefined },
  );
}

/** The Excel export of what the screen shows (same filters). */
export function auditExportUrl(s: AuditSearch): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(filtersOf(s))) if (v) params.set(k, v);
  const query = params.toString();
  return `/api/audit/export${query ? `?${query}` : ''}`;
}

/** `31 Jan 2025, 14:05:09` in the browser's time zone. */
export function formatAuditTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? '—'
    : d.toLocaleString('en-GB', {
        day: '2-digit',
        month: 'short',
        year: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      });
}
