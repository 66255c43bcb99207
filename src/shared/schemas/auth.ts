import { z } from 'zod';
import { zText } from '@shared/schemas/primitives';

export const ZLoginInput = z.object({
  email: zText('Email', { message: 'Please enter your email and password.' })
    .trim()
    .toLowerCase()
    .min(1, 'Please enter your email and password.')
    .max(320),
  password: z
    .string({ message: 'Please enter your email and password.' })
    .min(1, 'Please enter your email and password.')
    .max(1024),
});
export type TLoginInput = z.infer<typeof ZLoginInput>;
