import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { route, ZIdParam } from '../../http/rest';
import { ZCreateCourseInput, ZFilterCoursesInput, ZUpdateCourseFields } from '@shared/schemas/courses';
import * as service from './courses.service';
import { ZCourse, ZCourseList } from '@shared/schemas/courses.output';
import { ZMessage } from '@shared/schemas/output';

/** docs/product.md#rest-paths, Courses; roles as in courses.router.ts. */
export function registerCourseRest(app: FastifyInstance, deps: AppDeps) {
  route(app, deps, {
    method: 'GET',
    url: '/api/course',
    access: 'staff',
    response: ZCourseList,
    handler: ({ ctx }) => service.listAllCourses(ctx),
  });
  route(app, deps, {
    method: 'POST',
    url: '/api/course',
    access: 'staff',
    response: ZCourse,
    body: ZCreateCourseInput,
    status: 201,
    handler: ({ ctx, body }) => service.createCourse(ctx, body),
  });
  // Registered before /:id for readability; find-my-way prefers the static segment anyway.
  route(app, deps, {
    method: 'GET',
    url: '/api/course/filtered',
    access: 'staff',
    response: ZCourseList,
    query: ZFilterCoursesInput,
    handler: ({ ctx, query }) => service.filterCourses(ctx, query),
  });
  route(app, deps, {
    method: 'GET',
    url: '/api/course/:id',
    access: 'staff',
    response: ZCourse,
    params: ZIdParam,
    handler: ({ ctx, params }) => service.getCourse(ctx, params.id),
  });
  route(app, deps, {
    method: 'PUT',
    url: '/api/course/:id',
    access: 'staff',
    response: ZCourse,
    params: ZIdParam,
    body: ZUpdateCourseFields,
    handler: ({ ctx, params, body }) => service.updateCourse(ctx, { ...body, id: params.id }),
  });
  route(app, deps, {
    method: 'DELETE',
    url: '/api/course/:id',
    access: 'staff',
    response: ZMessage,
    params: ZIdParam,
    handler: ({ ctx, params }) => service.deleteCourse(ctx, params.id),
  });
}
