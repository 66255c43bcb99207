import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { initI18n, initialLanguage } from './i18n';
import { prefetchHome, prefetchSignIn, router } from './router';
import { queryClient, setSessionLostHandler } from './trpc';
import './styles.css';

// A session that ends while the portal is open (expiry, sign-out elsewhere, password change):
// back to the sign-in screen.
setSessionLostHandler(() => {
  if (router.state.location.pathname.startsWith('/portal/sign-in')) return;
  void router.navigate({ href: '/portal/sign-in' }).then(() => queryClient.clear());
});

// Opening Home: the person, Home's figures and Home's screen are asked for now, beside the
// catalogue, instead of once the catalogue has loaded and the router has started. The two
// queries leave in one batched request; the route's guard (router.tsx) then finds them on their
// way. This takes a round trip off Home's first paint (docs/performance.md#the-portal-on-a-phone).
// The sign-in screen's chunk likewise: it would otherwise be asked for only once the router has
// rendered, a third request in a row before the form paints.
if (/^\/portal\/?$/.test(window.location.pathname)) prefetchHome();
else if (/^\/portal\/sign-in\/?$/.test(window.location.pathname)) prefetchSignIn();

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
