import { useCallback, useState, useSyncExternalStore } from 'react';

/** docs/product.md#constants: the sidebar's breakpoint. */
export const SIDEBAR_BREAKPOINT = 768;
const NARROW_QUERY = `(max-width: ${SIDEBAR_BREAKPOINT - 0.02}px)`;

function subscribe(onChange: () => void) {
  const mql = window.matchMedia(NARROW_QUERY);
  mql.addEventListener('change', onChange);
  return () => mql.removeEventListener('change', onChange);
}

export function useIsNarrow(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(NARROW_QUERY).matches);
}

/**
 * docs/product.md#screens-and-routes: collapsed follows the width (collapsed below 768px, expanded from 768px) and can
 * be toggled by hand. Below 768px "collapsed" means off-canvas; expanded slides it in.
 */
export function useSidebarState() {
  const narrow = useIsNarrow();
  const [collapsed, setCollapsed] = useState(narrow);
  const [lastNarrow, setLastNarrow] = useState(narrow);
  if (lastNarrow !== narrow) {
    // Crossing the breakpoint resets the state to the width rule (adjusting state while rendering).
    setLastNarrow(narrow);
    setCollapsed(narrow);
  }
  const toggle = useCallback(() => setCollapsed((c) => !c), []);
  const close = useCallback(() => setCollapsed(true), []);
  return { narrow, collapsed, toggle, close };
}
