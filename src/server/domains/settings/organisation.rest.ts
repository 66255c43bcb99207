import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { AppError, textOf } from '../../errors';
import { route } from '../../http/rest';
import { IMAGE_EMPTY, IMAGE_TOO_LARGE, MAX_IMAGE_BYTES } from '../files/files.service';
import { ZOrganisation, ZOrganisationInput } from '@shared/schemas/organisation';
import { getOrganisation, setOrganisationLogo, updateOrganisation } from './organisation.service';

/** Settings → Organisation (docs/users.md#the-organisation-on-paper): staff read, admins write. */
export function registerOrganisationRest(app: FastifyInstance, deps: AppDeps) {
  route(app, deps, {
    method: 'GET',
    url: '/api/settings/organisation',
    access: 'staff',
    response: ZOrganisation,
    handler: ({ ctx }) => getOrganisation(ctx),
  });
  route(app, deps, {
    method: 'PUT',
    url: '/api/settings/organisation',
    access: 'admin',
    body: ZOrganisationInput,
    response: ZOrganisation,
    handler: ({ ctx, body }) => updateOrganisation(ctx, body),
  });
  // The logo form is multipart, read in a scope of its own as the profile pictures' forms are,
  // with the same limit: one file, one byte over the cap so a too-large one is answered clearly.
  void app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: MAX_IMAGE_BYTES + 1, files: 1, fields: 5 } });
    route(scope, deps, {
      method: 'POST',
      url: '/api/settings/organisation/logo',
      access: 'admin',
      rateLimit: 'upload',
      response: ZOrganisation,
      handler: async ({ ctx, req }) => {
        if (!req.isMultipart()) throw new AppError('BAD_REQUEST', 'Send the logo as a multipart form (field "logo").');
        let upload: { data: Buffer; truncated: boolean } | undefined;
        try {
          for await (const part of req.parts()) {
            if (part.type === 'file' && (part.fieldname === 'logo' || part.fieldname === 'image'))
              upload = { data: await part.toBuffer(), truncated: part.file.truncated };
          }
        } catch (err) {
          const code = textOf(err, 'code');
          if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('PAYLOAD_TOO_LARGE', IMAGE_TOO_LARGE);
          if (code === 'FST_FILES_LIMIT') throw new AppError('BAD_REQUEST', 'Upload one picture at a time.');
          if (code?.startsWith('FST_')) throw new AppError('BAD_REQUEST', 'The form could not be read.');
          throw err;
        }
        if (!upload) throw new AppError('BAD_REQUEST', IMAGE_EMPTY);
        return setOrganisationLogo(ctx, upload);
      },
    });
  });
}
