import { useEffect, useState } from 'react';

/**
 * False until the browser is first idle after mount (or `fallbackMs`), so work below
 * the first screen (the search history, background-search polling) waits until the
 * page has painted (Lighthouse's performance budget).
 */
export function useWhenIdle(fallbackMs = 1500): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if (typeof window.requestIdleCallback === 'function') {
      const handle = window.requestIdleCallback(() => setIdle(true), { timeout: fallbackMs });
      return () => window.cancelIdleCallback(handle);
    }
    const timer = window.setTimeout(() => setIdle(true), fallbackMs);
    return () => window.clearTimeout(timer);
  }, [fallbackMs]);
  return idle;
}
