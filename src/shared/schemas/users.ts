import { z } from 'zod';
import { zId, zSearch, zText } from '@shared/schemas/primitives';
import { ZPageInput, zSortBy } from '@shared/pagination';
import { ROLES } from '@shared/roles';
import { personShape, refineNicWithBirthDay, zPhone } from '@shared/schemas/person';

export const BRANCH_REQUIRED = 'Please select a branch.';
export const INVALID_OTP = 'Invalid OTP. Please try again.';
export const OTP_REQUIRED = 'Please enter the OTP.';

const username = zText('Username', { message: 'Username is required.' })
  .trim()
  .min(1, 'Username is required.')
  .max(50, 'Username must be at most 50 characters.');
const fullName = zText('Full name', { message: 'Full name is required.' })
  .trim()
  .min(1, 'Full name is required.')
  .max(100, 'Full name must be at most 100 characters.');
/** Emails compare trimmed and case-insensitively (docs/users.md): they are stored lowercased. */
export const ZEmail = zText('Email', { message: 'Email is required.' })
  .trim()
  .toLowerCase()
  .min(1, 'Email is required.')
  .max(320, 'Email must be at most 320 characters.')
  .pipe(z.email('Please enter a valid email address.'));
export const ZPassword = z
  .string({ message: 'Password is required.' })
  .min(8, 'Password must be at least 8 characters.')
  .max(256, 'Password must be at most 256 characters.');
const role = z.enum(ROLES, { message: 'Please choose a valid role.' });
/** Optional details: a blank field clears the value. */
const optionalText = (label: string, max: number, multiline = false) =>
  zText(label, { multiline })
    .trim()
    .max(max, `${label} must be at most ${max} characters.`)
    .nullish()
    .transform((v) => (v ? v : null));
/** Checked and stored as E.164 (docs/users.md#personal-details). */
const phone = zPhone('Phone');
const address = optionalText('Address', 300, true);
const branchId = zText('Branch', { message: BRANCH_REQUIRED }).trim().min(1, BRANCH_REQUIRED).max(200, BRANCH_REQUIRED);

export const ZCreateUserInput = z
  .object({
    username,
    fullName,
    email: ZEmail,
    password: ZPassword,
    role: role.default('user'),
    branchId,
    address: address.optional(),
    ...personShape,
  })
  .superRefine(refineNicWithBirthDay);
export type TCreateUserInput = z.infer<typeof ZCreateUserInput>;

/** The REST body names the branch `branch` (docs/product.md#rest-paths); `branchId` is accepted too. */
export const ZCreateUserRestBody = z
  .looseObject({ branch: z.unknown().optional(), branchId: z.unknown().optional() })
  .transform(({ branch, branchId: id, ...rest }) => {
    const b = typeof branch === 'object' && branch && '_id' in branch ? branch._id : branch;
    return { ...rest, branchId: id ?? b };
  })
  .pipe(ZCreateUserInput);

/** Every field but the id is optional: the table edits some, the multipart form others. */
export const ZUpdateUserInput = z
  .object({
    id: zId('User'),
    username: username.optional(),
    fullName: fullName.optional(),
    role: role.optional(),
    branchId: zText('Branch')
      .trim()
      .max(200, BRANCH_REQUIRED)
      .nullish()
      .transform((v) => (v === '' ? null : v)),
    address: address.optional(),
    ...personShape,
  })
  .superRefine(refineNicWithBirthDay);
export type TUpdateUserInput = z.infer<typeof ZUpdateUserInput>;

/** Own profile: email, branch and role are not editable there (docs/users.md). */
export const ZUpdateProfileInput = z.object({
  username: username.optional(),
  fullName: fullName.optional(),
  phone: phone.optional(),
  address: address.optional(),
});
export type TUpdateProfileInput = z.infer<typeof ZUpdateProfileInput>;

/** The columns the list sorts by (its sortable headers). */
export const USER_SORT_COLUMNS = ['username', 'fullName', 'email', 'role', 'createdAt'] as const;

export const ZListUsersInput = ZPageInput.extend({
  role: role.optional(),
  branchId: zId('Branch').optional(),
  sortBy: zSortBy(USER_SORT_COLUMNS, 'createdAt'),
});
export type TListUsersInput = z.infer<typeof ZListUsersInput>;

export const ZUserIdInput = z.object({ id: zId('User') });

/** The user picker (docs/users.md#finding-a-user): a few users matching typed text, best first. */
export const USER_SEARCH_MAX = 20;
export const ZSearchUsersInput = z.object({
  query: zSearch().min(1, 'Type part of a name, username, email or phone.'),
  role: role.optional(),
  limit: z.number().int().min(1).max(USER_SEARCH_MAX).default(8),
});
export type TSearchUsersInput = z.infer<typeof ZSearchUsersInput>;

export const ZForgotPasswordInput = z.object({ email: ZEmail });
export type TForgotPasswordInput = z.infer<typeof ZForgotPasswordInput>;

const otp = zText('OTP', { message: OTP_REQUIRED })
  .trim()
  .min(1, OTP_REQUIRED)
  .regex(/^\d{6}$/, INVALID_OTP);

export const ZValidateOtpInput = z.object({ email: ZEmail, otp });
export type TValidateOtpInput = z.infer<typeof ZValidateOtpInput>;

export const ZResetPasswordInput = z.object({ email: ZEmail, otp, password: ZPassword });
export type TResetPasswordInput = z.infer<typeof ZResetPasswordInput>;

/** An uploaded picture as the REST adapter read it; the service checks its content and size. */
export interface UploadedImage {
  data: Buffer;
  /** The multipart limit cut the file: it is larger than allowed. */
  truncated?: boolean;
}
