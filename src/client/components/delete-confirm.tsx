import type { ComponentProps, ReactNode } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';

/**
 * The confirmation of a list's delete: "Are you sure you want to delete the {what} **{name}**
 * {detail}? {consequence} This action cannot be undone."
 */
export function DeleteConfirm({
  dialog,
  what,
  name,
  detail,
  consequence,
  onConfirm,
}: {
  /** `useConfirmedDelete().dialog` */
  dialog: { open: boolean; onOpenChange: (open: boolean) => void; pending: boolean };
  what: string;
  name: string | undefined;
  detail?: ReactNode;
  consequence?: string;
  onConfirm: () => void;
}) {
  return (
    <ConfirmDialog
      {...dialog}
      description={
        <>
          Are you sure you want to delete the {what} <strong className="text-foreground">{name}</strong>
          {detail}? {consequence && `${consequence} `}This action cannot be undone.
        </>
      }
      onConfirm={onConfirm}
    />
  );
}

/**
 * The confirmation of a delete whose target carries its own label (`useConfirmedDelete` asked
 * with `{ id, label }`); `onConfirm` checks more before `del.confirm` when given.
 */
export function LabelledDeleteConfirm({
  del,
  onConfirm = del.confirm,
  ...words
}: {
  del: {
    dialog: ComponentProps<typeof DeleteConfirm>['dialog'];
    target: { label: string } | null;
    confirm: () => void;
  };
  what: string;
  consequence: string;
  onConfirm?: () => void;
}) {
  return <DeleteConfirm dialog={del.dialog} name={del.target?.label} onConfirm={onConfirm} {...words} />;
}
