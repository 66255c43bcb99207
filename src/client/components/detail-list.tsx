import type { ReactNode } from 'react';
import { cn } from '@/lib/utils';

/** A record's fields as label and value pairs: a narrow label column on a phone, a wider one above. */
export function DetailList({ className, children }: { className?: string; children: ReactNode }) {
  return (
    <dl
      className={cn(
        'grid grid-cols-[7rem_minmax(0,1fr)] gap-x-4 gap-y-2 text-sm sm:grid-cols-[10rem_minmax(0,1fr)]',
        className,
      )}
    >
      {children}
    </dl>
  );
}

export function DetailRow({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className={cn('break-words', className)}>{children}</dd>
    </>
  );
}
