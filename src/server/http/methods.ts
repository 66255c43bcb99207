const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * HTTP's safe methods, the ones that change nothing: a cookie-signed request with one of them
 * needs no same-origin check, it forgets no reused answer, and a quick successful one is logged at
 * debug (docs/security.md#logs).
 */
export function isReadMethod(method: string): boolean {
  return READ_METHODS.has(method);
}
