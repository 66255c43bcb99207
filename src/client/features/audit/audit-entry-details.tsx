import { Badge } from '@/components/ui/badge';
import { auditActionLabel, auditEntityLabel, type AuditValue } from '@shared/audit';
import { ROLE_LABELS, type Role } from '@shared/roles';
import { PersonName } from '@/components/person-name';
import type { AuditEntry } from './audit-queries';

function valueText(v: AuditValue): string {
  if (v === null) return '—';
  if (typeof v === 'string') return v || '""';
  return JSON.stringify(v);
}

/** A field name as a person reads it: `fullName` → `full name`, `duration.days` → `duration days`. */
export function fieldLabel(field: string): string {
  return field
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[._]/g, ' ')
    .toLowerCase();
}

/**
 * Who acted. No actor with a request behind it is an anonymous caller (a failed sign-in); with
 * none, the system itself (the first start's demo data).
 */
export function ActorName({ actor, ip }: { actor: AuditEntry['actor']; ip?: string | null }) {
  if (!actor) return <span className="text-muted-foreground italic">{ip ? 'anonymous' : 'system'}</span>;
  const role = ROLE_LABELS[actor.role as Role] ?? actor.role;
  return (
    <span>
      <PersonName fullName={actor.fullName} handle={actor.username} />{' '}
      <span className="text-muted-foreground">({role})</span>
    </span>
  );
}

export function ActionBadge({ action }: { action: string }) {
  const variant =
    action === 'delete' || action === 'void' || action === 'sign_in_failed' || action === 'sign_in_throttled'
      ? 'destructive'
      : action === 'create'
        ? 'success'
        : 'secondary';
  return (
    <Badge variant={variant} data-testid="audit-action">
      {auditActionLabel(action)}
    </Badge>
  );
}

/** What a row expands to: each changed field before and after, and where the change came from. */
export function AuditEntryDetails({ entry }: { entry: AuditEntry }) {
  return (
    <div className="space-y-3 py-2" data-testid="audit-details">
      {entry.changes.length > 0 ? (
        <table className="w-full max-w-3xl text-sm" aria-label="Changed fields">
          <thead>
            <tr className="text-left text-muted-foreground">
              <th className="w-48 py-1 pr-4 font-medium">Field</th>
              <th className="py-1 pr-4 font-medium">Before</th>
              <th className="py-1 font-medium">After</th>
            </tr>
          </thead>
          <tbody>
            {entry.changes.map((c) => (
              <tr key={c.field} className="border-t align-top" data-testid="audit-change">
                <td className="py-1 pr-4 font-medium">{fieldLabel(c.field)}</td>
                <td className="py-1 pr-4 break-all text-muted-foreground line-through decoration-muted-foreground/40">
                  {valueText(c.before)}
                </td>
                <td className="py-1 break-all">{valueText(c.after)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="text-sm text-muted-foreground">No field values recorded for this event.</p>
      )}
      <dl className="grid max-w-3xl grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-xs text-muted-foreground">
        <dt>Record</dt>
        <dd className="break-all">
          {auditEntityLabel(entry.entityType)}
          {entry.entityId ? ` ${entry.entityId}` : ''}
        </dd>
        <dt>IP address</dt>
        <dd>{entry.ip ?? '—'}</dd>
        <dt>User agent</dt>
        <dd className="break-all">{entry.userAgent ?? '—'}</dd>
        <dt>Request id</dt>
        <dd>{entry.requestId ?? '—'}</dd>
      </dl>
    </div>
  );
}
