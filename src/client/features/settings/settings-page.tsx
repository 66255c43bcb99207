import { PageHeader } from '@/components/page-header';
import { ADMIN_ROLES, PermissionDenied, RequireRole } from '@/components/require-role';
import { AccessSettingsCard } from './access-settings-card';
import { CurrencySettingsCard } from './currency-settings-card';
import { JobStatusCard } from './job-status-card';

/** Settings (admin and superadmin): currency and exchange rate, branch access, and the background jobs. */
export function SettingsPage() {
  return (
    <div>
      <PageHeader title="Settings" />
      <RequireRole roles={ADMIN_ROLES} fallback={<PermissionDenied />}>
        <div className="grid gap-6">
          <CurrencySettingsCard />
          <AccessSettingsCard />
          <JobStatusCard />
        </div>
      </RequireRole>
    </div>
  );
}
