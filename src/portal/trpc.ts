import { QueryCache, QueryClient } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink, httpLink, splitLink, TRPCClientError } from '@trpc/client';
import { createTRPCOptionsProxy } from '@trpc/tanstack-react-query';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../server/trpc/root';

/**
 * The portal's own tRPC client and query cache. It does not import the back-office's (its
 * session handling belongs to the back-office's router), only the router's type.
 */

/** Set by main.tsx: what to do when the session is gone (back to the sign-in screen). */
let onSessionLost: () => void = () => {};
export function setSessionLostHandler(fn: () => void) {
  onSessionLost = fn;
}

interface ErrorData {
  code?: string;
  httpStatus?: number;
}
const dataOf = (err: unknown): ErrorData | undefined =>
  err instanceof TRPCClientError ? (err.data as ErrorData | undefined) : undefined;

/** The tRPC error code ('UNAUTHORIZED', 'CONFLICT', …), or undefined for a transport failure. */
export function errorCode(err: unknown): string | undefined {
  return dataOf(err)?.code;
}

export function isClientError(err: unknown): boolean {
  const status = dataOf(err)?.httpStatus;
  return status !== undefined && status >= 400 && status < 500;
}

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      // A refusal will not change on retry; network and server failures get one more try.
      retry: (count, err) => !isClientError(err) && count < 1,
    },
    mutations: { retry: false },
  },
  queryCache: new QueryCache({
    onError: (err) => {
      if (errorCode(err) === 'UNAUTHORIZED') onSessionLost();
    },
  }),
});

const sameOriginFetch = (url: URL | RequestInfo, init?: RequestInit) => fetch(url, { ...init, credentials: 'include' });

export const trpcClient = createTRPCClient<AppRouter>({
  links: [
    // The server refuses sign-in calls inside a batch (one request, one guess); every mutation
    // travels alone, which also keeps a save from waiting on a slow read.
    splitLink({
      condition: (op) => op.type === 'mutation',
      true: httpLink({ url: '/trpc', fetch: sameOriginFetch }),
      false: httpBatchLink({ url: '/trpc', fetch: sameOriginFetch }),
    }),
  ],
});

export const trpc = createTRPCOptionsProxy<AppRouter>({ client: trpcClient, queryClient });

export type RouterOutputs = inferRouterOutputs<AppRouter>;
