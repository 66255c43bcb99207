import { z } from 'zod';
import { zId, zText } from '@shared/schemas/primitives';
import { ZPageInput, zSortBy } from '@shared/pagination';
import { zPhone } from '@shared/schemas/person';

const REQUIRED = 'Please fill all the required fields.';

const name = zText('Branch name', { message: REQUIRED })
  .trim()
  .min(1, REQUIRED)
  .max(100, 'Branch name must be at most 100 characters.');
const location = zText('Location', { message: REQUIRED })
  .trim()
  .min(1, REQUIRED)
  .max(200, 'Location must be at most 200 characters.');

/** Optional: left out, a branch keeps its number; blank or null removes it. Stored as E.164. */
const phone = zPhone('Branch phone').optional();

export const ZCreateBranchInput = z.object({ name, location, phone });
export type TCreateBranchInput = z.infer<typeof ZCreateBranchInput>;

export const ZUpdateBranchInput = z.object({ id: zId('Branch'), name, location, phone });
export type TUpdateBranchInput = z.infer<typeof ZUpdateBranchInput>;

/** The columns the list sorts by (its sortable headers). */
export const BRANCH_SORT_COLUMNS = ['name', 'location', 'createdAt'] as const;

export const ZListBranchesInput = ZPageInput.extend({
  sortBy: zSortBy(BRANCH_SORT_COLUMNS, 'name'),
  sortDir: z.enum(['asc', 'desc']).default('asc'),
});
export type TListBranchesInput = z.infer<typeof ZListBranchesInput>;

export const ZBranchIdInput = z.object({ id: zId('Branch') });
