import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { settings } from '../../db/schema';
import type { SystemContext } from '../context';
import { saveSettings } from '../settings/settings.service';
import { PORTAL_SETTINGS_DEFAULTS, type TPortalSettings, type TPortalSettingsInput } from '@shared/schemas/portal';

/** Settings → Portal (docs/portal.md#settings); the defaults until an admin saves them. */
export async function getPortalSettings(db: Db): Promise<TPortalSettings> {
  const [row] = await db
    .select({
      selfBooking: settings.portalSelfBooking,
      cancelHours: settings.portalCancelHours,
      minNoticeHours: settings.portalMinNoticeHours,
      maxDaysAhead: settings.portalMaxDaysAhead,
    })
    .from(settings)
    .where(eq(settings.id, 1))
    .limit(1);
  return row ?? PORTAL_SETTINGS_DEFAULTS;
}

export async function updatePortalSettings(ctx: SystemContext, input: TPortalSettingsInput): Promise<TPortalSettings> {
  return saveSettings(
    ctx,
    'portal',
    {
      portalSelfBooking: input.selfBooking,
      portalCancelHours: input.cancelHours,
      portalMinNoticeHours: input.minNoticeHours,
      portalMaxDaysAhead: input.maxDaysAhead,
    },
    getPortalSettings,
    (after) =>
      `Changed the portal settings: self-booking ${after.selfBooking ? 'on' : 'off'}, cancel ${after.cancelHours} h before, ` +
      `book ${after.minNoticeHours} h to ${after.maxDaysAhead} days ahead`,
  );
}
