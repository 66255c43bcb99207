import type { ReactNode } from 'react';
import { toast } from 'sonner';
import { FormError } from '@/components/form-feedback';
import { LoadError } from '@/components/load-error';
import { Button } from '@/components/ui/button';
import { explainedMessage } from '@/lib/errors';
import { cn, onSubmitted } from '@/lib/utils';

/*
 * The parts Settings' small lists share (a practitioner's time off, a branch's closures, rooms):
 * what adding and removing an entry do afterwards, the list with a Remove button per entry, and
 * the inline form that adds one with its message below.
 */

/** After an add: a toast, the form emptied and the list read again; a refusal goes under the form. */
export function afterAdd(o: {
  added: string;
  failed: string;
  reset: () => void;
  refresh: () => Promise<unknown>;
  setError: (message: string) => void;
}) {
  return {
    onSuccess: async () => {
      toast.success(o.added);
      o.reset();
      await o.refresh();
    },
    onError: (err: unknown) => o.setError(explainedMessage(err, o.failed)),
  };
}

/** After a remove: the server's message as a toast and the list read again; a refusal as a toast. */
export function afterRemove(o: { failed: string; refresh: () => Promise<unknown> }) {
  return {
    onSuccess: async (res: { message: string }) => {
      toast.success(res.message);
      await o.refresh();
    },
    onError: (err: unknown) => toast.error(explainedMessage(err, o.failed)),
  };
}

/** Entries with their reason, each with a Remove button; `empty` when there are none. */
export function EntryList<T extends { _id: string; reason?: string | null }>({
  list,
  when,
  removeLabel,
  removing,
  onRemove,
  empty,
}: {
  list: { isError: boolean; error: unknown; data?: { data: T[] }; refetch: () => unknown };
  /** The entry's day or period as shown. */
  when: (entry: T) => string;
  /** The Remove button's accessible name for the entry. */
  removeLabel: (entry: T) => string;
  removing: boolean;
  onRemove: (entry: T) => void;
  empty: string;
}) {
  if (list.isError) return <LoadError error={list.error} onRetry={() => void list.refetch()} />;
  if (!list.data?.data.length) return <p className="text-sm text-muted-foreground">{empty}</p>;
  return (
    <ul className="grid gap-1 text-sm">
      {list.data.data.map((entry) => (
        <li key={entry._id} className="flex flex-wrap items-center gap-2">
          <span>
            {when(entry)}
            {entry.reason ? ` · ${entry.reason}` : ''}
          </span>
          <Button
            size="sm"
            variant="ghost"
            aria-label={removeLabel(entry)}
            disabled={removing}
            onClick={() => onRemove(entry)}
          >
            Remove
          </Button>
        </li>
      ))}
    </ul>
  );
}

/** The inline form that adds an entry: its fields, the button, and the message below. */
export function AddForm({
  className,
  submitLabel,
  submitVariant,
  disabled,
  error,
  onSubmit,
  children,
}: {
  className: string;
  submitLabel: string;
  submitVariant?: 'outline';
  disabled: boolean;
  error: string | null;
  onSubmit: () => void;
  children: ReactNode;
}) {
  return (
    <>
      <form className={className} onSubmit={onSubmitted(onSubmit)}>
        {children}
        <Button type="submit" variant={submitVariant} disabled={disabled}>
          {submitLabel}
        </Button>
      </form>
      <FormError error={error} />
    </>
  );
}

/** A small label above its control, as these forms lay them out. */
export function FieldBox({
  id,
  label,
  className,
  children,
}: {
  /** The control's id; without one the label is plain text (the control names itself). */
  id?: string;
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={cn('grid gap-1', className)}>
      {id ? (
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
      ) : (
        <span className="text-sm font-medium">{label}</span>
      )}
      {children}
    </div>
  );
}
