import { useLocation, type ParsedLocation } from '@tanstack/react-router';

/*
 * Keyset paging (docs/performance.md#keyset-paging): a page's answer names the row it ended on
 * (`nextCursor`), and the page after it asked for with that cursor is read as "the rows after that
 * row": an index range instead of skipping every earlier row, and a row written meanwhile neither
 * repeats nor hides one. So a list's query input is the URL's search plus the cursor of the page
 * the URL names, when the user came to it with Next. The cursors travel with the navigation, in
 * the history entry's state (the URL stays what the user shares): Next records the shown page's
 * cursor for the page after it, and the route loader and the screen read the cursor of the page
 * the URL names from there. A page reached otherwise (a typed URL, a link, a new filter or sort)
 * has none and is asked for by its number.
 */

/** The cursor that reads each page of the list on screen, by page number. */
export type PageCursors = Readonly<Record<string, string>>;

declare module '@tanstack/react-router' {
  interface HistoryState {
    pageCursors?: PageCursors;
  }
}

/** How many pages around the one shown keep their cursor (Previous, and Next again, reuse them). */
const KEPT = 50;

/** The cursor that reads `page` in a location's state, if there is one. */
export function cursorOf(state: ParsedLocation['state'], page: number): string | undefined {
  const cursor = state.pageCursors?.[page];
  return typeof cursor === 'string' ? cursor : undefined;
}

/** The cursors of the list on screen (its history entry's state). */
export function usePageCursors(): PageCursors | undefined {
  return useLocation({ select: (l) => l.state.pageCursors });
}

/**
 * The cursors after moving from `page`, whose answer ended at `nextCursor`, to page `to`: Next
 * records that cursor for the page after it; every move keeps the cursors of the pages near `to`.
 */
export function cursorsAfterMove(
  cursors: PageCursors | undefined,
  page: number,
  nextCursor: string | null | undefined,
  to: number,
): PageCursors {
  const near = Object.entries(cursors ?? {}).filter(([p]) => Math.abs(Number(p) - to) <= KEPT);
  return Object.fromEntries(to === page + 1 && nextCursor ? [...near, [String(to), nextCursor]] : near);
}
