import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodType } from 'zod';
import type { AppDeps } from '../../deps';
import { AppError, fromZodError, retryAfterOf, textOf } from '../../errors';
import { route, ZIdParam } from '../../http/rest';
import { IMAGE_TOO_LARGE, MAX_IMAGE_BYTES } from '../files/files.service';
import * as resets from './password-reset.service';
import {
  ZCreateUserRestBody,
  ZForgotPasswordInput,
  ZResetPasswordInput,
  ZUpdateProfileInput,
  ZUpdateUserInput,
  ZValidateOtpInput,
  type UploadedImage,
} from '@shared/schemas/users';
import * as queries from './users.queries';
import * as service from './users.service';
import { ZMessage } from '@shared/schemas/output';
import { contactFromFormText } from '@shared/schemas/person';
import { ZUser, ZUserList } from '@shared/schemas/users.output';

/** Reads a multipart form: text fields as strings, the `image` file as a Buffer. */
async function readMultipart(req: FastifyRequest): Promise<{ fields: Record<string, string>; image?: UploadedImage }> {
  const fields: Record<string, string> = {};
  let image: UploadedImage | undefined;
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        if (part.fieldname === 'image') image = { data, truncated: part.file.truncated };
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    const code = textOf(err, 'code');
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('PAYLOAD_TOO_LARGE', IMAGE_TOO_LARGE);
    if (code === 'FST_FILES_LIMIT') throw new AppError('BAD_REQUEST', 'Upload one picture at a time.');
    if (code?.startsWith('FST_')) throw new AppError('BAD_REQUEST', 'The form could not be read.');
    throw err;
  }
  return { fields, image };
}

/** JSON or (for pictures) a multipart form, validated by the same schema. */
async function readEditBody<S extends ZodType>(req: FastifyRequest, schema: S, extra: Record<string, unknown> = {}) {
  let raw: unknown = req.body;
  let image: UploadedImage | undefined;
  if (req.isMultipart()) {
    const form = await readMultipart(req);
    raw = { ...form.fields, emergencyContact: contactFromFormText(form.fields.emergencyContact) };
    image = form.image;
  }
  const parsed = schema.safeParse({ ...(raw && typeof raw === 'object' ? raw : {}), ...extra });
  if (!parsed.success) throw fromZodError(parsed.error);
  return { input: parsed.data, image };
}

export function registerUsersRest(app: FastifyInstance, deps: AppDeps) {
  route(app, deps, {
    method: 'POST',
    url: '/api/users',
    access: 'staff',
    response: ZUser,
    body: ZCreateUserRestBody,
    status: 201,
    handler: ({ ctx, body }) => service.createUser(ctx, body),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/users',
    access: 'staff',
    response: ZUserList,
    handler: ({ ctx }) => queries.listAllUsers(ctx),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/users/students',
    access: 'staff',
    response: ZUserList,
    handler: ({ ctx }) => queries.listAllUsers(ctx, 'student'),
  });
  route(app, deps, {
    method: 'POST',
    url: '/api/users/forgot-password',
    access: 'public',
    response: ZMessage,
    rateLimit: 'passwordReset',
    body: ZForgotPasswordInput,
    handler: ({ ctx, body }) => resets.requestPasswordReset(ctx, body),
  });
  route(app, deps, {
    method: 'POST',
    url: '/api/users/validate-otp',
    access: 'public',
    handler: async ({ ctx, req, reply }) => {
      // docs/product.md#rest-paths: this path answers `{ success, message }`, failures included.
      try {
        await app.limiters.otp(req, reply);
        const parsed = ZValidateOtpInput.safeParse(req.body ?? {});
        if (!parsed.success) throw fromZodError(parsed.error);
        return await resets.validateOtp(ctx, parsed.data);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        reply.status(err.code === 'TOO_MANY_REQUESTS' ? 429 : 400);
        const retryAfter = retryAfterOf(err);
        if (retryAfter) reply.header('retry-after', String(retryAfter));
        return { success: false, message: err.message, code: err.code };
      }
    },
  });
  route(app, deps, {
    method: 'POST',
    url: '/api/users/reset-password',
    access: 'public',
    response: ZMessage,
    rateLimit: 'otp',
    body: ZResetPasswordInput,
    handler: ({ ctx, body }) => resets.resetPassword(ctx, body),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/users/:id',
    access: 'staff',
    response: ZUser,
    params: ZIdParam,
    handler: ({ ctx, params }) => queries.getUser(ctx, params.id),
  });
  route(app, deps, {
    method: 'DELETE',
    url: '/api/users/:id',
    access: 'staff',
    response: ZMessage,
    params: ZIdParam,
    handler: ({ ctx, params }) => service.deleteUser(ctx, params.id),
  });
  // The picture forms are the only multipart requests the server reads. The parser and its
  // per-request hooks (a close listener and a clean-up after every answer) live in this scope
  // alone, so no other request pays for them; a form sent elsewhere is refused with 415. The file
  // limit is one byte over the cap, so a picture that is too large is seen and answered clearly.
  void app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: MAX_IMAGE_BYTES + 1, files: 1, fields: 20 } });
    route(scope, deps, {
      method: 'PUT',
      url: '/api/users/profile',
      access: 'authed',
      response: ZUser,
      rateLimit: 'upload',
      handler: async ({ ctx, req }) => {
        const { input, image } = await readEditBody(req, ZUpdateProfileInput);
        return service.updateProfile(ctx, { ...input, image });
      },
    });
    route(scope, deps, {
      method: 'PUT',
      url: '/api/users/:id',
      access: 'staff',
      response: ZUser,
      rateLimit: 'upload',
      params: ZIdParam,
      handler: async ({ ctx, params, req }) => {
        // The old client sends the id twice (path and `userId`); the path decides.
        const { input, image } = await readEditBody(req, ZUpdateUserInput, { id: params.id });
        return service.updateUser(ctx, { ...input, image });
      },
    });
  });
}
