import { eq, type SQL } from 'drizzle-orm';
import { branchCondition, type BranchScope } from '../branch-scope';
import type { Db } from '../../db/client';
import { branches, users } from '../../db/schema';
import {
  DEFAULT_USER_REPORT_COLUMNS,
  REPORT_COLUMN_LABELS,
  type UserReportColumn,
} from '../../../shared/report-columns';
import { iso } from '../ids';
import { countIn, tableSource } from './report-batches';
import { createdWithin, dateFilterLine } from './report-filters';
import { listOrCustom, pickCells } from './report-lists';
import type { ReportColumn, ReportSource } from './report-source';
import type { TUserReportFilters } from '@shared/schemas/reports';

const USER_COLUMN_META: Record<UserReportColumn, Omit<ReportColumn, 'key' | 'header'>> = {
  username: { type: 'text', width: 18 },
  fullName: { type: 'text', width: 24 },
  email: { type: 'text', width: 30 },
  role: { type: 'text', width: 12 },
  branch: { type: 'text', width: 20 },
  phone: { type: 'text', width: 16 },
  createdAt: { type: 'datetime', width: 18 },
};

/** The user report, or a custom one when `fields` names its columns. The password hash is never read. */
export function userSource(
  db: Db,
  tz: string,
  f: TUserReportFilters,
  fields: string[] | undefined,
  scope: BranchScope | null,
): ReportSource {
  const { keys, ...list } = listOrCustom(
    USER_COLUMN_META,
    (k) => REPORT_COLUMN_LABELS[k],
    fields,
    DEFAULT_USER_REPORT_COLUMNS,
    {
      list: { title: 'User Report', fileBase: 'user_report' },
      custom: { title: 'Custom User Report', fileBase: 'user_report' },
    },
  );
  const where: SQL[] = [];
  if (f.role) where.push(eq(users.role, f.role));
  if (f.branchId) where.push(eq(users.branchId, f.branchId));
  const mine = branchCondition(scope);
  if (mine) where.push(mine);
  where.push(...createdWithin(users.createdAt, f.startDate, f.endDate, tz));
  return tableSource({
    ...list,
    filterLines: [
      ...(f.role ? [`Role: ${f.role}`] : []),
      ...(f.branchId ? [`Branch id: ${f.branchId}`] : []),
      ...dateFilterLine('Created', f.startDate, f.endDate),
    ],
    table: users,
    where,
    count: countIn(db, users),
    // The password hash is never selected.
    select: (w, cursor) =>
      db
        .select({
          username: users.username,
          fullName: users.fullName,
          email: users.email,
          role: users.role,
          branch: branches.name,
          phone: users.phone,
          createdAt: users.createdAt,
          ...cursor,
        })
        .from(users)
        .leftJoin(branches, eq(branches.id, users.branchId))
        .where(w),
    row: (u) => pickCells(keys, { ...u, createdAt: iso(u.createdAt) }),
  });
}
