import { PageHeader } from '@/components/page-header';
import { ADMIN_ROLES, PermissionDenied, RequireRole } from '@/components/require-role';
import { AccessSettingsCard } from './access-settings-card';
import { CurrencySettingsCard } from './currency-settings-card';
import { JobStatusCard } from './job-status-card';
import { MessagesLinkCard } from './messages-link-card';
import { OrganisationCard } from './organisation-card';
import { TillSettingsCard } from './till-settings-card';
import { ScholarshipsCard } from './scholarships-card';
import { PractitionersCard } from '@/features/practitioners/practitioners-card';
import { ClosuresCard, RoomsCard } from '@/features/practitioners/rooms-card';

/**
 * Settings: the organisation on paper (staff read it, admins edit it); for admins and
 * superadmins also currency and exchange rate, branch access, tills, scholarships and their approval, the calendar's practitioners,
 * rooms and branch closures (docs/appointments.md#resources), and the background jobs.
 */
export function SettingsPage() {
  return (
    <div>
      <PageHeader title="Settings" />
      <div className="grid gap-6">
        <OrganisationCard />
        <MessagesLinkCard />
        <RequireRole roles={ADMIN_ROLES} fallback={<PermissionDenied />}>
          <CurrencySettingsCard />
          <AccessSettingsCard />
          <TillSettingsCard />
          <ScholarshipsCard />
          <PractitionersCard />
          <RoomsCard />
          <ClosuresCard />
          <JobStatusCard />
        </RequireRole>
      </div>
    </div>
  );
}
