/** Routes outside the admin layout: no session needed. */
export const PUBLIC_PATHS = ['/login', '/forgot-password', '/reset-password'];

/** Only same-app paths are followed after sign-in (no open redirect to another site). */
export function safeRedirect(target: unknown): string | undefined {
  if (typeof target !== 'string' || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\'))
    return undefined;
  if (PUBLIC_PATHS.some((p) => target === p || target.startsWith(`${p}?`))) return undefined;
  return target;
}
