import { AppError } from '../errors';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A malformed id cannot name a row: answer 404 like any unknown id, never a database error. */
export function assertId(id: string, what: string): string {
  if (!UUID_RE.test(id)) throw new AppError('NOT_FOUND', `${what} not found.`);
  return id;
}

export function isUuid(id: string): boolean {
  return UUID_RE.test(id);
}

/** An instant as the answers write it (ISO 8601, UTC), or null. */
export const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
