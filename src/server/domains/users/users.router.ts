import { router } from '../../trpc/init';
import { authedProcedure, limitedProcedure, serve, serveId, staffProcedure } from '../../trpc/procedures';
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
import { invitePerson } from '../portal/portal-auth.service';
import { ZInviteSent } from '@shared/schemas/portal';

/** Pictures are uploaded through the multipart REST paths; tRPC carries JSON only. */
export const usersRouter = router({
  list: staffProcedure.input(ZListUsersInput).output(ZUserPage).query(serve(queries.listUsers)),
  search: staffProcedure.input(ZSearchUsersInput).output(ZUserList).query(serve(queries.searchUsers)),
  students: staffProcedure.output(ZUserList).query(({ ctx }) => queries.listAllUsers(ctx.svc, 'student')),
  get: staffProcedure.input(ZUserIdInput).output(ZUser).query(serveId(queries.getUser)),
  create: staffProcedure.input(ZCreateUserInput).output(ZUser).mutation(serve(service.createUser)),
  update: staffProcedure.input(ZUpdateUserInput).output(ZUser).mutation(serve(service.updateUser)),
  // Staff-level so a manager learns the rule's message; the service allows admins only.
  delete: staffProcedure.input(ZUserIdInput).output(ZMessage).mutation(serveId(service.deleteUser)),
  updateProfile: authedProcedure.input(ZUpdateProfileInput).output(ZUser).mutation(serve(service.updateProfile)),
  forgotPassword: limitedProcedure('passwordReset')
    .input(ZForgotPasswordInput)
    .output(ZMessage)
    .mutation(serve(resets.requestPasswordReset)),
  validateOtp: limitedProcedure('otp').input(ZValidateOtpInput).output(ZOtpValid).mutation(serve(resets.validateOtp)),
  resetPassword: limitedProcedure('otp')
    .input(ZResetPasswordInput)
    .output(ZMessage)
    .mutation(serve(resets.resetPassword)),
  /** docs/portal.md#invitations: e-mails the person a link to set a password. */
  invite: staffProcedure.input(ZUserIdInput).output(ZInviteSent).mutation(serveId(invitePerson)),
});
