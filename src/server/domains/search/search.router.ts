/*
 * Who may call what:
 *   global ..... staff (manager, admin, superadmin); a manager limited to a branch finds its people only
 */
import { router } from '../../trpc/init';
import { serve, staffProcedure } from '../../trpc/procedures';
import { ZGlobalSearchInput, ZSearchAnswer } from '@shared/schemas/search';
import * as service from './search.service';

export const searchRouter = router({
  global: staffProcedure.input(ZGlobalSearchInput).output(ZSearchAnswer).query(serve(service.globalSearch)),
});
