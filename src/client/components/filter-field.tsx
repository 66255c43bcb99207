import type { ReactNode } from 'react';
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
