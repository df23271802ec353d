import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  type AnyRoute,
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  RouterProvider,
} from '@tanstack/react-router';
import { act, render } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';

/** A fresh query client that never retries, so failures show at once. */
export function testQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false, gcTime: 0 }, mutations: { retry: false } } });
}

/**
 * Renders a component inside a QueryClientProvider and a memory router (so
 * <Link> works), at `path` (default /). `wrap` adds outer providers such as the
 * auth context.
 */
export async function renderWithProviders(
  ui: ReactElement,
  {
    queryClient = testQueryClient(),
    wrap,
    path = '/',
  }: { queryClient?: QueryClient; wrap?: (node: ReactNode) => ReactNode; path?: string } = {},
) {
  const rootRoute = createRootRoute({ component: Outlet });
  const indexRoute = createRoute({
    getParentRoute: () => rootRoute,
    path: '/',
    component: () => (path === '/' ? ui : <p>home</p>),
  });
  const routes: AnyRoute[] = [indexRoute];
  if (path !== '/') routes.push(createRoute({ getParentRoute: () => rootRoute, path, component: () => ui }));
  const catchAll = createRoute({ getParentRoute: () => rootRoute, path: '$', component: () => <p>elsewhere</p> });
  const router = createRouter({
    routeTree: rootRoute.addChildren([...routes, catchAll]),
    history: createMemoryHistory({ initialEntries: [path] }),
  });
  const tree = (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
  const result = render(<>{wrap ? wrap(tree) : tree}</>);
  await act(() => router.load());
  return { ...result, router, queryClient };
}

/** A JSON Response. */
export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

export { fakeAuth } from './fake-auth';
