import './lib/zod-config';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { clearStoredUser } from '@/lib/auth';
import { PUBLIC_PATHS } from '@/lib/public-paths';
import { applyForcedLightTheme } from '@/lib/theme';
import { queryClient, setSessionLostHandler, trpc } from '@/lib/trpc';
import { router } from './router';
import './styles.css';

applyForcedLightTheme();

// A session that ends while the app is open (expiry, sign-out elsewhere, role change): back to
// /login, keeping where the user was. Only once a user was loaded; the guard handles first loads.
setSessionLostHandler(() => {
  const meKey = trpc.auth.me.queryKey();
  if (queryClient.getQueryData(meKey) === undefined) return;
  clearStoredUser();
  const { pathname, href } = router.state.location;
  // Leave the protected screens before dropping the user they render from.
  const leave = PUBLIC_PATHS.includes(pathname)
    ? Promise.resolve()
    : router.navigate({ to: '/login', search: { redirect: href } });
  void leave.then(() => queryClient.removeQueries({ queryKey: meKey }));
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
