import { z } from 'zod';

/**
 * Zod compiles fast object parsers with `new Function` when it may; the page's
 * Content-Security-Policy forbids eval (docs/security.md#security-headers), and merely probing for it reports a
 * violation. Jitless parsing is the same validation without generated code. Imported first by the
 * entry point, and bundled into zod's own chunk (vite.config.ts) so it runs before any schema is
 * built in a shared chunk.
 */
z.config({ jitless: true });
