import { useQuery } from '@tanstack/react-query';
import { trpc } from '@/lib/trpc';
import { SwitchSettingCard, useSettingSave } from './switch-setting-card';

/** The "managers see only their own branch" switch (docs/security.md#branch-scope). */
export function AccessSettingsCard() {
  const current = useQuery(trpc.settings.getAccess.queryOptions());
  const save = useSettingSave({
    mutationOptions: trpc.settings.updateAccess.mutationOptions,
    saved: (s) =>
      s.managersOwnBranchOnly ? 'Managers now see only their own branch.' : 'Managers now see every branch.',
    refresh: trpc.settings.getAccess.queryFilter(),
  });
  return (
    <SwitchSettingCard
      title="Branch access"
      description="When on, managers see and change only the users of their own branch, with their enrollments, bookings, statistics and reports. Admins and superadmins always see every branch."
      label="Managers see only their own branch"
      current={current}
      checked={(s) => s.managersOwnBranchOnly}
      saving={save.isPending}
      onChange={(on) => save.mutate({ managersOwnBranchOnly: on })}
    />
  );
}
