import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../../deps';
import { route, ZIdParam } from '../../http/rest';
import { ZMessage } from '@shared/schemas/output';
import { zId } from '@shared/schemas/primitives';
import {
  ZAddClosureBody,
  ZAddTimeOffBody,
  ZClosure,
  ZClosureList,
  ZCreatePractitionerInput,
  ZDayRangeQuery,
  ZListPractitionersInput,
  ZPractitioner,
  ZPractitionerList,
  ZPractitionerRemoved,
  ZSetWorkingPlanBody,
  ZTimeOff,
  ZTimeOffList,
  ZUpdatePractitionerBody,
  ZWorkingPlan,
  ZWorkingPlanQuery,
} from '@shared/schemas/practitioners';
import { addClosure, listClosures, removeClosure } from './closures.service';
import * as service from './practitioners.service';
import { addTimeOff, listTimeOff, removeTimeOff } from './time-off.service';

const ZTimeOffParams = z.object({ id: zId('Practitioner'), timeOffId: zId('Time off') });
const ZClosureParams = z.object({ id: zId('Branch'), closureId: zId('Closure') });

/** docs/appointments.md#resources. Access as in practitioners.router.ts. */
export function registerPractitionersRest(app: FastifyInstance, deps: AppDeps) {
  route(app, deps, {
    method: 'GET',
    url: '/api/practitioners',
    access: 'staff',
    query: ZListPractitionersInput,
    response: ZPractitionerList,
    handler: ({ ctx, query }) => service.listPractitioners(ctx, query),
  });
  route(app, deps, {
    method: 'POST',
    url: '/api/practitioners',
    access: 'admin',
    body: ZCreatePractitionerInput,
    response: ZPractitioner,
    status: 201,
    handler: ({ ctx, body }) => service.createPractitioner(ctx, body),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/practitioners/:id',
    access: 'staff',
    params: ZIdParam,
    response: ZPractitioner,
    handler: ({ ctx, params }) => service.getPractitioner(ctx, params.id),
  });
  route(app, deps, {
    method: 'PUT',
    url: '/api/practitioners/:id',
    access: 'admin',
    params: ZIdParam,
    body: ZUpdatePractitionerBody,
    response: ZPractitioner,
    handler: ({ ctx, params, body }) => service.updatePractitioner(ctx, { ...body, id: params.id }),
  });
  route(app, deps, {
    method: 'DELETE',
    url: '/api/practitioners/:id',
    access: 'admin',
    params: ZIdParam,
    response: ZPractitionerRemoved,
    handler: ({ ctx, params }) => service.removePractitioner(ctx, params.id),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/practitioners/:id/working-plan',
    access: 'staff',
    params: ZIdParam,
    query: ZWorkingPlanQuery,
    response: ZWorkingPlan,
    handler: ({ ctx, params, query }) => service.getWorkingPlan(ctx, { id: params.id, branchId: query.branchId }),
  });
  route(app, deps, {
    method: 'PUT',
    url: '/api/practitioners/:id/working-plan',
    access: 'admin',
    params: ZIdParam,
    body: ZSetWorkingPlanBody,
    response: ZWorkingPlan,
    handler: ({ ctx, params, body }) => service.setWorkingPlan(ctx, { ...body, id: params.id }),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/practitioners/:id/time-off',
    access: 'staff',
    params: ZIdParam,
    query: ZDayRangeQuery,
    response: ZTimeOffList,
    handler: ({ ctx, params, query }) => listTimeOff(ctx, { id: params.id, range: query }),
  });
  route(app, deps, {
    method: 'POST',
    url: '/api/practitioners/:id/time-off',
    access: 'admin',
    params: ZIdParam,
    body: ZAddTimeOffBody,
    response: ZTimeOff,
    status: 201,
    handler: ({ ctx, params, body }) => addTimeOff(ctx, { id: params.id, timeOff: body }),
  });
  route(app, deps, {
    method: 'DELETE',
    url: '/api/practitioners/:id/time-off/:timeOffId',
    access: 'admin',
    params: ZTimeOffParams,
    response: ZMessage,
    handler: ({ ctx, params }) => removeTimeOff(ctx, params),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/branch/:id/closures',
    access: 'staff',
    params: ZIdParam,
    query: ZDayRangeQuery,
    response: ZClosureList,
    handler: ({ ctx, params, query }) => listClosures(ctx, { branchId: params.id, range: query }),
  });
  route(app, deps, {
    method: 'POST',
    url: '/api/branch/:id/closures',
    access: 'admin',
    params: ZIdParam,
    body: ZAddClosureBody,
    response: ZClosure,
    status: 201,
    handler: ({ ctx, params, body }) => addClosure(ctx, { branchId: params.id, closure: body }),
  });
  route(app, deps, {
    method: 'DELETE',
    url: '/api/branch/:id/closures/:closureId',
    access: 'admin',
    params: ZClosureParams,
    response: ZMessage,
    handler: ({ ctx, params }) => removeClosure(ctx, { branchId: params.id, closureId: params.closureId }),
  });
}
