import { CheckIcon, PencilIcon, Trash2Icon, XIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';

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
export function EditButton({
  size = 'sm',
  label,
  onClick,
}: {
  size?: RowButtonSize;
  label: string;
  onClick: () => void;
}) {
  return <RowButton size={size} icon={<PencilIcon />} word="Edit" label={label} onClick={onClick} />;
}

/** A row's Delete button; `label` is its accessible name (`Delete <name>`). */
export function DeleteButton({
  size = 'sm',
  label,
  onClick,
}: {
  size?: RowButtonSize;
  label: string;
  onClick: () => void;
}) {
  return <RowButton size={size} icon={<Trash2Icon />} word="Delete" label={label} destructive onClick={onClick} />;
}

/** Save and Cancel of a row being edited in place. */
export function SaveCancelButtons({
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

/**
 * The actions cell of a row edited in place: Save and Cancel while editing, else Edit and Delete
 * (each when allowed), or a dash when the row offers nothing to this user.
 */
export function EditableRowActions({
  name,
  editing,
  size = 'sm',
  canEdit = true,
  canDelete = true,
  onEdit,
  onDelete,
  onSave,
  onCancel,
  pending,
}: {
  /** What the row is called in the buttons' names (`Edit <name>`). */
  name: string;
  editing: boolean;
  size?: RowButtonSize;
  canEdit?: boolean;
  canDelete?: boolean;
  onEdit: () => void;
  onDelete: () => void;
  onSave: () => void;
  onCancel: () => void;
  pending: boolean;
}) {
  if (editing)
    return <SaveCancelButtons iconOnly={size === 'icon-sm'} onSave={onSave} onCancel={onCancel} pending={pending} />;
  if (!canEdit && !canDelete) return <span className="text-muted-foreground">—</span>;
  return (
    <div className="flex justify-end gap-2">
      {canEdit && <EditButton size={size} label={`Edit ${name}`} onClick={onEdit} />}
      {canDelete && <DeleteButton size={size} label={`Delete ${name}`} onClick={onDelete} />}
    </div>
  );
}
