import type { ComponentProps, ReactNode } from 'react';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/utils';

/** A label above its control, for the forms that keep their own state (dialogs, filters, the batch form). */
export function LabelledField({
  id,
  label,
  className,
  children,
}: {
  id: string;
  label: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={cn('grid gap-2', className)}>
      <Label htmlFor={id}>{label}</Label>
      {children}
    </div>
  );
}

/**
 * A LabelledField holding a text, date, time or number box of the same id (`className` is the
 * field's); `onValueChange` gets what is typed.
 */
export function LabelledInput({
  id,
  label,
  className,
  onValueChange,
  ...input
}: Omit<ComponentProps<typeof Input>, 'id' | 'className' | 'onChange'> & {
  id: string;
  label: ReactNode;
  className?: string;
  onValueChange: (value: string) => void;
}) {
  return (
    <LabelledField id={id} label={label} className={className}>
      <Input id={id} {...input} onChange={(e) => onValueChange(e.target.value)} />
    </LabelledField>
  );
}
