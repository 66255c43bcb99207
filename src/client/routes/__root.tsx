import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import { AppErrorPage } from '@/components/app-error-page';
import { Toaster } from '@/components/ui/sonner';
import type { RouterContext } from '../router';

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootComponent,
  notFoundComponent: () => <AppErrorPage />,
  errorComponent: ({ error }) => <AppErrorPage error={error} />,
});

function RootComponent() {
  return (
    <>
      <Outlet />
      <Toaster />
    </>
  );
}
