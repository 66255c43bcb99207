import { router } from '../../trpc/init';
import { authedProcedure, limitedProcedure, staffProcedure } from '../../trpc/procedures';
import * as resets from './password-reset.service';
import {
  ZCreateUserInput,
  ZForgotPasswordInput,
  ZListUsersInput,
  ZResetPasswordInput,
  ZSearchUsersInput,
  ZUpdateProfileInput,
  ZUpdateUserInput,
  ZUserIdInput,
  ZValidateOtpInput,
} from '@shared/schemas/users';
import { ZMessage } from '@shared/schemas/output';
import { ZOtpValid, ZUser, ZUserList, ZUserPage } from '@shared/schemas/users.output';
import * as queries from './users.queries';
import * as service from './users.service';

/** Pictures are uploaded through the multipart REST paths; tRPC carries JSON only. */
export const usersRouter = router({
  list: staffProcedure
    .input(ZListUsersInput)
    .output(ZUserPage)
    .query(({ ctx, input }) => queries.listUsers(ctx.svc, input)),
  search: staffProcedure
    .input(ZSearchUsersInput)
    .output(ZUserList)
    .query(({ ctx, input }) => queries.searchUsers(ctx.svc, input)),
  students: staffProcedure.output(ZUserList).query(({ ctx }) => queries.listAllUsers(ctx.svc, 'student')),
  get: staffProcedure
    .input(ZUserIdInput)
    .output(ZUser)
    .query(({ ctx, input }) => queries.getUser(ctx.svc, input.id)),
  create: staffProcedure
    .input(ZCreateUserInput)
    .output(ZUser)
    .mutation(({ ctx, input }) => service.createUser(ctx.svc, input)),
  update: staffProcedure
    .input(ZUpdateUserInput)
    .output(ZUser)
    .mutation(({ ctx, input }) => service.updateUser(ctx.svc, input)),
  // Staff-level so a manager learns the rule's message; the service allows admins only.
  delete: staffProcedure
    .input(ZUserIdInput)
    .output(ZMessage)
    .mutation(({ ctx, input }) => service.deleteUser(ctx.svc, input.id)),
  updateProfile: authedProcedure
    .input(ZUpdateProfileInput)
    .output(ZUser)
    .mutation(({ ctx, input }) => service.updateProfile(ctx.svc, input)),
  forgotPassword: limitedProcedure('passwordReset')
    .input(ZForgotPasswordInput)
    .output(ZMessage)
    .mutation(({ ctx, input }) => resets.requestPasswordReset(ctx.svc, input)),
  validateOtp: limitedProcedure('otp')
    .input(ZValidateOtpInput)
    .output(ZOtpValid)
    .mutation(({ ctx, input }) => resets.validateOtp(ctx.svc, input)),
  resetPassword: limitedProcedure('otp')
    .input(ZResetPasswordInput)
    .output(ZMessage)
    .mutation(({ ctx, input }) => resets.resetPassword(ctx.svc, input)),
});
