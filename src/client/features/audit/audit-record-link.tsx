import { Link } from '@tanstack/react-router';
import { auditEntityLabel } from '@shared/audit';
import type { AuditEntry } from './audit-queries';

/** The record an entry is about, linked to its details screen where there is one. */
export function AuditRecordLink({ entry }: { entry: Pick<AuditEntry, 'entityType' | 'entityId'> }) {
  const label = auditEntityLabel(entry.entityType);
  const id = entry.entityId;
  if (id && entry.entityType === 'user')
    return (
      <Link to="/users/$userId" params={{ userId: id }} className="underline-offset-4 hover:underline">
        {label}
      </Link>
    );
  if (id && entry.entityType === 'course')
    return (
      <Link to="/courses/$courseId" params={{ courseId: id }} className="underline-offset-4 hover:underline">
        {label}
      </Link>
    );
  if (id && entry.entityType === 'booking')
    return (
      <Link to="/booking-details/$id" params={{ id }} className="underline-offset-4 hover:underline">
        {label}
      </Link>
    );
  return <span>{label}</span>;
}
