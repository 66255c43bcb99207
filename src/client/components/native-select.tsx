import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';

export interface Choice {
  value: string;
  label: string;
}

/** Choices from a list of codes and their labels (methods, genders, weekdays…). */
export function choicesOf<T extends string>(values: readonly T[], labels: Readonly<Record<T, string>>): Choice[] {
  return values.map((value) => ({ value, label: labels[value] }));
}

/**
 * A plain <select> styled like the inputs: dependable in table rows, forms and filters, easy to drive from tests.
 * `choices` become its options, after `empty` (a first option of value '': "All branches", "Not given", …).
 */
export function NativeSelect({
  className,
  choices,
  empty,
  children,
  ...props
}: ComponentProps<'select'> & { choices?: readonly Choice[]; empty?: string }) {
  return (
    <select
      className={cn(
        'flex h-9 w-full min-w-0 rounded-md border border-input bg-transparent px-2 py-1 text-sm shadow-xs outline-none disabled:cursor-not-allowed disabled:opacity-50',
        'focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 aria-invalid:border-destructive',
        className,
      )}
      {...props}
    >
      {empty !== undefined && <option value="">{empty}</option>}
      {choices?.map((c) => (
        <option key={c.value} value={c.value}>
          {c.label}
        </option>
      ))}
      {children}
    </select>
  );
}

/** A NativeSelect that reports the chosen value rather than the change event. */
export function ChoiceSelect({
  onChange,
  ...props
}: Omit<ComponentProps<typeof NativeSelect>, 'onChange' | 'value'> & {
  value: string;
  onChange: (value: string) => void;
}) {
  return <NativeSelect {...props} onChange={(e) => onChange(e.target.value)} />;
}
