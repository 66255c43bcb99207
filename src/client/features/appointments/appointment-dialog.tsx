import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { NativeSelect } from '@/components/native-select';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/utils';
import { trpc } from '@/lib/trpc';

/**
 * The frame the appointment dialogs share (book, reschedule, cancel, schedule sessions): a form
 * in a dialog with its title, the fields, the server's or the form's message, and a footer whose
 * Close leaves and whose submit button shows a spinner while the request runs.
 */
export function FormDialog({
  title,
  description,
  error,
  pending,
  submitLabel,
  submitVariant,
  submitDisabled,
  closeLabel = 'Close',
  className,
  onClose,
  onSubmit,
  children,
}: {
  title: string;
  description: ReactNode;
  /** A message about the whole form, shown above the buttons as an alert. */
  error?: string;
  pending: boolean;
  submitLabel: string;
  submitVariant?: 'destructive';
  submitDisabled?: boolean;
  closeLabel?: string;
  className?: string;
  onClose: () => void;
  onSubmit: () => void;
  children: ReactNode;
}) {
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className={className}>
        <form
          className="space-y-4"
          onSubmit={(e) => {
            e.preventDefault();
            onSubmit();
          }}
        >
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription>{description}</DialogDescription>
          </DialogHeader>
          {children}
          {error && (
            <p role="alert" className="text-sm text-destructive">
              {error}
            </p>
          )}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              {closeLabel}
            </Button>
            <Button type="submit" variant={submitVariant} disabled={pending || submitDisabled}>
              {pending && <Spinner />} {submitLabel}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** A label above its control (in the dialogs and the calendar's filters). */
export function LabelledField({
  id,
  label,
  className,
  children,
}: {
  id: string;
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={cn('space-y-1', className)}>
      <Label htmlFor={id}>{label}</Label>
      {children}
    </div>
  );
}

export interface Choice {
  value: string;
  label: string;
}

/** A select of named choices; `empty` is a first choice of value '' ("No room", "Choose…"). */
export function ChoiceSelect({
  id,
  value,
  onChange,
  choices,
  empty,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  choices: readonly Choice[];
  empty?: string;
}) {
  return (
    <NativeSelect id={id} value={value} onChange={(e) => onChange(e.target.value)}>
      {empty !== undefined && <option value="">{empty}</option>}
      {choices.map((c) => (
        <option key={c.value} value={c.value}>
          {c.label}
        </option>
      ))}
    </NativeSelect>
  );
}

/** The branch's rooms, with "No room" first. */
export function RoomSelect({
  id,
  branchId,
  value,
  onChange,
}: {
  id: string;
  branchId: string;
  value: string;
  onChange: (roomId: string) => void;
}) {
  const rooms = useQuery({ ...trpc.rooms.list.queryOptions({ branchId }), enabled: !!branchId });
  const choices = (rooms.data?.data ?? []).map((r) => ({ value: r._id, label: r.name }));
  return <ChoiceSelect id={id} value={value} onChange={onChange} choices={choices} empty="No room" />;
}
