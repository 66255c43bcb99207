import { router } from '../../trpc/init';
import { adminProcedure, serve, serveId, staffProcedure } from '../../trpc/procedures';
import {
  ZCloseTillInput,
  ZListTillsInput,
  ZOpenTillInput,
  ZTill,
  ZTillIdInput,
  ZTillList,
  ZTillSettings,
  ZTillSettingsInput,
} from '@shared/schemas/tills';
import { listTills } from './tills.read';
import { closeTill, getTill, getTillSettings, openTill, updateTillSettings } from './tills.service';

export const tillsRouter = router({
  list: staffProcedure.input(ZListTillsInput).output(ZTillList).query(serve(listTills)),
  get: staffProcedure.input(ZTillIdInput).output(ZTill).query(serveId(getTill)),
  open: staffProcedure.input(ZOpenTillInput).output(ZTill).mutation(serve(openTill)),
  close: staffProcedure.input(ZCloseTillInput).output(ZTill).mutation(serve(closeTill)),
  settings: staffProcedure.output(ZTillSettings).query(({ ctx }) => getTillSettings(ctx.svc.db)),
  updateSettings: adminProcedure.input(ZTillSettingsInput).output(ZTillSettings).mutation(serve(updateTillSettings)),
});
