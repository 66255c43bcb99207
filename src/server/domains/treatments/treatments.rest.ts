import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { route } from '../../http/rest';
import { ZCreateTreatmentInput, ZTreatmentIdParam, ZUpdateTreatmentBody } from '@shared/schemas/treatments';
import * as service from './treatments.service';
import { ZMessage } from '@shared/schemas/output';
import { ZTreatment, ZTreatmentList } from '@shared/schemas/treatments.output';

/** docs/product.md#rest-paths, Treatments. Access as in treatments.router.ts. */
export function registerTreatmentRest(app: FastifyInstance, deps: AppDeps) {
  route(app, deps, {
    method: 'GET',
    url: '/api/treatments',
    access: 'staff',
    response: ZTreatmentList,
    handler: ({ ctx }) => service.listAllTreatments(ctx),
  });
  route(app, deps, {
    method: 'POST',
    url: '/api/treatments',
    access: 'admin',
    response: ZTreatment,
    body: ZCreateTreatmentInput,
    status: 201,
    handler: ({ ctx, body }) => service.createTreatment(ctx, body),
  });
  route(app, deps, {
    method: 'PUT',
    url: '/api/treatments/:treatmentId',
    access: 'admin',
    response: ZTreatment,
    params: ZTreatmentIdParam,
    body: ZUpdateTreatmentBody,
    handler: ({ ctx, params, body }) => service.updateTreatment(ctx, { ...body, id: params.treatmentId }),
  });
  route(app, deps, {
    method: 'DELETE',
    url: '/api/treatments/:treatmentId',
    access: 'admin',
    response: ZMessage,
    params: ZTreatmentIdParam,
    handler: ({ ctx, params }) => service.deleteTreatment(ctx, params.treatmentId),
  });
}
