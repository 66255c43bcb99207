import type { ComponentProps, ReactNode } from 'react';
import { ListCard } from '@/components/list-card';
import { SortableHead } from '@/components/sortable-head';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
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

/** How the rows of a list are told apart and marked for tests. */
interface RowsProps<TRow> {
  items: TRow[] | undefined;
  rowKey: (row: TRow) => string;
  /** The row's test id and data attributes (`{ 'data-testid': 'user-row', 'data-user-id': … }`). */
  rowProps?: (row: TRow) => Record<`data-${string}`, string>;
}

function Rows<TRow, TSort extends string>({
  items,
  rowKey,
  rowProps,
  columns,
  firstNumber,
}: RowsProps<TRow> & { columns: Array<ListColumn<TRow, TSort>>; firstNumber?: number }) {
  return items?.map((row, i) => (
    <TableRow key={rowKey(row)} {...rowProps?.(row)}>
      {firstNumber !== undefined && <TableCell className="text-muted-foreground">{firstNumber + i}</TableCell>}
      {columns.map((c, j) => (
        <TableCell key={j} className={c.className}>
          {c.cell(row)}
        </TableCell>
      ))}
    </TableRow>
  ));
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
  numbered = true,
  ...card
}: Omit<ComponentProps<typeof ListCard>, 'paged' | 'head' | 'columns' | 'children'> &
  RowsProps<TRow> & {
    paged: Paged;
    sort?: ListSort<TSort>;
    columns: Array<ListColumn<TRow, TSort>>;
    /** A '#' column counting the rows across pages (off where the table is wide already). */
    numbered?: boolean;
  }) {
  return (
    <ListCard
      {...card}
      paged={paged}
      pageSize={pageSize}
      columns={columns.length + (numbered ? 1 : 0)}
      head={
        <>
          {numbered && <TableHead className="w-12">#</TableHead>}
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
      <Rows
        items={items}
        rowKey={rowKey}
        rowProps={rowProps}
        columns={columns}
        firstNumber={numbered ? (paged.page - 1) * pageSize + 1 : undefined}
      />
    </ListCard>
  );
}

/** The same columns as a plain table of a few rows (a record's payments on its detail screen). */
export function StaticList<TRow, TSort extends string>({
  label,
  empty,
  columns,
  ...rows
}: RowsProps<TRow> & { label: string; empty: string; columns: Array<ListColumn<TRow, TSort>> }) {
  return (
    <Table containerClassName="rounded-md border" aria-label={label}>
      <TableHeader>
        <TableRow>
          {columns.map((c, i) => (
            <TableHead key={i} className={c.headClassName}>
              {c.header}
            </TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.items?.length === 0 && (
          <TableRow>
            <TableCell colSpan={columns.length} className="text-center text-muted-foreground">
              {empty}
            </TableCell>
          </TableRow>
        )}
        <Rows {...rows} columns={columns} />
      </TableBody>
    </Table>
  );
}
