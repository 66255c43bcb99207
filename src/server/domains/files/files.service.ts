import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import type { Db } from '../../db/client';
import { firstRow } from '../../db/rows';
import { files } from '../../db/schema';
import { AppError } from '../../errors';
import { assertId } from '../ids';

/** Pictures are at most 2 MB (docs/users.md). */
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;
export const IMAGE_TOO_LARGE = 'The picture must be at most 2 MB.';
export const IMAGE_WRONG_TYPE = 'The picture must be a JPEG, PNG or WebP image.';
export const IMAGE_EMPTY = 'The picture is empty.';
export const IMAGE_UNREADABLE = 'The picture could not be read; it may be damaged.';

/** Larger images are refused before decoding (a small file can claim a huge size). */
const MAX_IMAGE_PIXELS = 40_000_000;

export type ImageType = 'image/jpeg' | 'image/png' | 'image/webp';

/** The type comes from the bytes, never from the declared content type or file name. */
export function detectImageType(data: Buffer): ImageType | null {
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (data.length >= 12 && data.toString('latin1', 0, 4) === 'RIFF' && data.toString('latin1', 8, 12) === 'WEBP')
    return 'image/webp';
  return null;
}

/**
 * Decodes the picture and encodes it again in its own format (docs/users.md#profile-pictures):
 * only pixels survive, so bytes appended to a valid header (an HTML or script polyglot) and the
 * EXIF block (a phone's GPS position) are gone. The EXIF orientation is applied first, so the
 * picture keeps the way up it was taken.
 */
async function reencode(data: Buffer, type: ImageType): Promise<Buffer> {
  try {
    const image = sharp(data, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' }).rotate();
    if (type === 'image/jpeg') return await image.jpeg({ quality: 85, mozjpeg: true }).toBuffer();
    if (type === 'image/png') return await image.png({ compressionLevel: 9 }).toBuffer();
    return await image.webp({ quality: 85 }).toBuffer();
  } catch {
    throw new AppError('BAD_REQUEST', IMAGE_UNREADABLE);
  }
}

/** Checks an upload and stores it as a new row: a new picture always gets a new id (and URL). */
export async function storeImage(db: Db, upload: { data: Buffer; truncated?: boolean }): Promise<string> {
  if (upload.truncated || upload.data.length > MAX_IMAGE_BYTES)
    throw new AppError('PAYLOAD_TOO_LARGE', IMAGE_TOO_LARGE);
  if (upload.data.length === 0) throw new AppError('BAD_REQUEST', IMAGE_EMPTY);
  const contentType = detectImageType(upload.data);
  if (!contentType) throw new AppError('BAD_REQUEST', IMAGE_WRONG_TYPE);
  const data = await reencode(upload.data, contentType);
  const rows = await db.insert(files).values({ contentType, byteSize: data.length, data }).returning({ id: files.id });
  return firstRow(rows).id;
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
