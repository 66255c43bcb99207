import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink, httpLink, splitLink, type TRPCClientErrorLike } from '@trpc/client';
import { createTRPCOptionsProxy } from '@trpc/tanstack-react-query';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../server/trpc/root';
import { errorCode, isClientError } from './errors';

/** Set by main.tsx: what to do when the session is gone (sign out locally, go to /login). */
let onSessionLost: () => void = () => {};
export function setSessionLostHandler(fn: () => void) {
  onSessionLost = fn;
}

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // docs/product.md#rest-paths/9: list and statistics data are kept 5 seconds.
      staleTime: 5_000,
      // A 4xx will not change on retry; network and 5xx failures get two more tries.
      retry: (failureCount, err) => !isClientError(err) && failureCount < 2,
    },
    mutations: { retry: false },
  },
  queryCache: new QueryCache({
    onError: (err) => {
      if (errorCode(err) === 'UNAUTHORIZED') onSessionLost();
    },
  }),
  mutationCache: new MutationCache({
    onError: (err, _vars, _ctx, mutation) => {
      // A failed sign-in is UNAUTHORIZED too; that is the login screen's business.
      const key = mutation.options.mutationKey?.[0];
      const isLogin = Array.isArray(key) && key.join('.') === 'auth.login';
      if (!isLogin && errorCode(err) === 'UNAUTHORIZED') onSessionLost();
    },
  }),
});

const UNBATCHED = new Set(['auth.login', 'users.forgotPassword', 'users.validateOtp', 'users.resetPassword']);
// Same-origin fetch sends the HttpOnly session cookie and the Origin header the server checks.
const sameOriginFetch = (url: URL | RequestInfo, init?: RequestInit) => fetch(url, { ...init, credentials: 'include' });

export const trpcClient = createTRPCClient<AppRouter>({
  links: [
    // The server refuses sign-in and password-reset calls inside a batch (one request, one
    // guess), so those always travel alone.
    splitLink({
      condition: (op) => UNBATCHED.has(op.path),
      true: httpLink({ url: '/trpc', fetch: sameOriginFetch }),
      false: httpBatchLink({ url: '/trpc', fetch: sameOriginFetch }),
    }),
  ],
});

/**
 * The typed options proxy: `trpc.branches.list.queryOptions(input)`, `trpc.x.y.mutationOptions()`,
 * `trpc.branches.pathFilter()` for invalidation. Usable in components, loaders and beforeLoad.
 */
export const trpc = createTRPCOptionsProxy<AppRouter>({ client: trpcClient, queryClient });

export type Trpc = typeof trpc;

/** What each procedure takes and answers, declared once for every feature: `RouterOutputs['users']['get']`. */
export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;

/** How a procedure call fails, the same for every procedure (the `error` of a query). */
export type TrpcError = TRPCClientErrorLike<AppRouter>;
