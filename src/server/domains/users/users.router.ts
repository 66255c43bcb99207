import { router } from '../../trpc/init';
import { authedProcedure, limitedProcedure, staffProcedure } from '../../trpc/procedures';
import * as resets from './password-reset.service';
import {
  ZCreateUserInput,
  ZForgotPasswordInput,
  ZListUsersInput,
  ZResetPasswordInput,
  ZUpdateProfileInput,
  ZUpdateUserInput,
  ZUserIdInput,
  ZValidateOtpInput,
} from '@shared/schemas/users';
import * as service from './users.service';

/** Pictures are uploaded through the multipart REST paths; tRPC carries JSON only. */
export const usersRouter = router({
  list: staffProcedure.input(ZListUsersInput).query(({ ctx, input }) => service.listUsers(ctx.svc, input)),
  students: staffProcedure.query(({ ctx }) => service.listAllUsers(ctx.svc, 'student')),
  get: staffProcedure.input(ZUserIdInput).query(({ ctx, input }) => service.getUser(ctx.svc, input.id)),
  create: staffProcedure.input(ZCreateUserInput).mutation(({ ctx, input }) => service.createUser(ctx.svc, input)),
  update: staffProcedure.input(ZUpdateUserInput).mutation(({ ctx, input }) => service.updateUser(ctx.svc, input)),
  // Staff-level so a manager learns the rule's message; the service allows admins only.
  delete: staffProcedure.input(ZUserIdInput).mutation(({ ctx, input }) => service.deleteUser(ctx.svc, input.id)),
  updateProfile: authedProcedure
    .input(ZUpdateProfileInput)
    .mutation(({ ctx, input }) => service.updateProfile(ctx.svc, input)),
  forgotPassword: limitedProcedure('passwordReset')
    .input(ZForgotPasswordInput)
    .mutation(({ ctx, input }) => resets.requestPasswordReset(ctx.deps, input, ctx.request)),
  validateOtp: limitedProcedure('otp')
    .input(ZValidateOtpInput)
    .mutation(({ ctx, input }) => resets.validateOtp(ctx.deps, input)),
  resetPassword: limitedProcedure('otp')
    .input(ZResetPasswordInput)
    .mutation(({ ctx, input }) => resets.resetPassword(ctx.deps, input, ctx.request)),
});
