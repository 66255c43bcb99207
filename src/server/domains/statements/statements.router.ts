import { router } from '../../trpc/init';
import { serve, staffProcedure } from '../../trpc/procedures';
import { ZStatement, ZStatementInput, ZStatementQueued } from '@shared/schemas/statements';
import * as service from './statements.service';

/** A person's account statement (docs/users.md#statement); the PDF is the REST path's. */
export const statementsRouter = router({
  get: staffProcedure.input(ZStatementInput).output(ZStatement).query(serve(service.getStatement)),
  email: staffProcedure.input(ZStatementInput).output(ZStatementQueued).mutation(serve(service.emailStatement)),
});
