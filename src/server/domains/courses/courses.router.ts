/*
 * Who may call what (docs/product.md#roles: course add, list, edit and delete are for admin, manager
 * and superadmin alike; only the sidebar's "Add Courses" link is admin-only, which is navigation,
 * not permission):
 *   list, options, categories, get, filtered ........ staff (manager, admin, superadmin)
 *   create, update, delete ............................ staff (manager, admin, superadmin)
 */
import { z } from 'zod';
import { router } from '../../trpc/init';
import { serve, serveId, staffProcedure } from '../../trpc/procedures';
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
  list: staffProcedure.input(ZListCoursesInput).output(ZCoursePage).query(serve(service.listCourses)),
  options: staffProcedure.output(z.array(ZCourseOption)).query(serve(service.courseOptions)),
  categories: staffProcedure.output(z.array(z.string())).query(serve(service.courseCategories)),
  filtered: staffProcedure.input(ZFilterCoursesInput).output(ZCourseList).query(serve(service.filterCourses)),
  get: staffProcedure.input(ZCourseIdInput).output(ZCourse).query(serveId(service.getCourse)),
  create: staffProcedure.input(ZCreateCourseInput).output(ZCourse).mutation(serve(service.createCourse)),
  update: staffProcedure.input(ZUpdateCourseInput).output(ZCourse).mutation(serve(service.updateCourse)),
  delete: staffProcedure.input(ZCourseIdInput).output(ZMessage).mutation(serveId(service.deleteCourse)),
});
