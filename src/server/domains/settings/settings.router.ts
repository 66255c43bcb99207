import { router } from '../../trpc/init';
import { adminProcedure, serve, staffProcedure } from '../../trpc/procedures';
import { ZUpdateAccessInput, ZUpdateCurrencyInput } from '@shared/schemas/settings';
import {
  getAccessSettings,
  getCurrencySettings,
  updateAccessSettings,
  updateCurrencySettings,
} from './settings.service';
import { ZCurrencySettings } from '@shared/schemas/settings.output';
import { ZOrganisation, ZOrganisationInput } from '@shared/schemas/organisation';
import { getOrganisation, updateOrganisation } from './organisation.service';
import { ZPortalSettings, ZPortalSettingsInput } from '@shared/schemas/portal';
import { getPortalSettings, updatePortalSettings } from '../portal/portal.settings';

export const settingsRouter = router({
  getCurrency: staffProcedure.output(ZCurrencySettings).query(({ ctx }) => getCurrencySettings(ctx.svc.db)),
  updateCurrency: adminProcedure
    .input(ZUpdateCurrencyInput)
    .output(ZCurrencySettings)
    .mutation(serve(updateCurrencySettings)),
  getAccess: staffProcedure.query(({ ctx }) => getAccessSettings(ctx.svc.db)),
  updateAccess: adminProcedure.input(ZUpdateAccessInput).mutation(serve(updateAccessSettings)),
  getOrganisation: staffProcedure.output(ZOrganisation).query(({ ctx }) => getOrganisation(ctx.svc)),
  updateOrganisation: adminProcedure
    .input(ZOrganisationInput)
    .output(ZOrganisation)
    .mutation(serve(updateOrganisation)),
  getPortal: staffProcedure.output(ZPortalSettings).query(({ ctx }) => getPortalSettings(ctx.svc.db)),
  updatePortal: adminProcedure
    .input(ZPortalSettingsInput)
    .output(ZPortalSettings)
    .mutation(serve(updatePortalSettings)),
});
