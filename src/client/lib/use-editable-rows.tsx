import type { ResolverDef, TRPCMutationOptions } from '@trpc/tanstack-react-query';
import type { ChangeEvent, ComponentProps, KeyboardEvent } from 'react';
import { toast } from 'sonner';
import { Input } from '@/components/ui/input';
import { useConfirmedDelete, useInlineEdit } from '@/lib/use-row-mutations';

/** The keys of a draft whose values are typed into a text box. */
type TextKey<TDraft> = { [K in keyof TDraft]: TDraft[K] extends string ? K : never }[keyof TDraft] & string;

/**
 * The rows of a list screen edited in place and deleted behind a confirmation, with
 * docs/product.md#messages's toasts for `noun` ('Branch' gives 'Branch updated successfully!' and
 * 'Failed to delete branch. Please try again.'). `toInput` checks the draft before it is sent: a
 * string is the message to toast instead.
 *   const rows = useEditableRows({ noun: 'Branch', toDraft, toInput, update: trpc.branches.update.mutationOptions, … });
 *   <Input aria-label="Location" {...rows.bind('location')} />
 */
export function useEditableRows<
  TRow extends { _id: string },
  TDraft extends { id: string },
  TUpdate extends ResolverDef,
  TDelete extends ResolverDef,
>({
  noun,
  toDraft,
  toInput,
  update,
  remove,
  invalidate,
  onSaved,
}: {
  noun: string;
  toDraft: (row: TRow) => TDraft;
  toInput: (draft: TDraft) => TUpdate['input'] | string;
  /** `trpc.<domain>.update.mutationOptions` */
  update: TRPCMutationOptions<TUpdate>;
  /** `trpc.<domain>.delete.mutationOptions`, given `{ id }` */
  remove: TRPCMutationOptions<TDelete>;
  invalidate: () => Promise<unknown>;
  onSaved?: (data: TUpdate['output']) => void;
}) {
  const lower = noun.toLowerCase();
  const edit = useInlineEdit({
    toDraft,
    mutationOptions: update,
    success: `${noun} updated successfully!`,
    failure: `Failed to update ${lower}. Please try again.`,
    invalidate,
    onSaved,
  });
  const del = useConfirmedDelete({
    toVariables: (row: TRow) => ({ id: row._id }),
    mutationOptions: remove,
    success: `${noun} deleted successfully!`,
    failure: `Failed to delete ${lower}. Please try again.`,
    invalidate,
  });
  const { draft, setDraft, cancel } = edit;

  const save = () => {
    if (!draft) return;
    const input = toInput(draft);
    if (typeof input === 'string') toast.error(input);
    else edit.update.mutate(input);
  };

  /** A text box's value and events for one field of the draft: Enter saves, Escape cancels. */
  const bind = (key: TextKey<TDraft>) => ({
    value: draft ? (draft[key] as string) : '',
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
      setDraft((d) => (d ? { ...d, [key]: e.target.value } : d)),
    onKeyDown: (e: KeyboardEvent) => {
      if (e.key === 'Enter') save();
      if (e.key === 'Escape') cancel();
    },
  });

  return {
    draft,
    setDraft,
    /** Whether this row is the one being edited. */
    editing: (row: TRow) => draft?.id === row._id,
    start: edit.start,
    cancel,
    save,
    pending: edit.update.isPending,
    bind,
    /**
     * The text box of one field on the row being edited, named `label`; nothing on other rows:
     *   cell: (b) => rows.input(b, 'location', 'Location') ?? b.location
     */
    input: (row: TRow, key: TextKey<TDraft>, label: string, props?: ComponentProps<typeof Input>) =>
      draft?.id === row._id ? <Input aria-label={label} {...props} {...bind(key)} /> : undefined,
    del,
  };
}

/** What a row's Edit, Delete, Save and Cancel buttons need of `useEditableRows`. */
export interface RowEditing<TRow> {
  editing: (row: TRow) => boolean;
  start: (row: TRow) => void;
  cancel: () => void;
  save: () => void;
  pending: boolean;
  del: { ask: (row: TRow) => void };
}
