import type { ComponentProps, ReactNode } from 'react';
import { ListCard } from '@/components/list-card';
import { SortableHead } from '@/components/sortable-head';
import { TableCell, TableHead, TableRow } from '@/components/ui/table';
import type { ListSort } from '@/lib/list-search';

/** One column of a list screen: its header, how a row shows in it, and what the server sorts it by. */
export interface ListColumn<TRow, TSort extends string = string> {
  header: ReactNode;
  cell: (row: TRow) => ReactNode;
  /** The list procedure's sort column for this header; without it the header does not sort. */
  sort?: TSort;
  /** Classes of the header cell (widths, alignment). */
  headClassName?: string;
  /** Classes of the body cells. */
  className?: string;
}

type Paged = ComponentProps<typeof ListCard>['paged'] & { setSort: (sort: ListSort) => void };

/**
 * A server-paged list screen's table from its columns: the search card, the row numbers, the
 * sortable headers (the sort lives in the URL, `?sort=…&dir=…`), and one row per item.
 *   <DataList paged={paged} items={paged.list.data?.items} sort={sort} columns={columns} rowProps={…} … />
 */
export function DataList<TRow, TSort extends string>({
  paged,
  items,
  sort,
  columns,
  rowKey,
  rowProps,
  pageSize,
  ...card
}: Omit<ComponentProps<typeof ListCard>, 'paged' | 'head' | 'columns' | 'children'> & {
  paged: Paged;
  items: TRow[] | undefined;
  sort?: ListSort<TSort>;
  columns: Array<ListColumn<TRow, TSort>>;
  rowKey: (row: TRow) => string;
  /** The row's test id and data attributes (`{ 'data-testid': 'user-row', 'data-user-id': … }`). */
  rowProps?: (row: TRow) => Record<`data-${string}`, string>;
}) {
  return (
    <ListCard
      {...card}
      paged={paged}
      pageSize={pageSize}
      columns={columns.length + 1}
      head={
        <>
          <TableHead className="w-12">#</TableHead>
          {columns.map((c, i) =>
            c.sort && sort ? (
              <SortableHead key={i} column={c.sort} sort={sort} onSort={paged.setSort} className={c.headClassName}>
                {c.header}
              </SortableHead>
            ) : (
              <TableHead key={i} className={c.headClassName}>
                {c.header}
              </TableHead>
            ),
          )}
        </>
      }
    >
      {items?.map((row, i) => (
        <TableRow key={rowKey(row)} {...rowProps?.(row)}>
          <TableCell className="text-muted-foreground">{(paged.page - 1) * pageSize + i + 1}</TableCell>
          {columns.map((c, j) => (
            <TableCell key={j} className={c.className}>
              {c.cell(row)}
            </TableCell>
          ))}
        </TableRow>
      ))}
    </ListCard>
  );
}
