import { z } from 'zod';

/** Server-side paging for every list that can grow. */
export const ZPageInput = z.object({
  page: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(200).default(25),
  search: z.string().trim().max(200).optional(),
  sortDir: z.enum(['asc', 'desc']).default('desc'),
});

export type TPageInput = z.infer<typeof ZPageInput>;

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}
