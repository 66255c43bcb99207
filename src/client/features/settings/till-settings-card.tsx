import { useQuery } from '@tanstack/react-query';
import { trpc } from '@/lib/trpc';
import { SwitchSettingCard, useSettingSave } from './switch-setting-card';

/** Whether cash needs an open till (docs/payments.md#tills); off by default. */
export function TillSettingsCard() {
  const current = useQuery(trpc.tills.settings.queryOptions());
  const save = useSettingSave({
    mutationOptions: trpc.tills.updateSettings.mutationOptions,
    saved: (s) => (s.tillRequired ? 'Cash now needs an open till.' : 'Cash no longer needs an open till.'),
    refresh: trpc.tills.settings.queryFilter(),
  });
  return (
    <SwitchSettingCard
      title="Tills"
      description="When on, a cashier must open a till at the branch before recording a cash payment there."
      label="Require an open till for cash payments"
      current={current}
      checked={(s) => s.tillRequired}
      saving={save.isPending}
      onChange={(on) => save.mutate({ tillRequired: on })}
    />
  );
}
