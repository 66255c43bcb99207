import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { ResolverDef, TRPCMutationOptions } from '@trpc/tanstack-react-query';
import type { ChangeEvent, ComponentProps, KeyboardEvent, ReactNode } from 'react';
import { toast } from 'sonner';
import type { ListColumn } from '@/components/data-list';
import { DeleteConfirm } from '@/components/delete-confirm';
import { Handle } from '@/components/person-name';
import { Input } from '@/components/ui/input';
import { useConfirmedDelete, useInlineEdit } from '@/lib/use-row-mutations';

/** The keys of a draft whose values are typed into a text box. */
type TextKey<TDraft> = { [K in keyof TDraft]: TDraft[K] extends string ? K : never }[keyof TDraft] & string;

/** The keys of a row whose values are text. */
type StringKey<TRow> = { [K in keyof TRow]: TRow[K] extends string ? K : never }[keyof TRow];

/** A field's text (`StringKey` already keeps other fields out; the compiler cannot follow it into `row[key]`). */
const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** How `rows.column` draws a column beyond its field and header. */
type ColumnOptions<TRow, TSort extends string> = Pick<ListColumn<TRow, TSort>, 'sort' | 'className'> & {
  /** The row's name (bold; its box takes the focus when editing starts). */
  main?: boolean;
  /** The cell of a row not being edited (a link to the record); the field's text by default. */
  show?: (row: TRow) => ReactNode;
};

/**
 * The rows of a list screen edited in place and deleted behind a confirmation, with
 * docs/product.md#messages's toasts for `noun` ('Branch' gives 'Branch updated successfully!' and
 * 'Failed to delete branch. Please try again.'). `toInput` reads the draft before it is sent, with
 * the update procedure's input schema (`readWith(ZUpdateBranchInput)`): a string is the schema's
 * message, toasted instead. `name` is how a row is called in its buttons' labels and
 * the delete confirmation.
 * `procedures` is the domain's router (`trpc.branches`): its `update` and `delete` save, and every
 * query under it (and under each router in `also`) is refetched after a change.
 *   const rows = useEditableRows({ noun: 'Branch', toDraft, toInput: readWith(ZUpdateBranchInput), procedures: trpc.branches });
 *   <Input aria-label="Location" {...rows.bind('location')} />
 */
export function useEditableRows<
  TRow extends { _id: string },
  TDraft extends { id: string },
  TUpdate extends ResolverDef,
  TDelete extends ResolverDef,
>({
  noun,
  name,
  toDraft,
  toInput,
  procedures,
  also = [],
  onSaved,
}: {
  noun: string;
  name: (row: TRow) => string;
  toDraft: (row: TRow) => TDraft;
  toInput: (draft: TDraft) => TUpdate['input'] | string;
  /** `trpc.<domain>`: its `update` takes what `toInput` returns, its `delete` takes `{ id }`. */
  procedures: {
    update: { mutationOptions: TRPCMutationOptions<TUpdate> };
    delete: { mutationOptions: TRPCMutationOptions<TDelete> };
  } & Refetched;
  /** Other routers whose answers show these rows (a course's name in the enrolments). */
  also?: Refetched[];
  onSaved?: (data: TUpdate['output']) => void;
}) {
  const queryClient = useQueryClient();
  const invalidate = () => Promise.all([procedures, ...also].map((p) => queryClient.invalidateQueries(p.pathFilter())));
  const update = procedures.update.mutationOptions;
  const remove = procedures.delete.mutationOptions;
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

  const input = (row: TRow, key: TextKey<TDraft>, label: string, props?: ComponentProps<typeof Input>) =>
    draft?.id === row._id ? <Input aria-label={label} {...props} {...bind(key)} /> : undefined;

  return {
    draft,
    setDraft,
    name,
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
    input,
    /**
     * A column of one text field of the row and the draft, edited in place; its header names the
     * text box too. Free text, so it wraps:
     *   rows.column('location', 'Location', { sort: 'location' })
     */
    column: <TSort extends string>(
      key: TextKey<TDraft> & StringKey<TRow>,
      header: string,
      { main, show, ...column }: ColumnOptions<TRow, TSort> = {},
    ): ListColumn<TRow, TSort> => ({
      header,
      wrap: true,
      className: main ? 'font-medium' : undefined,
      ...column,
      cell: (row) =>
        input(row, key, header, main ? { autoFocus: true } : undefined) ??
        (show ? show(row) : <Handle text={text(row[key])} />),
    }),
    /** The delete confirmation, "… delete the course **Yoga**? {consequence} This action cannot be undone." */
    deleteConfirm: (consequence?: string) => (
      <DeleteConfirm
        dialog={del.dialog}
        what={lower}
        name={del.target ? name(del.target) : undefined}
        consequence={consequence}
        onConfirm={del.confirm}
      />
    ),
    del,
  };
}

/** A tRPC router whose queries are refetched (`trpc.enrollments`). */
interface Refetched {
  pathFilter: () => Parameters<QueryClient['invalidateQueries']>[0];
}
