import { createRootRouteWithContext, Navigate, Outlet, useRouterState } from '@tanstack/react-router';
import { usePageMeta } from '../lib/page-meta';
import type { RouterContext } from '../router';

export const Route = createRootRouteWithContext<RouterContext>()({
  component: Root,
  // Any unknown path goes home (spec section 2).
  notFoundComponent: () => <Navigate to="/" replace />,
});

function Root() {
  // Title, description, canonical link and robots directive of the page shown.
  usePageMeta(useRouterState({ select: (s) => s.location.pathname }));
  return <Outlet />;
}
