import { Link, type LinkComponentProps } from '@tanstack/react-router';
import { EyeIcon, PlusIcon } from 'lucide-react';
import type { ComponentProps, ReactNode } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import type { ListColumn } from '@/components/data-list';
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

/** The actions cell of a row edited in place (see useEditableRows), its buttons named after the row. */
export function RowEditActions<TRow>({
  rows,
  row,
  ...buttons
}: {
  rows: RowEditing<TRow>;
  row: TRow;
} & Pick<ComponentProps<typeof EditableRowActions>, 'size' | 'canEdit' | 'canDelete'>) {
  return (
    <EditableRowActions
      {...buttons}
      name={rows.name(row)}
      editing={rows.editing(row)}
      onEdit={() => rows.start(row)}
      onDelete={() => rows.del.ask(row)}
      onSave={rows.save}
      onCancel={rows.cancel}
      pending={rows.pending}
    />
  );
}

/** What a row's View link is given: its accessible name, its tooltip and the eye icon inside. */
export interface ViewLinkProps {
  'aria-label': string;
  title: string;
  children: ReactNode;
}

/**
 * The Actions column of a list whose rows open a detail page: a View link (an eye) and, when
 * `onDelete` is given, a Delete button, named after the row ("View booking of a@b.lk"). `view`
 * renders the record's link with the props it is given:
 *   viewDeleteColumn({ of: (b) => `booking of ${b.email}`, view: (b, link) => <Link to=… {...link} />, onDelete })
 */
export function viewDeleteColumn<TRow>({
  of,
  view,
  onDelete,
}: {
  of: (row: TRow) => string;
  view: (row: TRow, link: ViewLinkProps) => ReactNode;
  onDelete?: (row: TRow) => void;
}): ListColumn<TRow, never> {
  return {
    header: 'Actions',
    headClassName: 'w-24 text-right',
    className: 'text-right',
    // Icon buttons, as in the other lists: text buttons pushed the column out of a 1360px screen.
    cell: (row) => (
      <div className="flex justify-end gap-2">
        <Button size="icon-sm" variant="outline" asChild>
          {view(row, { 'aria-label': `View ${of(row)}`, title: 'View', children: <EyeIcon /> })}
        </Button>
        {onDelete && <DeleteButton size="icon-sm" label={`Delete ${of(row)}`} onClick={() => onDelete(row)} />}
      </div>
    ),
  };
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
