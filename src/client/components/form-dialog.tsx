import type { ReactNode } from 'react';
import type { FieldValues, SubmitHandler } from 'react-hook-form';
import { ZodFormElement } from '@/components/form-field';
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
import type { ZodForm } from '@/lib/use-zod-form';
import { onSubmitted } from '@/lib/utils';

/** A schema-driven form (useZodForm) as the dialog's form: its fields and FormMessage go in the children. */
interface ZodFormSubmit<TValues extends FieldValues, TOut> {
  form: ZodForm<TValues, TOut>;
  idPrefix?: string;
  onValid: SubmitHandler<TOut>;
}

/**
 * The frame the form dialogs share (appointments, adjustments, their decisions): a form in a
 * dialog with its title, the fields, the server's or the form's message, and a footer whose Close
 * leaves and whose submit button shows a spinner while the request runs. `noValidate` leaves the
 * checks to the dialog's own submit (its message in `error`) instead of the browser's bubbles.
 * With `zodForm` instead of `onSubmit` the form is that schema's (ZodFormElement), which never
 * lets the browser check.
 */
export function FormDialog<TValues extends FieldValues, TOut>({
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
  zodForm,
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
  children: ReactNode;
} & ({ onSubmit: () => void; zodForm?: never } | { onSubmit?: never; zodForm: ZodFormSubmit<TValues, TOut> })) {
  const formClassName = 'min-w-0 space-y-4';
  const content = (
    <>
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
    </>
  );
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className={className}>
        {zodForm ? (
          <ZodFormElement {...zodForm} className={formClassName}>
            {content}
          </ZodFormElement>
        ) : (
          <form className={formClassName} noValidate={noValidate} onSubmit={onSubmitted(onSubmit)}>
            {content}
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
