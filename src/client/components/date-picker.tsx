import { CalendarIcon } from 'lucide-react';
import { Popover } from 'radix-ui';
import { useState } from 'react';
import { DayPicker } from 'react-day-picker';
import 'react-day-picker/style.css';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import { formatDay } from '@shared/format';

const pad = (n: number) => String(n).padStart(2, '0');
/** 'YYYY-MM-DD' as the local calendar day it names. */
function toDate(day: string): Date | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  return m ? new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : undefined;
}
const toDay = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/**
 * A calendar day ('YYYY-MM-DD', or '' for none) chosen from a calendar and shown as the product
 * writes days, '22 Nov 2026' (docs/architecture.md#forms). The button opens the calendar with the
 * focus on the chosen day (or today): arrows move by day and week, Page Up and Page Down by month,
 * Enter picks, Escape closes. Its name says the label and the day, as it reads.
 */
export function DatePicker({
  id,
  label,
  value,
  onChange,
  max,
  min,
  clearable,
  className,
  'aria-invalid': invalid,
  'aria-describedby': describedBy,
}: {
  id?: string;
  label: string;
  value: string;
  onChange: (day: string) => void;
  max?: string;
  min?: string;
  /** Offer "Clear" (an optional filter). */
  clearable?: boolean;
  className?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}) {
  const [open, setOpen] = useState(false);
  const selected = toDate(value);
  const text = selected ? formatDay(value) : 'Pick a date';
  const before = min ? toDate(min) : undefined;
  const after = max ? toDate(max) : undefined;
  const today = new Date();
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger asChild>
        <Button
          id={id}
          type="button"
          variant="outline"
          aria-label={`${label}: ${text}`}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          className={cn('w-full justify-start font-normal', !selected && 'text-muted-foreground', className)}
        >
          <CalendarIcon aria-hidden="true" />
          {text}
        </Button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="start"
          sideOffset={4}
          className="z-50 rounded-md border bg-popover p-2 text-popover-foreground shadow-md"
          aria-label={`Choose ${label.toLowerCase()}`}
          // The focus goes to the chosen day (or today), not the month list, so arrows move by day.
          onOpenAutoFocus={(e) => {
            e.preventDefault();
            const root = e.currentTarget instanceof HTMLElement ? e.currentTarget : null;
            const day =
              root?.querySelector<HTMLElement>('td[data-selected] button') ??
              root?.querySelector<HTMLElement>('td[data-today] button') ??
              root?.querySelector<HTMLElement>('td:not([data-disabled]) button');
            day?.focus();
          }}
        >
          <DayPicker
            mode="single"
            selected={selected}
            defaultMonth={selected ?? (after && after < today ? after : today)}
            onSelect={(d) => {
              if (d) onChange(toDay(d));
              setOpen(false);
            }}
            disabled={[...(before ? [{ before }] : []), ...(after ? [{ after }] : [])]}
            captionLayout="dropdown"
            // A day's name starts with the number it shows (WCAG 2.5.3, label in name): 'Sunday 1 Nov 2026'.
            labels={{
              labelDayButton: (date) =>
                date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', weekday: 'long' }),
            }}
            startMonth={before ?? new Date(today.getFullYear() - 10, 0)}
            endMonth={after ?? new Date(today.getFullYear() + 5, 11)}
          />
          {clearable && value && (
            <Button
              type="button"
              variant="ghost"
              size="sm"
              className="w-full"
              onClick={() => {
                onChange('');
                setOpen(false);
              }}
            >
              Clear
            </Button>
          )}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
