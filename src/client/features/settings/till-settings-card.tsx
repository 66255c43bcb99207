import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { LoadError } from '@/components/load-error';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { explainedMessage } from '@/lib/errors';
import { trpc } from '@/lib/trpc';

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
    <Card className="max-w-xl">
      <CardHeader>
        <CardTitle>Tills</CardTitle>
        <CardDescription>
          When on, a cashier must open a till at the branch before recording a cash payment there.
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
              checked={current.data.tillRequired}
              disabled={save.isPending}
              onChange={(e) => save.mutate({ tillRequired: e.target.checked })}
            />
            Require an open till for cash payments
          </label>
        )}
      </CardContent>
    </Card>
  );
}
