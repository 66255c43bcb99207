import { toast } from 'sonner';
import { explainedMessage } from '@/lib/errors';

/**
 * What a screen's mutation says when it ends: the `success` toast (then `after`), or the server's
 * explanation of a refusal, `failure` otherwise (then `afterError`). Spread into
 * `trpc.<domain>.<procedure>.mutationOptions(...)`.
 */
export function toastOutcome<TData>(
  success: string,
  failure: string,
  after?: (data: TData) => unknown,
  afterError?: () => void,
) {
  return {
    onSuccess: async (data: TData) => {
      toast.success(success);
      await after?.(data);
    },
    onError: (err: unknown) => {
      toast.error(explainedMessage(err, failure));
      afterError?.();
    },
  };
}
