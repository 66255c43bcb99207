import { Link, type LinkProps } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { CardFooter } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/utils';

/** The form's error line under its fields (FormMessage in form-field.tsx renders it). */
export function FormError({ error, className }: { error: string | null; className?: string }) {
  if (!error) return null;
  return (
    <p role="alert" className={cn('text-sm text-destructive', className)}>
      {error}
    </p>
  );
}

/** A submit button that spins and says what it is doing while the request runs. */
export function SubmitButton({
  pending,
  pendingText,
  className,
  children,
}: {
  pending: boolean;
  pendingText: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Button type="submit" className={className} disabled={pending}>
      {pending && <Spinner />}
      {pending ? pendingText : children}
    </Button>
  );
}

/**
 * The foot of a card form: an optional way out (a link back, or a Cancel that closes the editor), then the
 * submit button. The way out is disabled while the request runs when it closes the editor.
 */
export function FormFooter({
  pending,
  pendingText,
  cancelTo,
  onCancel,
  cancelLabel = 'Cancel',
  children,
}: {
  pending: boolean;
  pendingText: string;
  cancelTo?: LinkProps['to'];
  onCancel?: () => void;
  cancelLabel?: string;
  children: ReactNode;
}) {
  return (
    <CardFooter className="mt-6 justify-end gap-2">
      {cancelTo && (
        <Button variant="outline" asChild>
          <Link to={cancelTo}>{cancelLabel}</Link>
        </Button>
      )}
      {onCancel && (
        <Button type="button" variant="outline" onClick={onCancel} disabled={pending}>
          {cancelLabel}
        </Button>
      )}
      <SubmitButton pending={pending} pendingText={pendingText}>
        {children}
      </SubmitButton>
    </CardFooter>
  );
}
