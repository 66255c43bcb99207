import { router } from '../../trpc/init';
import { serve, staffProcedure } from '../../trpc/procedures';
import { ZReceivables, ZReceivablesInput } from '@shared/schemas/receivables';
import { listReceivables } from './receivables.service';

/** The receivables page (docs/payments.md#receivables); its files are REST downloads. Staff only. */
export const receivablesRouter = router({
  list: staffProcedure.input(ZReceivablesInput).output(ZReceivables).query(serve(listReceivables)),
});
