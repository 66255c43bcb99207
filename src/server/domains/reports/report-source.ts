/*
 * What a report is, whatever its output (docs/reports.md): its columns, its rows and its totals.
 * The helpers that build one sit beside it by subject: report-batches.ts walks the rows in keyset
 * batches, report-lists.ts makes list reports and their custom variants, report-filters.ts the
 * conditions and the filter lines, report-values.ts the cells' values, report-totals.ts the totals.
 */

export type CellValue = string | number | null;
export type ReportRow = Record<string, CellValue>;

export interface ReportColumn {
  key: string;
  header: string;
  /** money: a decimal amount; date: YYYY-MM-DD; datetime: an ISO instant. */
  type: 'text' | 'money' | 'int' | 'date' | 'datetime';
  width: number;
}

/**
 * One report, whatever its output: the columns, a row count, the rows in batches (keyset
 * pagination, so memory stays flat however many rows there are), and totals computed in SQL.
 */
export interface ReportSource {
  title: string;
  /** File name without date and extension (docs/product.md#rest-paths). */
  fileBase: string;
  columns: ReportColumn[];
  /** Human-readable lines naming the filters used (printed on the PDF and the Excel info sheet). */
  filterLines: string[];
  count(): Promise<number>;
  batches(batchSize: number): AsyncGenerator<ReportRow[]>;
  /** Rows printed after the data (bold), e.g. totals. */
  totals(): Promise<ReportRow[]>;
  /** Extra JSON fields of the `format=json` answer. */
  summary?(): Promise<Record<string, unknown>>;
}
