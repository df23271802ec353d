import type { QueryClient } from '@tanstack/react-query';
import { createRouter, type RouterHistory } from '@tanstack/react-router';
import { RouteError } from './components/route-error';
import { PageLoading } from './components/ui/spinner';
import type { AuthContextValue } from './lib/session/session-types';
import { routeTree } from './routeTree.gen';

/** What every route's `beforeLoad` and loader receive. */
export interface RouterContext {
  auth: AuthContextValue;
  queryClient: QueryClient;
}

/** The app's router; `history` is the browser's unless a test passes a memory history. */
export function createAppRouter(queryClient: QueryClient, history?: RouterHistory) {
  return createRouter({
    routeTree,
    history,
    // `auth` is supplied by <RouterProvider context> once the session exists.
    context: { auth: undefined as unknown as AuthContextValue, queryClient },
    defaultPreload: 'intent',
    // Loaders only prefetch into TanStack Query, which owns freshness.
    defaultPreloadStaleTime: 0,
    scrollRestoration: true,
    defaultErrorComponent: RouteError,
    defaultPendingComponent: () => <PageLoading message="Loading..." />,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
