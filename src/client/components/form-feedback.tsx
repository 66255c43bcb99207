import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
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
