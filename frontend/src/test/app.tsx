import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { act, render } from '@testing-library/react';
import { AuthContext } from '../lib/session/auth-context';
import type { AuthContextValue } from '../lib/session/session-types';
import { createAppRouter } from '../router';
import { testQueryClient } from './render';

/**
 * Renders the whole app (its real router, route tree, guards and loaders) at `path` with
 * the session `auth`, as main.tsx does. `settle` swaps the session and re-runs guards and
 * loaders, as main.tsx does when the session changes.
 */
export async function renderApp(path: string, auth: AuthContextValue) {
  const queryClient = testQueryClient();
  const router = createAppRouter(queryClient, createMemoryHistory({ initialEntries: [path] }));
  const app = (session: AuthContextValue) => (
    <QueryClientProvider client={queryClient}>
      <AuthContext.Provider value={session}>
        <RouterProvider router={router} context={{ auth: session, queryClient }} />
      </AuthContext.Provider>
    </QueryClientProvider>
  );
  const view = render(app(auth));
  await act(() => router.load());
  async function settle(next: AuthContextValue) {
    view.rerender(app(next));
    await act(() => router.invalidate());
  }
  return { router, queryClient, settle };
}
