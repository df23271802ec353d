import { lazy } from 'react';

// What only a search shows (the live list, the results table with its virtualiser) loads
// in chunks of its own, fetched when a search starts, so the dashboard's first screen
// downloads and parses less (Lighthouse's performance budget).
const loadLiveProgress = () => import('./live-progress');
const loadResultsPanel = () => import('./results-panel');

export const LiveProgress = lazy(() => loadLiveProgress().then((m) => ({ default: m.LiveProgress })));
export const ResultsPanel = lazy(() => loadResultsPanel().then((m) => ({ default: m.ResultsPanel })));
// Asked only on "Run again": its own chunk.
export const RunAgainDialog = lazy(() => import('./run-again-dialog').then((m) => ({ default: m.RunAgainDialog })));

/** Starts fetching the chunks a running search shows, as it starts. */
export function preloadSearchChunks(): void {
  Promise.all([loadLiveProgress(), loadResultsPanel()]).catch(() => undefined);
}
// "Draw on a map" (issue #30 item 5): MapLibre, terra-draw and MapLibre's CSS, about 300
// kB gzipped, fetched only when a user picks drawing.
export const AreaMap = lazy(() => import('./area-map'));
// The form part of drawing (the typed numbers, the area in words): its own small chunk.
export const DrawnArea = lazy(() => import('./drawn-area'));
