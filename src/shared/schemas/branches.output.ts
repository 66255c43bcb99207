import { z } from 'zod';
import { zPageOf, zRecordOut } from '@shared/schemas/output';
import { ZBranchRef } from '@shared/schemas/users.output';

/** docs/product.md#records-and-their-fields Branch: name, location; and its phone, null when none is set. */
export const ZBranch = zRecordOut({ name: z.string(), location: z.string(), phone: z.string().nullable() });
export type TBranch = z.infer<typeof ZBranch>;

export const ZBranchPage = zPageOf(ZBranch);
/** The REST list: every branch, wrapped (docs/product.md#rest-paths). */
export const ZBranchList = z.object({ branches: z.array(ZBranch) });
/** The user forms' dropdowns: the id, name and location of every branch. */
export const ZBranchOptions = z.array(ZBranchRef);
