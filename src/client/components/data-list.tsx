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
  /**
   * Free text a user typed (names, e-mails, locations): wraps, and breaks inside a long word, so one
   * long value never pushes the row actions out of view. Money, dates and badges stay on one line.
   */
  wrap?: boolean;
}

/** The classes of a cell of free text (see `ListColumn.wrap`), for tables not built from columns. */
export const WRAP = 'min-w-28 whitespace-normal [overflow-wrap:anywhere]';
const cellClass = (c: { className?: string; wrap?: boolean }) =>
  c.wrap ? (c.className ? `${WRAP} ${c.className}` : WRAP) : c.className;

/** How the rows of a list are marked for tests. */
interface RowsProps<TRow> {
  items: TRow[] | undefined;
  /** Marks each row `data-testid="<record>-row" data-<record>-id="<_id>"`. */
  record?: string;
  /** More data attributes of a row (`{ 'data-status': … }`). */
  rowProps?: (row: TRow) => Record<`data-${string}`, string>;
}

function Rows<TRow extends { _id: string }, TSort extends string>({
  items,
  record,
  rowProps,
  columns,
  firstNumber,
}: RowsProps<TRow> & { columns: Array<ListColumn<TRow, TSort>>; firstNumber?: number }) {
  return items?.map((row, i) => (
    <TableRow
      key={row._id}
      {...(record && { 'data-testid': `${record}-row`, [`data-${record}-id`]: row._id })}
      {...rowProps?.(row)}
    >
      {firstNumber !== undefined && <TableCell className="text-muted-foreground">{firstNumber + i}</TableCell>}
      {columns.map((c, j) => (
        <TableCell key={j} className={cellClass(c)}>
          {c.cell(row)}
        </TableCell>
      ))}
    </TableRow>
  ));
}

type Paged<TRow> = ComponentProps<typeof ListCard>['paged'] & {
  list: { data?: { items: TRow[] } };
  setSort: (sort: ListSort) => void;
};

/**
 * A server-paged list screen's table from its columns: the search card, the row numbers, the
 * sortable headers (the sort lives in the URL, `?sort=…&dir=…`), and one row per item.
 *   <DataList paged={paged} sort={sort} columns={columns} record="user" … />
 */
export function DataList<TRow extends { _id: string }, TSort extends string>({
  paged,
  sort,
  columns,
  record,
  rowProps,
  pageSize,
  numbered = true,
  ...card
}: Omit<ComponentProps<typeof ListCard>, 'paged' | 'head' | 'columns' | 'children'> &
  Omit<RowsProps<TRow>, 'items'> & {
    paged: Paged<TRow>;
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
        items={paged.list.data?.items}
        record={record}
        rowProps={rowProps}
        columns={columns}
        firstNumber={numbered ? (paged.page - 1) * pageSize + 1 : undefined}
      />
    </ListCard>
  );
}

/** The same columns as a plain table of a few rows (a record's payments on its detail screen). */
export function StaticList<TRow extends { _id: string }, TSort extends string>({
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
