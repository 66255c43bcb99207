import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { explainedMessage } from '@/lib/errors';
import { trpc } from '@/lib/trpc';
import { SwitchSettingCard } from './switch-setting-card';

/** The "managers see only their own branch" switch (docs/security.md#branch-scope). */
export function AccessSettingsCard() {
  const queryClient = useQueryClient();
  const current = useQuery(trpc.settings.getAccess.queryOptions());
  const save = useMutation(
    trpc.settings.updateAccess.mutationOptions({
      onSuccess: async (saved) => {
        toast.success(
          saved.managersOwnBranchOnly ? 'Managers now see only their own branch.' : 'Managers now see every branch.',
        );
        await queryClient.invalidateQueries(trpc.settings.getAccess.queryFilter());
      },
      onError: (err) => toast.error(explainedMessage(err, 'Failed to save the setting. Please try again.')),
    }),
  );
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
