import { useDeferredValue, type ReactNode } from 'react';

/**
 * Renders `children` one render after the rest of the page: the first commit paints what
 * the page is for (the header and the search form), and what sits below it (cards, the
 * history, notices) is rendered next at transition priority, which React splits into
 * short tasks, so the first paint does not wait for it and no long task blocks input.
 * Below-the-fold content appended a moment later shifts nothing above it.
 */
export function AfterFirstPaint({ children }: { children: ReactNode }) {
  const ready = useDeferredValue(true, false);
  return ready ? children : null;
}
