import { z } from 'zod';
import { MAX_PAGE, zSearch } from '@shared/schemas/primitives';

/** Server-side paging for every list that can grow. */
export const ZPageInput = z.object({
  page: z
    .number({ error: 'Page must be a whole number.' })
    .int('Page must be a whole number.')
    .min(1, 'Page must be at least 1.')
    .max(MAX_PAGE, `Page must be at most ${MAX_PAGE}.`)
    .default(1),
  pageSize: z
    .number({ error: 'Rows per page must be a whole number.' })
    .int('Rows per page must be a whole number.')
    .min(1, 'Rows per page must be between 1 and 200.')
    .max(200, 'Rows per page must be between 1 and 200.')
    .default(25),
  search: zSearch().optional(),
  sortDir: z.enum(['asc', 'desc']).default('desc'),
  /**
   * The previous page's `nextCursor`, sent with the page number after it: that page is then read
   * as "the rows after the cursor" (docs/performance.md#keyset-paging). Lists without keyset
   * paging ignore it.
   */
  cursor: z.string().max(200, 'The list cursor is too long.').optional(),
});

/**
 * The column a list sorts by, from the list's allow-list (the same list the screen offers as
 * sortable headers); anything else is refused with a message naming the choices.
 */
export function zSortBy<const T extends readonly [string, ...string[]]>(columns: T, fallback: T[number]) {
  return z.enum(columns, { error: `Sort by one of: ${columns.join(', ')}.` }).default(fallback);
}

export type TPageInput = z.infer<typeof ZPageInput>;

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
  /** The cursor of the next page (keyset-paged lists), null after the last page. */
  nextCursor?: string | null;
}
