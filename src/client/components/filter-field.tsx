import type { ReactNode } from 'react';
import { DatePicker } from '@/components/date-picker';
import { NativeSelect } from '@/components/native-select';
import { Button } from '@/components/ui/button';
import { CardContent } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { oneOf } from '@/lib/list-search';
import { cn } from '@/lib/utils';

/**
 * A list filter with its label above it (From, Method, Actor…). The label wraps the control, so a
 * select or a text box is named by it; a date picker names itself ("From: 22 Nov 2026").
 */
export function FilterField({
  label,
  className,
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <label className={cn('grid gap-1 text-sm', className)}>
      <span className="text-muted-foreground">{label}</span>
      {children}
    </label>
  );
}

/** A filter's value in the URL and its setter (`usePagedList().filter('role')`). */
export interface FilterBinding<T> {
  value: T | undefined;
  onChange: (value: T | undefined) => void;
}

/** What a SelectFilter takes: its binding, its name, its options and the option for all. */
export type SelectFilterProps<T extends string> = FilterBinding<T> & {
  /** The select's accessible name. */
  label: string;
  options: readonly T[] | Record<T, string>;
  /** The option for no filter ("All roles"). */
  all: string;
  className?: string;
};

/**
 * A list filter choosing one of `options` (a list, or each value with its label) or all of them
 * (''): the URL keeps only a value it knows, so `onChange` gets one of the options or undefined.
 *   <SelectFilter label="Filter by role" all="All roles" options={ROLE_LABELS} {...paged.filter('role')} />
 */
export function SelectFilter<T extends string>({
  label,
  options,
  all,
  value,
  onChange,
  className = 'w-auto',
}: SelectFilterProps<T>) {
  const values: readonly T[] = Array.isArray(options) ? options : (Object.keys(options) as T[]);
  const labelOf = (v: T) => (Array.isArray(options) ? v : (options as Record<T, string>)[v]);
  return (
    <NativeSelect
      aria-label={label}
      className={className}
      value={value ?? ''}
      onChange={(e) => onChange(oneOf(values, e.target.value))}
      empty={all}
      choices={values.map((v) => ({ value: v, label: labelOf(v) }))}
    />
  );
}

/**
 * A SelectFilter with its label shown above it: `title` is both, unless the select's accessible
 * name (`label`) says more ("Record" above a select named "Record type").
 */
export function TitledSelectFilter<T extends string>({
  title,
  label = title,
  ...select
}: Omit<SelectFilterProps<T>, 'label'> & { title: string; label?: string }) {
  return (
    <FilterField label={title}>
      <SelectFilter<T> label={label} {...select} />
    </FilterField>
  );
}

/** From and To day filters, each a date picker that may be cleared; From is not after To. */
export function DateRangeFilter({ from, to }: { from: FilterBinding<string>; to: FilterBinding<string> }) {
  return (
    <>
      {(['From', 'To'] as const).map((label) => {
        const own = label === 'From' ? from : to;
        return (
          <FilterField key={label} label={label} className="w-40">
            <DatePicker
              label={label}
              clearable
              value={own.value ?? ''}
              max={label === 'From' ? to.value : undefined}
              min={label === 'To' ? from.value : undefined}
              onChange={(day) => own.onChange(day || undefined)}
            />
          </FilterField>
        );
      })}
    </>
  );
}

/**
 * The row of filters above a long list (the audit log, the message log): Clear filters once any
 * is set, and a spinner while a changed filter's rows load over the ones shown.
 */
export function FilterBar({
  filtered,
  onClear,
  refreshing,
  children,
}: {
  filtered: boolean;
  onClear: () => void;
  refreshing: boolean;
  children: ReactNode;
}) {
  return (
    <CardContent className="flex flex-wrap items-end gap-3">
      {children}
      {filtered && (
        <Button variant="ghost" onClick={onClear}>
          Clear filters
        </Button>
      )}
      {refreshing && <Spinner className="mb-2 text-muted-foreground" />}
    </CardContent>
  );
}
