import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { files, organisation } from '../../db/schema';
import type { TOrganisation, TOrganisationInput } from '@shared/schemas/organisation';
import { fieldChanges, recordAudit } from '../audit/audit.service';
import type { SystemContext } from '../context';
import { deleteFile, storeImage } from '../files/files.service';

/** The organisation as paper prints it (docs/users.md#the-organisation-on-paper). */
export interface Organisation {
  name: string;
  address: string;
  phone: string;
  email: string;
  receiptFooter: string;
  bankDetails: string;
  logoFileId: string | null;
}

/**
 * The stored organisation, the name falling back to the product's (APP_NAME) while none is
 * stored: what every receipt, statement, cash-up, report and e-mail prints.
 */
export async function loadOrganisation(db: Db, config: Pick<Config, 'APP_NAME'>): Promise<Organisation> {
  const [row] = await db.select().from(organisation).where(eq(organisation.id, 1)).limit(1);
  return {
    name: row?.name || config.APP_NAME,
    address: row?.address ?? '',
    phone: row?.phone ?? '',
    email: row?.email ?? '',
    receiptFooter: row?.receiptFooter ?? '',
    bankDetails: row?.bankDetails ?? '',
    logoFileId: row?.logoFileId ?? null,
  };
}

/** The address, phone and e-mail on one line, as a letterhead prints them under the name. */
export function contactLine(o: Organisation): string {
  return [o.address.replace(/\s*\n\s*/g, ', '), o.phone, o.email].filter(Boolean).join(' · ');
}

/** The name and contact line a report's header prints (ReportMeta.organisation). */
export async function paperOrganisation(db: Db, config: Pick<Config, 'APP_NAME'>) {
  const o = await loadOrganisation(db, config);
  return { name: o.name, contact: contactLine(o) };
}

const toDto = (o: Organisation): TOrganisation => ({
  name: o.name,
  address: o.address,
  phone: o.phone,
  email: o.email,
  receiptFooter: o.receiptFooter,
  bankDetails: o.bankDetails,
  logoUrl: o.logoFileId ? `/api/files/${o.logoFileId}` : null,
});

export async function getOrganisation(ctx: SystemContext): Promise<TOrganisation> {
  return toDto(await loadOrganisation(ctx.db, ctx.deps.config));
}

/** Admins write the organisation's details; the next receipt or report prints them. */
export async function updateOrganisation(ctx: SystemContext, input: TOrganisationInput): Promise<TOrganisation> {
  return ctx.db.transaction(async (tx) => {
    // The row lock orders two admins' saves, so each entry's "before" is what that save replaced.
    await tx.select({ id: organisation.id }).from(organisation).where(eq(organisation.id, 1)).for('update');
    const before = await loadOrganisation(tx, ctx.deps.config);
    await tx
      .insert(organisation)
      .values({ id: 1, ...input })
      .onConflictDoUpdate({ target: organisation.id, set: input });
    const after = await loadOrganisation(tx, ctx.deps.config);
    const { logoFileId: _b, ...b } = before;
    const { logoFileId: _a, ...a } = after;
    const changes = fieldChanges(b, a);
    if (changes.length) {
      await recordAudit(tx, ctx, {
        action: 'update',
        entityType: 'settings',
        entityId: 'organisation',
        summary: `Changed the organisation details (${after.name})`,
        changes,
      });
    }
    return toDto(after);
  });
}

/** A new logo (checked and re-encoded as profile pictures are); the old one's file is removed. */
export async function setOrganisationLogo(
  ctx: SystemContext,
  upload: { data: Buffer; truncated?: boolean },
): Promise<TOrganisation> {
  const fileId = await storeImage(ctx.db, upload);
  const old = await ctx.db.transaction(async (tx) => {
    const [row] = await tx.select().from(organisation).where(eq(organisation.id, 1)).for('update').limit(1);
    await tx
      .insert(organisation)
      .values({ id: 1, logoFileId: fileId })
      .onConflictDoUpdate({ target: organisation.id, set: { logoFileId: fileId } });
    return row?.logoFileId ?? null;
  });
  if (old) await deleteFile(ctx.db, old);
  return getOrganisation(ctx);
}

/**
 * The logo as a PDF can draw it (jsPDF reads PNG and JPEG; a WebP logo is converted to PNG), or
 * null without one.
 */
export async function logoForPdf(
  db: Db,
  o: Organisation,
): Promise<{ data: Uint8Array; format: 'PNG' | 'JPEG'; width: number; height: number } | null> {
  if (!o.logoFileId) return null;
  const [file] = await db
    .select({ contentType: files.contentType, data: files.data })
    .from(files)
    .where(eq(files.id, o.logoFileId))
    .limit(1);
  if (!file) return null;
  const image = sharp(file.data);
  const meta = await image.metadata();
  const width = meta.width || 1;
  const height = meta.height || 1;
  if (file.contentType === 'image/jpeg') return { data: new Uint8Array(file.data), format: 'JPEG', width, height };
  const png = file.contentType === 'image/png' ? file.data : await image.png().toBuffer();
  return { data: new Uint8Array(png), format: 'PNG', width, height };
}
