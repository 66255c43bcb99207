import { router } from '../../trpc/init';
import { adminProcedure, serve } from '../../trpc/procedures';
import { ZAuditForEntityInput, ZAuditListInput } from '@shared/schemas/audit';
import { ZAuditSlice } from '@shared/schemas/audit.output';
import { auditForEntity, listAudit } from './audit.queries';

/** docs/audit.md#reading-it: admins and superadmins only; keyset paging (`cursor` from `nextCursor`). */
export const auditRouter = router({
  list: adminProcedure.input(ZAuditListInput).output(ZAuditSlice).query(serve(listAudit)),
  forEntity: adminProcedure.input(ZAuditForEntityInput).output(ZAuditSlice).query(serve(auditForEntity)),
});
