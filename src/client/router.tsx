import type { QueryClient } from '@tanstack/react-query';
import { createRouter } from '@tanstack/react-router';
import { AppErrorPage } from '@/components/app-error-page';
import { Spinner } from '@/components/ui/spinner';
import { queryClient, trpc, type Trpc } from '@/lib/trpc';
import { routeTree } from './routeTree.gen';

/** What every route's beforeLoad and loader receive. */
export interface RouterContext {
  queryClient: QueryClient;
  trpc: Trpc;
}

export const router = createRouter({
  routeTree,
  context: { queryClient, trpc },
  defaultPreload: 'intent',
  // TanStack Query owns caching; the router always asks it.
  defaultPreloadStaleTime: 0,
  scrollRestoration: true,
  // Shown only when a route's loader takes longer than pendingMs (1 s by default).
  defaultPendingComponent: () => (
    <div className="flex flex-1 items-center justify-center p-10 text-muted-foreground">
      <Spinner className="size-6" />
    </div>
  ),
  defaultNotFoundComponent: () => <AppErrorPage />,
  defaultErrorComponent: ({ error }) => <AppErrorPage error={error} />,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
