import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { LoadError } from '@/components/load-error';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { explainedMessage } from '@/lib/errors';
import { trpc } from '@/lib/trpc';

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
    <Card className="max-w-xl">
      <CardHeader>
        <CardTitle>Branch access</CardTitle>
        <CardDescription>
          When on, managers see and change only the users of their own branch, with their enrollments, bookings,
          statistics and reports. Admins and superadmins always see every branch.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {current.isError ? (
          <LoadError error={current.error} onRetry={() => void current.refetch()} />
        ) : current.isPending ? (
          <Skeleton className="h-6 w-64" />
        ) : (
          <label className="flex items-center gap-3 text-sm font-medium">
            <input
              type="checkbox"
              className="size-4 accent-primary"
              checked={current.data.managersOwnBranchOnly}
              disabled={save.isPending}
              onChange={(e) => save.mutate({ managersOwnBranchOnly: e.target.checked })}
            />
            Managers see only their own branch
          </label>
        )}
      </CardContent>
    </Card>
  );
}
