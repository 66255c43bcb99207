import type { RouterOutputs } from '@/lib/trpc';

type Reports = RouterOutputs['reports'];
export type UserStats = Reports['userStats']['data'];
export type CourseStats = Reports['courseStats']['data'];
export type TreatmentStats = Reports['treatmentStats']['data'];
