import { router } from '../../trpc/init';
import { adminProcedure } from '../../trpc/procedures';
import { ZAuditForEntityInput, ZAuditListInput } from '@shared/schemas/audit';
import { auditForEntity, listAudit } from './audit.queries';

/** docs/audit.md#reading-it: admins and superadmins only; keyset paging (`cursor` from `nextCursor`). */
export const auditRouter = router({
  list: adminProcedure.input(ZAuditListInput).query(({ ctx, input }) => listAudit(ctx.svc, input)),
  forEntity: adminProcedure.input(ZAuditForEntityInput).query(({ ctx, input }) => auditForEntity(ctx.svc, input)),
});
