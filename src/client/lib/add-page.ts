import { type QueryFilters, useQueryClient } from '@tanstack/react-query';
import { type LinkProps, useNavigate } from '@tanstack/react-router';
import { toast } from 'sonner';
import { explainedMessage } from '@/lib/errors';

/**
 * What an add page does with its create call: on success it says so, refreshes that list's queries and goes
 * back to the list; on failure it puts the server's reason (a duplicate name, a field's message) on the form.
 */
export function useAddPageHandlers({
  form,
  added,
  failed,
  refresh,
  back,
}: {
  form: { failRequest: (err: unknown, message: string) => void };
  added: string;
  failed: string;
  refresh: QueryFilters;
  back: LinkProps['to'];
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return {
    onSuccess: async () => {
      toast.success(added);
      await queryClient.invalidateQueries(refresh);
      await navigate({ to: back });
    },
    onError: (err: unknown) => form.failRequest(err, explainedMessage(err, failed)),
  };
}
