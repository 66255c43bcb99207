import { router } from '../../trpc/init';
import { adminProcedure, serve } from '../../trpc/procedures';
import type { AuditEntryDto } from '../../../shared/audit';
import type { Same } from '../common';
import { ZAuditForEntityInput, ZAuditListInput } from '@shared/schemas/audit';
import { ZAuditSlice, type TAuditEntry } from '@shared/schemas/audit.output';
import { auditForEntity, listAudit } from './audit.queries';

// The entries the service builds and the contract are one shape (docs/architecture.md#the-path-of-a-request).
const _contract: Same<AuditEntryDto, TAuditEntry> = true;

/** docs/audit.md#reading-it: admins and superadmins only; keyset paging (`cursor` from `nextCursor`). */
export const auditRouter = router({
  list: adminProcedure.input(ZAuditListInput).output(ZAuditSlice).query(serve(listAudit)),
  forEntity: adminProcedure.input(ZAuditForEntityInput).output(ZAuditSlice).query(serve(auditForEntity)),
});
