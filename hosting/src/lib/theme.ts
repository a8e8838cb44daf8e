/**
 * Light, dark, or whatever the system prefers: the choice is kept in localStorage and applied
 * as `data-theme` on <html> before the app mounts, so a reload never flashes the other theme.
 */
export type Theme = 'system' | 'light' | 'dark';
export const themes: Theme[] = ['system', 'light', 'dark'];
const key = 'evident-theme';

export function storedTheme(storage: Pick<Storage, 'getItem'> = localStorage): Theme {
  const value = storage.getItem(key);
  return value === 'light' || value === 'dark' ? value : 'system';
}

export function applyTheme(
  theme: Theme,
  root: HTMLElement = document.documentElement,
  storage: Pick<Storage, 'setItem' | 'removeItem'> = localStorage,
): void {
  if (theme === 'system') {
    delete root.dataset.theme;
    storage.removeItem(key);
  } else {
    root.dataset.theme = theme;
    storage.setItem(key, theme);
  }
}
