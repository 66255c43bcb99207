import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { route, ZIdParam } from '../../http/rest';
import { reportFileRoutes } from '../../http/attachment';
import {
  ZBatch,
  ZBatchList,
  ZCancelSessionBody,
  ZClassSession,
  ZClassSessionList,
  ZCreateBatchInput,
  ZDaySessionsInput,
  ZEnrollmentAttendance,
  ZFallingBehind,
  ZFallingBehindInput,
  ZJoinBatchBody,
  ZListBatchesInput,
  ZRegister,
  ZRegisterQuery,
  ZMoveSessionBody,
  ZRoster,
  ZRosterPlace,
  ZSessionAttendance,
  ZSessionRange,
  ZTakeAttendanceBody,
  ZUpdateBatchBody,
} from '@shared/schemas/classes';
import { ZMessage } from '@shared/schemas/output';
import { enrollmentAttendance, fallingBehind, getSessionAttendance, takeAttendance } from './attendance.service';
import { createBatch, deleteBatch, getBatch, listBatches, updateBatch } from './batches.service';
import { batchRegister, batchRegisterFile } from './register.service';
import { getRoster, joinBatch, leaveBatch } from './roster.service';
import { cancelSession, daySessions, listBatchSessions, moveSession } from './sessions.service';

/**
 * docs/classes.md. Paths a batch's instructor reaches whatever their role are `authed`: the
 * service decides (staff, or the instructor of that batch; anyone else 403).
 */
export function registerClassesRest(app: FastifyInstance, deps: AppDeps) {
  route(app, deps, {
    method: 'GET',
    url: '/api/batches/:id/register',
    access: 'staff',
    params: ZIdParam,
    query: ZRegisterQuery,
    response: ZRegister,
    handler: ({ ctx, params, query }) => batchRegister(ctx, { id: params.id, ...query }),
  });
  reportFileRoutes(app, deps, {
    url: '/api/batches/:id/register',
    params: ZIdParam,
    query: ZRegisterQuery,
    build: (ctx, query, format, params) => batchRegisterFile(ctx, { id: params.id, ...query }, format),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/batches',
    access: 'staff',
    query: ZListBatchesInput,
    response: ZBatchList,
    handler: ({ ctx, query }) => listBatches(ctx, query),
  });
  route(app, deps, {
    method: 'POST',
    url: '/api/batches',
    access: 'admin',
    body: ZCreateBatchInput,
    response: ZBatch,
    status: 201,
    handler: ({ ctx, body }) => createBatch(ctx, body),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/batches/:id',
    access: 'staff',
    params: ZIdParam,
    response: ZBatch,
    handler: ({ ctx, params }) => getBatch(ctx, params.id),
  });
  route(app, deps, {
    method: 'PUT',
    url: '/api/batches/:id',
    access: 'admin',
    params: ZIdParam,
    body: ZUpdateBatchBody,
    response: ZBatch,
    handler: ({ ctx, params, body }) => updateBatch(ctx, { ...body, id: params.id }),
  });
  route(app, deps, {
    method: 'DELETE',
    url: '/api/batches/:id',
    access: 'admin',
    params: ZIdParam,
    response: ZMessage,
    handler: ({ ctx, params }) => deleteBatch(ctx, params.id),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/batches/:id/sessions',
    access: 'authed',
    params: ZIdParam,
    query: ZSessionRange,
    response: ZClassSessionList,
    handler: ({ ctx, params, query }) => listBatchSessions(ctx, { id: params.id, ...query }),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/batches/:id/roster',
    access: 'staff',
    params: ZIdParam,
    response: ZRoster,
    handler: ({ ctx, params }) => getRoster(ctx, params.id),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/class-sessions',
    access: 'authed',
    query: ZDaySessionsInput,
    response: ZClassSessionList,
    handler: ({ ctx, query }) => daySessions(ctx, query),
  });
  route(app, deps, {
    method: 'PUT',
    url: '/api/class-sessions/:id',
    access: 'admin',
    params: ZIdParam,
    body: ZMoveSessionBody,
    response: ZClassSession,
    handler: ({ ctx, params, body }) => moveSession(ctx, { ...body, id: params.id }),
  });
  route(app, deps, {
    method: 'POST',
    url: '/api/class-sessions/:id/cancel',
    access: 'admin',
    params: ZIdParam,
    body: ZCancelSessionBody,
    response: ZClassSession,
    handler: ({ ctx, params, body }) => cancelSession(ctx, { ...body, id: params.id }),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/class-sessions/:id/attendance',
    access: 'authed',
    params: ZIdParam,
    response: ZSessionAttendance,
    handler: ({ ctx, params }) => getSessionAttendance(ctx, params.id),
  });
  route(app, deps, {
    method: 'PUT',
    url: '/api/class-sessions/:id/attendance',
    access: 'authed',
    params: ZIdParam,
    body: ZTakeAttendanceBody,
    response: ZSessionAttendance,
    handler: ({ ctx, params, body }) => takeAttendance(ctx, { ...body, id: params.id }),
  });
  route(app, deps, {
    method: 'PUT',
    url: '/api/enrollments/:id/batch',
    access: 'staff',
    params: ZIdParam,
    body: ZJoinBatchBody,
    response: ZRosterPlace,
    handler: ({ ctx, params, body }) => joinBatch(ctx, { ...body, id: params.id }),
  });
  route(app, deps, {
    method: 'DELETE',
    url: '/api/enrollments/:id/batch',
    access: 'staff',
    params: ZIdParam,
    response: ZMessage,
    handler: ({ ctx, params }) => leaveBatch(ctx, params.id),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/enrollments/:id/attendance',
    access: 'staff',
    params: ZIdParam,
    response: ZEnrollmentAttendance,
    handler: ({ ctx, params }) => enrollmentAttendance(ctx, params.id),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/attendance/falling-behind',
    access: 'staff',
    query: ZFallingBehindInput,
    response: ZFallingBehind,
    handler: ({ ctx, query }) => fallingBehind(ctx, query),
  });
}
