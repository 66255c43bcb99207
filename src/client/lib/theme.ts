/** docs/product.md#who-uses-it: light and dark themes exist, the theme is forced to light, stored under `theme`. */
export const THEME_STORAGE_KEY = 'theme';

export function applyForcedLightTheme() {
  try {
    localStorage.setItem(THEME_STORAGE_KEY, 'light');
  } catch {
    // Storage can be unavailable (private mode); the class below is what matters.
  }
  document.documentElement.classList.remove('dark');
  document.documentElement.classList.add('light');
}
