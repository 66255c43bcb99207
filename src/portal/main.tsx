import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { initI18n, initialLanguage } from './i18n';
import { router } from './router';
import { queryClient, setSessionLostHandler } from './trpc';
import './styles.css';

// A session that ends while the portal is open (expiry, sign-out elsewhere, password change):
// back to the sign-in screen.
setSessionLostHandler(() => {
  if (router.state.location.pathname.startsWith('/portal/sign-in')) return;
  void router.navigate({ href: '/portal/sign-in' }).then(() => queryClient.clear());
});

// The catalogue of the device's language loads before the first paint, so no screen ever
// shows a key or flips language; the profile's language replaces it once the person is known.
void initI18n(initialLanguage()).then(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>,
  );
});
