/*
 * Who may call what (docs/product.md#roles: course add, list, edit and delete are for admin, manager
 * and superadmin alike; only the sidebar's "Add Courses" link is admin-only, which is navigation,
 * not permission):
 *   list, options, categories, get, filtered ........ staff (manager, admin, superadmin)
 *   create, update, delete ............................ staff (manager, admin, superadmin)
 */
import { router } from '../../trpc/init';
import { staffProcedure } from '../../trpc/procedures';
import {
  ZCourseIdInput,
  ZCreateCourseInput,
  ZFilterCoursesInput,
  ZListCoursesInput,
  ZUpdateCourseInput,
} from '@shared/schemas/courses';
import * as service from './courses.service';

export const coursesRouter = router({
  list: staffProcedure.input(ZListCoursesInput).query(({ ctx, input }) => service.listCourses(ctx.svc, input)),
  options: staffProcedure.query(({ ctx }) => service.courseOptions(ctx.svc)),
  categories: staffProcedure.query(({ ctx }) => service.courseCategories(ctx.svc)),
  filtered: staffProcedure.input(ZFilterCoursesInput).query(({ ctx, input }) => service.filterCourses(ctx.svc, input)),
  get: staffProcedure.input(ZCourseIdInput).query(({ ctx, input }) => service.getCourse(ctx.svc, input.id)),
  create: staffProcedure.input(ZCreateCourseInput).mutation(({ ctx, input }) => service.createCourse(ctx.svc, input)),
  update: staffProcedure.input(ZUpdateCourseInput).mutation(({ ctx, input }) => service.updateCourse(ctx.svc, input)),
  delete: staffProcedure.input(ZCourseIdInput).mutation(({ ctx, input }) => service.deleteCourse(ctx.svc, input.id)),
});
