import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  lazyRouteComponent,
  Outlet,
  redirect,
} from '@tanstack/react-router';
import type { QueryClient } from '@tanstack/react-query';
import { ErrorScreen, NotFoundScreen, PendingScreen } from './components/states';
import { PortalLayout } from './components/layout';
import { loadPerson, personOptions } from './session';
import { queryClient, trpc } from './trpc';

/*
 * The portal's routes, declared in code (the back-office's are generated from files). Each screen
 * is its own chunk, loaded when it is opened; only the layout comes with the entry.
 *
 * The router is not registered with TanStack Router's types: the back-office's is, and one
 * program has one registry. Links and redirects here therefore name paths by `href`
 * (components/nav-link.tsx), and the two screens that read the address's query (the sign-in
 * method, the invitation token) read it from the address itself.
 */

const rootRoute = createRootRouteWithContext<{ queryClient: QueryClient }>()({
  component: Outlet,
  notFoundComponent: NotFoundScreen,
});

const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/portal/sign-in',
  component: lazyRouteComponent(() => import('./screens/sign-in'), 'SignInScreen'),
});

const invitationRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/portal/invitation',
  component: lazyRouteComponent(() => import('./screens/invitation'), 'InvitationScreen'),
});

/**
 * Home's first screen: the person and Home's figures (one batched request) and Home's chunk.
 * Asked for again while on their way, each is the same request (the query cache and the module
 * loader keep one of each).
 */
export function prefetchHome() {
  void queryClient.prefetchQuery(personOptions());
  void queryClient.prefetchQuery(trpc.portal.home.queryOptions());
  void import('./screens/home');
}

/** The sign-in screen's chunk, asked for at start beside the catalogue rather than after it. */
export function prefetchSignIn() {
  void import('./screens/sign-in');
}

/** Every screen below needs a session: without one, the sign-in screen. */
const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/portal',
  beforeLoad: async ({ location }) => {
    // Opening Home, its figures and its screen are fetched beside the person, not after: the
    // first screen's largest text is the figures, and this takes one round trip off it.
    if (/^\/portal\/?$/.test(location.pathname)) prefetchHome();
    const me = await loadPerson();
    // TanStack Router's redirect is thrown as a plain object by design.
    // eslint-disable-next-line @typescript-eslint/only-throw-error
    if (!me) throw redirect({ href: '/portal/sign-in' });
    return { me };
  },
  component: PortalLayout,
  errorComponent: ErrorScreen,
  notFoundComponent: NotFoundScreen,
});

const homeRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/',
  component: lazyRouteComponent(() => import('./screens/home'), 'HomeScreen'),
});
const coursesRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'courses',
  component: lazyRouteComponent(() => import('./screens/courses'), 'CoursesScreen'),
});
const treatmentsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'treatments',
  component: lazyRouteComponent(() => import('./screens/treatments'), 'TreatmentsScreen'),
});
const paymentsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'payments',
  component: lazyRouteComponent(() => import('./screens/payments'), 'PaymentsScreen'),
});
const howToPayRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'how-to-pay',
  component: lazyRouteComponent(() => import('./screens/how-to-pay'), 'HowToPayScreen'),
});
const profileRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'profile',
  component: lazyRouteComponent(() => import('./screens/profile'), 'ProfileScreen'),
});

const routeTree = rootRoute.addChildren([
  signInRoute,
  invitationRoute,
  appRoute.addChildren([homeRoute, coursesRoute, treatmentsRoute, paymentsRoute, howToPayRoute, profileRoute]),
]);

export const router = createRouter({
  routeTree,
  context: { queryClient },
  defaultPendingComponent: PendingScreen,
  defaultPendingMs: 300,
  defaultErrorComponent: ErrorScreen,
  scrollRestoration: true,
});
