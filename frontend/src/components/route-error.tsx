import type { ErrorComponentProps } from '@tanstack/react-router';
import { Link } from '@tanstack/react-router';
import { Button, buttonClasses } from './ui/button';

/** True when a code-split chunk could not be fetched (e.g. after a deploy). */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module|Loading chunk/i.test(
    message,
  );
}

/** Shown when a route fails to load or render. */
export function RouteError({ error, reset }: ErrorComponentProps) {
  const chunk = isChunkLoadError(error);
  return (
    <div className="mx-auto flex min-h-[60vh] max-w-lg flex-col items-center justify-center gap-4 px-4 text-center" role="alert">
      <h1 className="text-2xl font-bold text-slate-900">{chunk ? 'Loading chunk failed' : 'Something went wrong'}</h1>
      <p className="text-slate-600">
        {chunk
          ? 'Part of the app could not be downloaded. A new version may have been released: reloading usually fixes it.'
          : error instanceof Error
            ? error.message
            : 'An unexpected error occurred.'}
      </p>
      <div className="flex flex-wrap justify-center gap-3">
        {chunk ? (
          <Button onClick={() => window.location.reload()}>Reload page</Button>
        ) : (
          <Button onClick={reset}>Try again</Button>
        )}
        <Link to="/" className={buttonClasses('secondary')}>
          Return to Home
        </Link>
      </div>
    </div>
  );
}
