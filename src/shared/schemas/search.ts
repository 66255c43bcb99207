import { z } from 'zod';
import { SEARCH_MAX, zText } from '@shared/schemas/primitives';

/** What the header search finds, in the order its answer lists them. */
export const SEARCH_KINDS = ['user', 'receipt', 'enrollment', 'booking', 'course', 'treatment'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

export const SEARCH_MIN = 2;
export const SEARCH_TOO_SHORT = `Type at least ${SEARCH_MIN} characters to search.`;

/** `search.global` and `GET /api/search?q=`: the text, trimmed, 2 to 200 characters. */
export const ZGlobalSearchInput = z.object({
  q: zText('Search', { message: SEARCH_TOO_SHORT })
    .trim()
    .min(SEARCH_MIN, SEARCH_TOO_SHORT)
    .max(SEARCH_MAX, `Search must be at most ${SEARCH_MAX} characters.`),
});
export type TGlobalSearchInput = z.infer<typeof ZGlobalSearchInput>;

/** One hit: what it is, its id, two lines to show, and the screen that opens it. */
export const ZSearchHit = z.object({
  kind: z.enum(SEARCH_KINDS),
  id: z.string(),
  title: z.string(),
  subtitle: z.string(),
  url: z.string(),
});
export type TSearchHit = z.infer<typeof ZSearchHit>;

export const ZSearchAnswer = z.object({ data: z.array(ZSearchHit) });
export type TSearchAnswer = z.infer<typeof ZSearchAnswer>;
