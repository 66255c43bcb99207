import { z } from 'zod';
import { ZUser } from '@shared/schemas/users.output';

/** The sign-in answer: the user and the session token (also set as the HttpOnly cookie). */
export const ZSignedIn = ZUser.extend({ token: z.string() });
export type TSignedIn = z.infer<typeof ZSignedIn>;

/** `auth.me`: the signed-in user, or null when the account is gone. */
export const ZMe = ZUser.nullable();
