import type { ReactNode } from 'react';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';

/** A column's heading; a numeric one is right-aligned over its figures. */
export type SimpleHead = string | { label: string; numeric: true };

export const numeric = (label: string): SimpleHead => ({ label, numeric: true });

/**
 * A table of rows a query already loaded in full (no sorting, no paging): its headings, a line
 * saying `empty` across every column when there are no rows, then `children` for each row (with
 * its own key). The empty line spans as many columns as there are headings.
 */
export function SimpleTable<T>({
  label,
  heads,
  rows,
  empty,
  containerClassName = 'rounded-md border',
  children,
}: {
  /** The table's accessible name. */
  label: string;
  heads: readonly SimpleHead[];
  rows: readonly T[];
  empty: string;
  containerClassName?: string;
  children: (row: T, index: number) => ReactNode;
}) {
  return (
    <Table containerClassName={containerClassName} aria-label={label}>
      <TableHeader>
        <TableRow>
          {heads.map((h) =>
            typeof h === 'string' ? (
              <TableHead key={h}>{h}</TableHead>
            ) : (
              <TableHead key={h.label} className="text-right">
                {h.label}
              </TableHead>
            ),
          )}
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.length === 0 && (
          <TableRow>
            <TableCell colSpan={heads.length} className="text-center text-muted-foreground">
              {empty}
            </TableCell>
          </TableRow>
        )}
        {rows.map(children)}
      </TableBody>
    </Table>
  );
}
