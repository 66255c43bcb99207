import { cn } from '@/lib/utils';

/**
 * A person as the front desk knows them: the full name, with the username or e-mail beside it in
 * a quieter type. A name or address breaks only where it cannot fit the line whole, so it never
 * runs out of a narrow column (overflow-wrap), and a screen reader reads both.
 */
export function PersonName({
  fullName,
  handle,
  fallback = 'Unknown',
  handleFirst = false,
  className,
}: {
  fullName?: string | null;
  /** The username or e-mail the screen pins beside the name. */
  handle?: string | null;
  fallback?: string;
  /** Where the spec pins the handle as the column's content (Customer Name shows the e-mail): handle, then name. */
  handleFirst?: boolean;
  className?: string;
}) {
  const name = fullName?.trim();
  if (!name && !handle) return <span className={className}>{fallback}</span>;
  const first = handleFirst ? handle : name;
  const second = handleFirst ? name : handle;
  return (
    <span className={cn('min-w-0 [overflow-wrap:anywhere]', className)} data-person>
      {first && <span className="font-medium">{first}</span>}
      {first && second && ' '}
      {second && <span className={first ? 'text-xs font-normal text-muted-foreground' : undefined}>{second}</span>}
    </span>
  );
}
