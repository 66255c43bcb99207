import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { files } from '../../db/schema';
import { AppError } from '../../errors';
import { assertId } from '../common';

/** Pictures are at most 2 MB (RULES.md). */
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;
export const IMAGE_TOO_LARGE = 'The picture must be at most 2 MB.';
export const IMAGE_WRONG_TYPE = 'The picture must be a JPEG, PNG or WebP image.';
export const IMAGE_EMPTY = 'The picture is empty.';

export type ImageType = 'image/jpeg' | 'image/png' | 'image/webp';

/** The type comes from the bytes, never from the declared content type or file name. */
export function detectImageType(data: Buffer): ImageType | null {
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (data.length >= 12 && data.toString('latin1', 0, 4) === 'RIFF' && data.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  return null;
}

/** Checks an upload and stores it as a new row: a new picture always gets a new id (and URL). */
export async function storeImage(db: Db, upload: { data: Buffer; truncated?: boolean }): Promise<string> {
  if (upload.truncated || upload.data.length > MAX_IMAGE_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', IMAGE_TOO_LARGE);
  if (upload.data.length === 0) throw new AppError('BAD_REQUEST', IMAGE_EMPTY);
  const contentType = detectImageType(upload.data);
  if (!contentType) throw new AppError('BAD_REQUEST', IMAGE_WRONG_TYPE);
  const [row] = await db.insert(files).values({ contentType, byteSize: upload.data.length, data: upload.data }).returning({ id: files.id });
  return row!.id;
}

export async function deleteFile(db: Db, id: string) {
  await db.delete(files).where(eq(files.id, id));
}

export async function getFile(db: Db, id: string) {
  assertId(id, 'File');
  const [row] = await db
    .select({ contentType: files.contentType, byteSize: files.byteSize, data: files.data })
    .from(files)
    .where(eq(files.id, id))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', 'File not found.');
  return row;
}
