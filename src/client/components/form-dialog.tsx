import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';

/**
 * The frame the form dialogs share (appointments, adjustments, their decisions): a form in a
 * dialog with its title, the fields, the server's or the form's message, and a footer whose Close
 * leaves and whose submit button shows a spinner while the request runs. `noValidate` leaves the
 * checks to the dialog's own submit (its message in `error`) instead of the browser's bubbles.
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
  noValidate,
  errorTestId,
  className,
  onClose,
  onSubmit,
  children,
}: {
  title: ReactNode;
  description: ReactNode;
  /** A message about the whole form, shown above the buttons as an alert. */
  error?: string | null;
  pending: boolean;
  submitLabel: ReactNode;
  submitVariant?: 'default' | 'destructive';
  submitDisabled?: boolean;
  closeLabel?: string;
  noValidate?: boolean;
  errorTestId?: string;
  className?: string;
  onClose: () => void;
  onSubmit: () => void;
  children: ReactNode;
}) {
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className={className}>
        <form
          className="min-w-0 space-y-4"
          noValidate={noValidate}
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
            <p role="alert" className="text-sm text-destructive" data-testid={errorTestId}>
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
