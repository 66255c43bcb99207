import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { explainedMessage } from '@/lib/errors';
import { trpc } from '@/lib/trpc';
import { SwitchSettingCard } from './switch-setting-card';

/** Whether cash needs an open till (docs/payments.md#tills); off by default. */
export function TillSettingsCard() {
  const queryClient = useQueryClient();
  const current = useQuery(trpc.tills.settings.queryOptions());
  const save = useMutation(
    trpc.tills.updateSettings.mutationOptions({
      onSuccess: async (saved) => {
        toast.success(saved.tillRequired ? 'Cash now needs an open till.' : 'Cash no longer needs an open till.');
        await queryClient.invalidateQueries(trpc.tills.settings.queryFilter());
      },
      onError: (err) => toast.error(explainedMessage(err, 'Failed to save the setting. Please try again.')),
    }),
  );
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
