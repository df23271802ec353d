import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import './index.css';
import { ApiError } from './lib/api-fetch';
import { takeTokenFromUrl } from './lib/auth-token';
import { useAuth } from './lib/session/auth-context';
import { AuthProvider } from './lib/session/auth-provider';
import { createAppRouter } from './router';

// Read the sign-in token (if any) and clean the address bar before the router
// reads the location, so the token never ends up in router state or history.
const urlToken = takeTokenFromUrl();

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // Client errors (401, 404, ...) will not change on retry; one retry otherwise.
      retry: (failureCount, error) =>
        !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failureCount < 1,
    },
  },
});

const router = createAppRouter(queryClient);

function App() {
  const auth = useAuth();
  // Re-run guards and loaders whenever the session settles or changes.
  useEffect(() => {
    void router.invalidate();
  }, [auth.isLoading, auth.isAuthenticated, auth.user]);
  return <RouterProvider router={router} context={{ auth, queryClient }} />;
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <AuthProvider urlToken={urlToken}>
        <App />
      </AuthProvider>
    </QueryClientProvider>
  </StrictMode>,
);
