import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { route, ZIdParam } from '../../http/rest';
import { ZCreateBranchInput, ZUpdateBranchInput } from '@shared/schemas/branches';
import { ZBranch, ZBranchList } from '@shared/schemas/branches.output';
import { ZMessage } from '@shared/schemas/output';
import * as service from './branches.service';

const ZBranchBody = ZUpdateBranchInput.omit({ id: true });

export function registerBranchRest(app: FastifyInstance, deps: AppDeps) {
  route(app, deps, {
    method: 'GET',
    url: '/api/branch',
    access: 'staff',
    response: ZBranchList,
    handler: async ({ ctx }) => ({ branches: await service.listAllBranches(ctx) }),
  });
  route(app, deps, {
    method: 'POST',
    url: '/api/branch',
    access: 'admin',
    body: ZCreateBranchInput,
    response: ZBranch,
    status: 201,
    handler: ({ ctx, body }) => service.createBranch(ctx, body),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/branch/:id',
    access: 'staff',
    params: ZIdParam,
    response: ZBranch,
    handler: ({ ctx, params }) => service.getBranch(ctx, params.id),
  });
  route(app, deps, {
    method: 'PUT',
    url: '/api/branch/:id',
    access: 'admin',
    params: ZIdParam,
    body: ZBranchBody,
    response: ZBranch,
    handler: ({ ctx, params, body }) => service.updateBranch(ctx, { id: params.id, ...body }),
  });
  route(app, deps, {
    method: 'DELETE',
    url: '/api/branch/:id',
    access: 'admin',
    params: ZIdParam,
    response: ZMessage,
    handler: ({ ctx, params }) => service.deleteBranch(ctx, params.id),
  });
}
