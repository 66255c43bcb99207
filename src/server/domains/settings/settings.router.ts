import { router } from '../../trpc/init';
import { adminProcedure, staffProcedure } from '../../trpc/procedures';
import { ZUpdateCurrencyInput } from '@shared/schemas/settings';
import { getCurrencySettings, updateCurrencySettings } from './settings.service';

export const settingsRouter = router({
  getCurrency: staffProcedure.query(({ ctx }) => getCurrencySettings(ctx.svc.db)),
  updateCurrency: adminProcedure
    .input(ZUpdateCurrencyInput)
    .mutation(({ ctx, input }) => updateCurrencySettings(ctx.svc, input)),
});
