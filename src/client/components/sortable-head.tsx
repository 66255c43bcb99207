import { ArrowDownIcon, ArrowUpDownIcon, ArrowUpIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { TableHead } from '@/components/ui/table';
import type { ListSort } from '@/lib/list-search';
import { cn } from '@/lib/utils';

/**
 * A column header that sorts the list on the server: a click sorts by the column ascending, a
 * second click descending. The header says which way it is sorted (aria-sort) for screen readers.
 */
export function SortableHead<T extends string>({
  column,
  sort,
  onSort,
  className,
  children,
}: {
  column: T;
  sort: ListSort<T>;
  onSort: (next: ListSort<T>) => void;
  className?: string;
  children: ReactNode;
}) {
  const active = sort.by === column;
  const Icon = !active ? ArrowUpDownIcon : sort.dir === 'asc' ? ArrowUpIcon : ArrowDownIcon;
  return (
    <TableHead className={className} aria-sort={active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : undefined}>
      <button
        type="button"
        onClick={() => onSort({ by: column, dir: active && sort.dir === 'asc' ? 'desc' : 'asc' })}
        className="-mx-1 inline-flex items-center gap-1 rounded px-1 font-medium outline-none hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50"
      >
        {children}
        <Icon aria-hidden className={cn('size-3.5 shrink-0', !active && 'opacity-50')} />
      </button>
    </TableHead>
  );
}
