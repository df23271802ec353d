import { lazy, Suspense } from 'react';
import { useWhenIdle } from '../../hooks/use-when-idle';
import type { SearchHistoryPanelProps } from './search-history-panel';

// The history sits below the first screen: a chunk of its own.
const SearchHistoryPanel = lazy(() => import('./search-history-panel').then((m) => ({ default: m.SearchHistoryPanel })));

/**
 * The search history at the bottom of the dashboard. It loads once the page has painted,
 * so it shifts nothing already shown (Lighthouse's performance budget).
 */
export function SearchHistorySection(props: SearchHistoryPanelProps) {
  const show = useWhenIdle();
  if (!show) return null;
  return (
    <Suspense fallback={null}>
      <SearchHistoryPanel {...props} />
    </Suspense>
  );
}
