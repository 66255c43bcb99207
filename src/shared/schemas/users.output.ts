import { z } from 'zod';
import { zPageOf, zRecordOut } from '@shared/schemas/output';
import { ROLES } from '@shared/roles';
import { personOutShape } from '@shared/schemas/person';

export const ZBranchRef = z.object({ _id: z.string(), name: z.string(), location: z.string() });

/**
 * docs/product.md#records-and-their-fields User: `_id`, populated `branch`, `image` as a URL. The
 * password hash is not a field of it: parsing drops it, whatever a query selected.
 */
export const ZUser = zRecordOut({
  username: z.string(),
  fullName: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  branch: ZBranchRef.nullable(),
  phone: z.string().nullable(),
  address: z.string().nullable(),
  ...personOutShape,
  image: z.string().nullable(),
});
export type TUser = z.infer<typeof ZUser>;

export const ZUserPage = zPageOf(ZUser);
export const ZUserList = z.array(ZUser);

export const ZOtpValid = z.object({ success: z.literal(true), message: z.string() });
