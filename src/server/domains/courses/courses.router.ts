/*
 * Who may call what (docs/product.md#roles: course add, list, edit and delete are for admin, manager
 * and superadmin alike; only the sidebar's "Add Courses" link is admin-only, which is navigation,
 * not permission):
 *   list, options, categories, get, filtered ........ staff (manager, admin, superadmin)
 *   create, update, delete ............................ staff (manager, admin, superadmin)
 */
import { z } from 'zod';
import { router } from '../../trpc/init';
import { staffProcedure } from '../../trpc/procedures';
import {
  ZCourseIdInput,
  ZCreateCourseInput,
  ZFilterCoursesInput,
  ZListCoursesInput,
  ZUpdateCourseInput,
} from '@shared/schemas/courses';
import { ZCourse, ZCourseList, ZCourseOption, ZCoursePage } from '@shared/schemas/courses.output';
import { ZMessage } from '@shared/schemas/output';
import * as service from './courses.service';

export const coursesRouter = router({
  list: staffProcedure
    .input(ZListCoursesInput)
    .output(ZCoursePage)
    .query(({ ctx, input }) => service.listCourses(ctx.svc, input)),
  options: staffProcedure.output(z.array(ZCourseOption)).query(({ ctx }) => service.courseOptions(ctx.svc)),
  categories: staffProcedure.output(z.array(z.string())).query(({ ctx }) => service.courseCategories(ctx.svc)),
  filtered: staffProcedure
    .input(ZFilterCoursesInput)
    .output(ZCourseList)
    .query(({ ctx, input }) => service.filterCourses(ctx.svc, input)),
  get: staffProcedure
    .input(ZCourseIdInput)
    .output(ZCourse)
    .query(({ ctx, input }) => service.getCourse(ctx.svc, input.id)),
  create: staffProcedure
    .input(ZCreateCourseInput)
    .output(ZCourse)
    .mutation(({ ctx, input }) => service.createCourse(ctx.svc, input)),
  update: staffProcedure
    .input(ZUpdateCourseInput)
    .output(ZCourse)
    .mutation(({ ctx, input }) => service.updateCourse(ctx.svc, input)),
  delete: staffProcedure
    .input(ZCourseIdInput)
    .output(ZMessage)
    .mutation(({ ctx, input }) => service.deleteCourse(ctx.svc, input.id)),
});
