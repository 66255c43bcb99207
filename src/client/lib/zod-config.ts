import { z } from 'zod';

/**
 * Zod compiles fast object parsers with `new Function` when it may; the page's
 * Content-Security-Policy forbids eval (docs/security.md#security-headers), and merely probing for it reports a
 * violation. Jitless parsing is the same validation without generated code. Imported first by the
 * entry point, before any schema parses.
 */
z.config({ jitless: true });
