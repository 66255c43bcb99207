import { z } from 'zod';
import { ROLES } from '@shared/roles';
import { ZCourse } from '@shared/schemas/courses.output';
import { zCountOut, zInstantOut, zMoneyOut } from '@shared/schemas/output';
import { ZTreatment } from '@shared/schemas/treatments.output';
import { ZBranchRef } from '@shared/schemas/users.output';

/** The statistics answers (docs/reports.md): counts, and money as decimal numbers. */
export const ZUserStatistics = z.object({
  data: z.object({
    totalUsers: zCountOut,
    recentUsers: zCountOut,
    roleCounts: z.array(z.object({ _id: z.enum(ROLES), count: zCountOut })),
    branchCounts: z.array(z.object({ branch: ZBranchRef, count: zCountOut })),
  }),
});
export type TUserStatistics = z.infer<typeof ZUserStatistics>;

export const ZCourseStatistics = z.object({
  data: z.object({
    totalCourses: zCountOut,
    recentCourses: zCountOut,
    categoryCounts: z.array(z.object({ _id: z.string(), count: zCountOut })),
    feeStats: z.object({ avgFee: zMoneyOut, minFee: zMoneyOut, maxFee: zMoneyOut }),
    popularCourses: z.array(z.object({ course: ZCourse, enrollmentCount: zCountOut })),
  }),
});
export type TCourseStatistics = z.infer<typeof ZCourseStatistics>;

export const ZTreatmentStatistics = z.object({
  data: z.object({
    totalTreatments: zCountOut,
    recentTreatments: zCountOut,
    categoryCounts: z.array(z.object({ _id: z.string().nullable(), count: zCountOut })),
    localPriceStats: z.object({ avgLocalPrice: zMoneyOut, minLocalPrice: zMoneyOut, maxLocalPrice: zMoneyOut }),
    foreignPriceStats: z.object({
      avgForeignPrice: zMoneyOut,
      minForeignPrice: zMoneyOut,
      maxForeignPrice: zMoneyOut,
    }),
    popularTreatments: z.array(z.object({ treatment: ZTreatment, bookingCount: zCountOut })),
  }),
});
export type TTreatmentStatistics = z.infer<typeof ZTreatmentStatistics>;

export const ZReportRowCount = z.object({ rows: zCountOut });

/** A report file built by the worker (docs/reports.md). */
export const ZReportFileStatus = z.object({
  id: z.string(),
  reportId: z.string(),
  kind: z.string(),
  format: z.enum(['xlsx', 'pdf', 'json']),
  fileName: z.string(),
  status: z.enum(['queued', 'building', 'ready', 'failed']),
  progress: z.number().int(),
  error: z.string().nullable(),
  downloadUrl: z.string().nullable(),
  createdAt: zInstantOut,
});
export type TReportFileStatus = z.infer<typeof ZReportFileStatus>;
