import { createRootRouteWithContext, Navigate, Outlet } from '@tanstack/react-router';
import type { RouterContext } from '../router';

export const Route = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  // Any unknown path goes home (spec section 2).
  notFoundComponent: () => <Navigate to="/" replace />,
});
