import { useMutation } from '@tanstack/react-query';
import type { ResolverDef, TRPCMutationOptions } from '@trpc/tanstack-react-query';
import { toast } from 'sonner';
import { explainedMessage } from '@/lib/errors';

/**
 * A form's or dialog's save: on success it toasts `success` and runs `after` (close, reset,
 * refetch); on failure the form stays as typed and `onError` gets the server's reason (or
 * `failure` when it gives none) for the form's error line, which the form's own checks also set.
 */
export function useFormMutation<TDef extends ResolverDef>({
  mutationOptions,
  success,
  failure,
  after,
  onError,
}: {
  /** `trpc.<domain>.<procedure>.mutationOptions` */
  mutationOptions: TRPCMutationOptions<TDef>;
  success: string | ((data: TDef['output']) => string);
  failure: string;
  after: (data: TDef['output']) => unknown;
  onError: (message: string) => void;
}) {
  return useMutation(
    mutationOptions({
      onSuccess: async (data) => {
        toast.success(typeof success === 'string' ? success : success(data));
        await after(data);
      },
      onError: (err) => onError(explainedMessage(err, failure)),
    }),
  );
}
