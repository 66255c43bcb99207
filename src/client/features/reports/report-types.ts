import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../server/trpc/root';

type Reports = inferRouterOutputs<AppRouter>['reports'];
export type UserStats = Reports['userStats']['data'];
export type CourseStats = Reports['courseStats']['data'];
export type TreatmentStats = Reports['treatmentStats']['data'];
