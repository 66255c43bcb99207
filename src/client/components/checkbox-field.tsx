import type { ReactNode } from 'react';

/**
 * A checkbox with its label beside it, the whole label clickable (Requires a room, Hold messages
 * during quiet hours, an on/off setting). With a `description` the label is the bold first line
 * and the description the line under it (Also waive the fee, Managers ask, admins approve).
 */
export function CheckboxField({
  id,
  label,
  description,
  checked,
  disabled,
  onCheckedChange,
}: {
  id?: string;
  label: ReactNode;
  description?: ReactNode;
  checked: boolean;
  disabled?: boolean;
  onCheckedChange: (checked: boolean) => void;
}) {
  const box = (className: string) => (
    <input
      id={id}
      type="checkbox"
      className={className}
      checked={checked}
      disabled={disabled}
      onChange={(e) => onCheckedChange(e.target.checked)}
    />
  );
  if (description === undefined) {
    return (
      <label className="flex items-center gap-3 text-sm font-medium">
        {box('size-4 accent-primary')}
        {label}
      </label>
    );
  }
  return (
    <label className="flex items-start gap-3 text-sm">
      {box('mt-0.5 size-4 accent-primary')}
      <span>
        <span className="font-medium">{label}</span>
        <span className="block text-muted-foreground">{description}</span>
      </span>
    </label>
  );
}
