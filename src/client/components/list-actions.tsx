import { Link, type LinkComponentProps } from '@tanstack/react-router';
import { EyeIcon, PlusIcon } from 'lucide-react';
import type { ComponentProps, ReactNode } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { DeleteButton, EditableRowActions } from '@/components/row-actions';
import { Button } from '@/components/ui/button';
import { useIsAdmin } from '@/lib/auth';
import type { RowEditing } from '@/lib/use-editable-rows';

/**
 * A list screen's header action that opens its create form ("Add Branch", "Enroll Student");
 * `adminOnly` shows it to admins and superadmins only (the server refuses the others' creates).
 */
export function AddLink({
  to,
  adminOnly,
  children,
}: {
  to: LinkComponentProps['to'];
  adminOnly?: boolean;
  children: ReactNode;
}) {
  const admin = useIsAdmin();
  if (adminOnly && !admin) return null;
  return (
    <Button asChild>
      <Link to={to}>
        <PlusIcon /> {children}
      </Link>
    </Button>
  );
}

/** The actions cell of a row edited in place (see useEditableRows). */
export function RowEditActions<TRow>({
  rows,
  row,
  ...buttons
}: {
  rows: RowEditing<TRow>;
  row: TRow;
} & Pick<ComponentProps<typeof EditableRowActions>, 'name' | 'size' | 'canEdit' | 'canDelete'>) {
  return (
    <EditableRowActions
      {...buttons}
      editing={rows.editing(row)}
      onEdit={() => rows.start(row)}
      onDelete={() => rows.del.ask(row)}
      onSave={rows.save}
      onCancel={rows.cancel}
      pending={rows.pending}
    />
  );
}

/**
 * A row's View link (an eye) and, when `onDelete` is given, its Delete button. `view` renders the
 * record's link around the icon it is given.
 */
export function ViewDeleteActions({
  view,
  deleteLabel,
  onDelete,
}: {
  view: (icon: ReactNode) => ReactNode;
  deleteLabel: string;
  onDelete?: () => void;
}) {
  return (
    <div className="flex justify-end gap-2">
      <Button size="icon-sm" variant="outline" asChild>
        {view(<EyeIcon />)}
      </Button>
      {onDelete && <DeleteButton size="icon-sm" label={deleteLabel} onClick={onDelete} />}
    </div>
  );
}

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
