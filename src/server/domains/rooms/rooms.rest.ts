import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { route, ZIdParam } from '../../http/rest';
import { ZMessage } from '@shared/schemas/output';
import { ZCreateRoomInput, ZListRoomsInput, ZRoom, ZRoomList, ZUpdateRoomBody } from '@shared/schemas/practitioners';
import * as service from './rooms.service';

/** docs/appointments.md#resources. Access as in rooms.router.ts. */
export function registerRoomsRest(app: FastifyInstance, deps: AppDeps) {
  route(app, deps, {
    method: 'GET',
    url: '/api/rooms',
    access: 'staff',
    query: ZListRoomsInput,
    response: ZRoomList,
    handler: ({ ctx, query }) => service.listRooms(ctx, query),
  });
  route(app, deps, {
    method: 'POST',
    url: '/api/rooms',
    access: 'admin',
    body: ZCreateRoomInput,
    response: ZRoom,
    status: 201,
    handler: ({ ctx, body }) => service.createRoom(ctx, body),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/rooms/:id',
    access: 'staff',
    params: ZIdParam,
    response: ZRoom,
    handler: ({ ctx, params }) => service.getRoom(ctx, params.id),
  });
  route(app, deps, {
    method: 'PUT',
    url: '/api/rooms/:id',
    access: 'admin',
    params: ZIdParam,
    body: ZUpdateRoomBody,
    response: ZRoom,
    handler: ({ ctx, params, body }) => service.updateRoom(ctx, { ...body, id: params.id }),
  });
  route(app, deps, {
    method: 'DELETE',
    url: '/api/rooms/:id',
    access: 'admin',
    params: ZIdParam,
    response: ZMessage,
    handler: ({ ctx, params }) => service.deleteRoom(ctx, params.id),
  });
}
