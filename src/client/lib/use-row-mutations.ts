import { useMutation } from '@tanstack/react-query';
import type { ResolverDef, TRPCMutationOptions } from '@trpc/tanstack-react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { explainedMessage } from '@/lib/errors';

interface Messages {
  /** docs/product.md#messages's success toast, e.g. 'Branch updated successfully!'. */
  success: string;
  /** The toast when the server does not explain the refusal itself. */
  failure: string;
  /** Refetch what the change affects (`queryClient.invalidateQueries(trpc.x.pathFilter())`). */
  invalidate: () => Promise<unknown>;
}

/**
 * A table row edited in place: one draft at a time (`start(row)`), saved with `update.mutate`,
 * which toasts, closes the draft and refetches; on failure the draft stays open for another try.
 */
export function useInlineEdit<TRow, TDraft extends { id: string }, TDef extends ResolverDef>({
  toDraft,
  mutationOptions,
  success,
  failure,
  invalidate,
  onSaved,
}: Messages & {
  /** The row's values as the editable draft (inputs hold strings). */
  toDraft: (row: TRow) => TDraft;
  /** `trpc.<domain>.<procedure>.mutationOptions` */
  mutationOptions: TRPCMutationOptions<TDef>;
  onSaved?: (data: TDef['output']) => void;
}) {
  const [draft, setDraft] = useState<TDraft | null>(null);
  const update = useMutation(
    mutationOptions({
      onSuccess: async (data) => {
        toast.success(success);
        setDraft(null);
        onSaved?.(data);
        await invalidate();
      },
      onError: (err) => {
        toast.error(explainedMessage(err, failure));
      },
    }),
  );
  return { draft, setDraft, start: (row: TRow) => setDraft(toDraft(row)), cancel: () => setDraft(null), update };
}

/**
 * A delete behind a confirmation: `ask(target)` opens the dialog, `confirm()` deletes; either
 * outcome toasts and closes the dialog (spread `dialog` into ConfirmDialog).
 */
export function useConfirmedDelete<TTarget, TDef extends ResolverDef>({
  toVariables,
  mutationOptions,
  success,
  failure,
  invalidate,
}: Messages & {
  /** The mutation's input for the target the user confirmed. */
  toVariables: (target: TTarget) => TDef['input'];
  mutationOptions: TRPCMutationOptions<TDef>;
}) {
  const [target, setTarget] = useState<TTarget | null>(null);
  const remove = useMutation(
    mutationOptions({
      onSuccess: async () => {
        toast.success(success);
        setTarget(null);
        await invalidate();
      },
      onError: (err) => {
        toast.error(explainedMessage(err, failure));
        setTarget(null);
      },
    }),
  );
  const close = () => setTarget(null);
  return {
    target,
    ask: setTarget,
    close,
    remove,
    confirm: () => target !== null && remove.mutate(toVariables(target)),
    dialog: { open: target !== null, onOpenChange: (open: boolean) => !open && close(), pending: remove.isPending },
  };
}
