import { createFileRoute } from '@tanstack/react-router';
import { AuditLogPage } from '@/features/audit/audit-log-page';
import { validateAuditSearch, type AuditSearch } from '@/features/audit/audit-queries';

export const Route = createFileRoute('/_admin/audit')({
  validateSearch: validateAuditSearch,
  component: AuditRoute,
});

function AuditRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <AuditLogPage
      search={search}
      onSearchChange={(next: AuditSearch) => void navigate({ search: next, replace: true })}
    />
  );
}
