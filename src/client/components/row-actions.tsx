import { CheckIcon, EyeIcon, PencilIcon, Trash2Icon, XIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import type { ListColumn } from '@/components/data-list';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';

/*
 * The buttons of a list's rows, all here: View (a link), Edit and Delete, and Save and Cancel
 * while a row is edited in place. Each is named after its row ("Edit Kandy") for screen readers
 * and tests.
 */

/** 'sm' buttons carry their word; icon-only sizes name themselves in a tooltip instead. */
type RowButtonSize = 'sm' | 'icon' | 'icon-sm';

function RowButton({
  size,
  icon,
  word,
  label,
  destructive = false,
  onClick,
}: {
  size: RowButtonSize;
  icon: ReactNode;
  word: string;
  label: string;
  destructive?: boolean;
  onClick: () => void;
}) {
  const iconOnly = size !== 'sm';
  return (
    <Button
      size={size}
      variant="outline"
      className={destructive ? 'text-destructive hover:text-destructive' : undefined}
      onClick={onClick}
      aria-label={label}
      title={iconOnly ? word : undefined}
    >
      {icon}
      {!iconOnly && ` ${word}`}
    </Button>
  );
}

/** A row's Edit button; `label` is its accessible name (`Edit <name>`). */
function EditButton({ size = 'sm', label, onClick }: { size?: RowButtonSize; label: string; onClick: () => void }) {
  return <RowButton size={size} icon={<PencilIcon />} word="Edit" label={label} onClick={onClick} />;
}

/** A row's Delete button; `label` is its accessible name (`Delete <name>`). */
function DeleteButton({ size = 'sm', label, onClick }: { size?: RowButtonSize; label: string; onClick: () => void }) {
  return <RowButton size={size} icon={<Trash2Icon />} word="Delete" label={label} destructive onClick={onClick} />;
}

/** Save and Cancel of a row being edited in place. */
function SaveCancelButtons({
  onSave,
  onCancel,
  pending,
  iconOnly = false,
}: {
  onSave: () => void;
  onCancel: () => void;
  pending: boolean;
  iconOnly?: boolean;
}) {
  const check = pending ? <Spinner /> : <CheckIcon />;
  return iconOnly ? (
    <div className="flex justify-end gap-2">
      <Button size="icon-sm" onClick={onSave} disabled={pending} aria-label="Save" title="Save">
        {check}
      </Button>
      <Button size="icon-sm" variant="outline" onClick={onCancel} disabled={pending} aria-label="Cancel" title="Cancel">
        <XIcon />
      </Button>
    </div>
  ) : (
    <div className="flex justify-end gap-2">
      <Button size="sm" onClick={onSave} disabled={pending}>
        {check} Save
      </Button>
      <Button size="sm" variant="outline" onClick={onCancel} disabled={pending}>
        <XIcon /> Cancel
      </Button>
    </div>
  );
}

/** What a row's Edit, Delete, Save and Cancel buttons need of `useEditableRows`. */
export interface RowEditing<TRow> {
  name: (row: TRow) => string;
  editing: (row: TRow) => boolean;
  start: (row: TRow) => void;
  cancel: () => void;
  save: () => void;
  pending: boolean;
  del: { ask: (row: TRow) => void };
}

/**
 * The actions cell of a row edited in place (see useEditableRows): Save and Cancel while editing,
 * else Edit and Delete (each when allowed), or a dash when the row offers nothing to this user.
 */
export function RowEditActions<TRow>({
  rows,
  row,
  size = 'sm',
  canEdit = true,
  canDelete = true,
}: {
  rows: RowEditing<TRow>;
  row: TRow;
  size?: RowButtonSize;
  canEdit?: boolean;
  canDelete?: boolean;
}) {
  if (rows.editing(row))
    return (
      <SaveCancelButtons
        iconOnly={size === 'icon-sm'}
        onSave={rows.save}
        onCancel={rows.cancel}
        pending={rows.pending}
      />
    );
  if (!canEdit && !canDelete) return <span className="text-muted-foreground">—</span>;
  const name = rows.name(row);
  return (
    <div className="flex justify-end gap-2">
      {canEdit && <EditButton size={size} label={`Edit ${name}`} onClick={() => rows.start(row)} />}
      {canDelete && <DeleteButton size={size} label={`Delete ${name}`} onClick={() => rows.del.ask(row)} />}
    </div>
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

/** A row's other icon-only actions (a receipt, a refund, a void): `label` names it after its row, `title` says what it does. */
export function RowIconButton({
  icon,
  label,
  title,
  disabled,
  onClick,
}: {
  icon: ReactNode;
  label: string;
  title: string;
  disabled?: boolean;
  onClick: () => void;
}) {
  return (
    <Button size="icon-sm" variant="outline" aria-label={label} title={title} disabled={disabled} onClick={onClick}>
      {icon}
    </Button>
  );
}
