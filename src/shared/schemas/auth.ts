import { z } from 'zod';
import { zText } from '@shared/schemas/primitives';

export const LOGIN_EMPTY = 'Please enter your email and password.';

export const ZLoginInput = z.object({
  email: zText('Email', { message: LOGIN_EMPTY }).trim().toLowerCase().min(1, LOGIN_EMPTY).max(320),
  password: z.string({ message: LOGIN_EMPTY }).min(1, LOGIN_EMPTY).max(1024),
});
export type TLoginInput = z.infer<typeof ZLoginInput>;
