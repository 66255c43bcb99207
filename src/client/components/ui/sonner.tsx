import type { CSSProperties } from 'react';
import { Toaster as Sonner, type ToasterProps } from 'sonner';

/**
 * Toasts (docs/product.md#who-uses-it, docs/product.md#constants): top-right, 5000 ms, close button, light theme, Alt+T focuses the toasts.
 * Sonner pauses on hover and while the page is hidden by itself.
 */
function Toaster(props: ToasterProps) {
  return (
    <Sonner
      theme="light"
      position="top-right"
      duration={5000}
      closeButton
      richColors
      hotkey={['altKey', 'KeyT']}
      className="toaster group"
      style={
        {
          '--normal-bg': 'var(--popover)',
          '--normal-text': 'var(--popover-foreground)',
          '--normal-border': 'var(--border)',
        } as CSSProperties
      }
      {...props}
    />
  );
}

export { Toaster };
