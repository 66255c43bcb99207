import type { ReactNode } from 'react';
import { withWrapPoints } from '@/components/person-name';

/**
 * The title row every screen starts with; `actions` sit on the right (e.g. an Add button). A
 * description may name a person's e-mail: it wraps at its dots and @ rather than widen the page.
 */
export function PageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
      <div className="min-w-0 max-w-full">
        <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
        {description && (
          <p className="mt-1 text-sm break-words text-muted-foreground">
            {typeof description === 'string' ? withWrapPoints(description) : description}
          </p>
        )}
      </div>
      {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
    </div>
  );
}
