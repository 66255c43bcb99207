import { z } from 'zod';
import { zCountOut, zInstantOut } from '@shared/schemas/output';

/** What the audit read paths answer (docs/audit.md#reading-it). */
const ZAuditChange = z.object({ field: z.string(), before: z.json(), after: z.json() });

export const ZAuditEntry = z.object({
  id: z.string(),
  createdAt: zInstantOut,
  /** `fullName` as the account is named now; null once it is deleted (the username stays). */
  actor: z
    .object({ id: z.string(), username: z.string(), role: z.string(), fullName: z.string().nullable() })
    .nullable(),
  action: z.string(),
  entityType: z.string(),
  entityId: z.string().nullable(),
  summary: z.string(),
  changes: z.array(ZAuditChange),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  requestId: z.string().nullable(),
});

/** `audit.list` and `audit.forEntity`: a keyset slice. */
export const ZAuditSlice = z.object({ items: z.array(ZAuditEntry), nextCursor: z.string().nullable() });

/** `GET /api/audit`: a numbered page. */
export const ZAuditPage = z.object({ data: z.array(ZAuditEntry), total: zCountOut, page: z.number().int() });
export type TAuditEntry = z.infer<typeof ZAuditEntry>;
