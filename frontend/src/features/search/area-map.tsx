import 'maplibre-gl/dist/maplibre-gl.css';
import { type GeoJSONSource, type LngLatBoundsLike, Map as MapLibreMap, NavigationControl, setWorkerUrl, type StyleSpecification } from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import { useEffect, useRef, useState } from 'react';
import {
  type GeoJSONStoreFeatures,
  TerraDraw,
  TerraDrawCircleMode,
  TerraDrawPolygonMode,
  TerraDrawRectangleMode,
  TerraDrawSelectMode,
  ValidateNotSelfIntersecting,
} from 'terra-draw';
import { TerraDrawMapLibreGLAdapter } from 'terra-draw-maplibre-gl-adapter';
import { Button } from '../../components/ui/button';
import { cn } from '../../components/ui/cn';
import { areaFromDrawn, drawnFromArea, type AreaRequest, type AreaShape, type Position } from './search-area';

// The map of "Draw on a map" (issue #30 item 5): MapLibre GL draws the operator's tile
// style, terra-draw the one area. Its own chunk (with MapLibre's CSS), loaded only when a
// user picks drawing: the first visit never downloads it.

// MapLibre finds its worker beside its own module by default, which a bundle moves: point
// it at the worker file Vite emits on our origin (the CSP's `worker-src 'self'`).
setWorkerUrl(workerUrl);

/**
 * A plain background: the map without tiles (style `none`, or the style could not be
 * fetched: offline, a test). Shapes draw and edit on it all the same.
 */
const BLANK_STYLE: StyleSpecification = {
  version: 8,
  sources: {},
  layers: [{ id: 'background', type: 'background', paint: { 'background-color': '#e2e8f0' } }],
};

/** The contiguous United States, before any area is drawn. */
const START_BOUNDS: LngLatBoundsLike = [
  [-125, 24],
  [-66, 50],
];
/** How long the style may take before the map starts without it. */
const STYLE_TIMEOUT_MS = 5000;

/** The style to start with: the operator's, or the blank one when there is none or it fails. */
async function loadStyle(url: string | null, signal: AbortSignal): Promise<{ style: StyleSpecification | string; tiles: boolean }> {
  if (!url) return { style: BLANK_STYLE, tiles: false };
  try {
    const response = await fetch(url, { signal: AbortSignal.any([signal, AbortSignal.timeout(STYLE_TIMEOUT_MS)]) });
    if (!response.ok) return { style: BLANK_STYLE, tiles: false };
    return { style: (await response.json()) as StyleSpecification, tiles: true };
  } catch {
    return { style: BLANK_STYLE, tiles: false };
  }
}

const TOOLS: { mode: AreaShape | 'select'; label: string }[] = [
  { mode: 'rectangle', label: 'Rectangle' },
  { mode: 'circle', label: 'Circle' },
  { mode: 'polygon', label: 'Polygon' },
  { mode: 'select', label: 'Edit' },
];

const SHAPES: readonly string[] = ['rectangle', 'circle', 'polygon'];

const NO_POINTS: readonly MapPoint[] = [];

/** The drawn shape of a terra-draw feature, or null for anything else (guidance points). */
function shapeOf(feature: GeoJSONStoreFeatures | undefined): { shape: AreaShape; ring: Position[] } | null {
  if (!feature || feature.geometry.type !== 'Polygon') return null;
  const mode = String(feature.properties.mode);
  if (!SHAPES.includes(mode)) return null;
  return { shape: mode as AreaShape, ring: feature.geometry.coordinates[0] as Position[] };
}

/** The smallest bounds holding a ring, to show it. */
function boundsOf(ring: Position[]): LngLatBoundsLike {
  const lngs = ring.map((p) => p[0]);
  const lats = ring.map((p) => p[1]);
  return [
    [Math.min(...lngs), Math.min(...lats)],
    [Math.max(...lngs), Math.max(...lats)],
  ];
}

/** A rectangle to show, south-west `low` and north-east `high` (the located location). */
export interface MapFocus {
  low: { latitude: number; longitude: number };
  high: { latitude: number; longitude: number };
}

/** A lead to mark on the map. */
export interface MapPoint {
  latitude: number;
  longitude: number;
  name: string;
}

/** The source and layer of the leads' markers. */
const LEADS_SOURCE = 'leads';

/** The leads as GeoJSON points, for the markers' source. */
function leadFeatures(points: readonly MapPoint[]): GeoJSON.FeatureCollection<GeoJSON.Point> {
  return {
    type: 'FeatureCollection',
    features: points.map((p) => ({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [p.longitude, p.latitude] },
      properties: { name: p.name },
    })),
  };
}

export interface AreaMapProps {
  /** The operator's MapLibre style (`GET /api/site`'s `mapStyleUrl`); null: no tiles. */
  styleUrl: string | null;
  /** The area the form holds (typed, or a search run again): drawn when it changes. */
  area: AreaRequest | null;
  /** A place to show (the location typed in the form), when it changes. */
  focus?: MapFocus | null;
  /** The leads found, marked as dots (one GeoJSON layer: no marker elements). */
  points?: readonly MapPoint[];
  /** A shape was drawn, edited or cleared on the map. */
  onDraw: (area: AreaRequest | null) => void;
  disabled?: boolean;
}

/** The map with its drawing tools: one area at a time, editable, clearable. */
export default function AreaMap({ styleUrl, area, focus = null, points = NO_POINTS, onDraw, disabled = false }: AreaMapProps) {
  const container = useRef<HTMLDivElement>(null);
  const drawRef = useRef<TerraDraw | null>(null);
  const mapRef = useRef<MapLibreMap | null>(null);
  // The area the map itself last reported: the form hands it back, and it is drawn already.
  const reported = useRef<string | null>(null);
  const onDrawRef = useRef(onDraw);
  const [ready, setReady] = useState(false);
  const [tiles, setTiles] = useState<boolean | null>(null);
  const [mode, setMode] = useState<AreaShape | 'select'>('rectangle');

  useEffect(() => {
    onDrawRef.current = onDraw;
  }, [onDraw]);

  useEffect(() => {
    const abort = new AbortController();
    let map: MapLibreMap | null = null;
    let draw: TerraDraw | null = null;
    void loadStyle(styleUrl, abort.signal).then(({ style, tiles: loaded }) => {
      if (abort.signal.aborted || !container.current) return;
      setTiles(loaded);
      map = new MapLibreMap({ container: container.current, style, bounds: START_BOUNDS, attributionControl: { compact: true } });
      mapRef.current = map;
      map.addControl(new NavigationControl({ showCompass: false }), 'top-right');
      // A tile that fails (offline) leaves a gap; the drawing goes on. Handled here so
      // MapLibre does not log each one as an error.
      map.on('error', () => setTiles(false));
      map.on('load', () => {
        if (!map) return;
        // The leads' dots, under the drawn area (added before terra-draw's layers).
        map.addSource(LEADS_SOURCE, { type: 'geojson', data: leadFeatures([]) });
        map.addLayer({
          id: LEADS_SOURCE,
          type: 'circle',
          source: LEADS_SOURCE,
          paint: { 'circle-radius': 4, 'circle-color': '#4f46e5', 'circle-stroke-color': '#ffffff', 'circle-stroke-width': 1 },
        });
        draw = new TerraDraw({
          adapter: new TerraDrawMapLibreGLAdapter({ map }),
          modes: [
            new TerraDrawRectangleMode(),
            new TerraDrawCircleMode(),
            new TerraDrawPolygonMode({ validation: (feature) => ValidateNotSelfIntersecting(feature) }),
            new TerraDrawSelectMode({
              flags: {
                rectangle: { feature: { draggable: true, coordinates: { resizable: 'opposite' } } },
                circle: { feature: { draggable: true, coordinates: { resizable: 'center-fixed' } } },
                polygon: { feature: { draggable: true, coordinates: { draggable: true, midpoints: true, deletable: true } } },
              },
            }),
          ],
        });
        draw.start();
        draw.setMode('rectangle');
        draw.on('finish', (id) => {
          const current = draw;
          if (!current) return;
          // One area at a time: a new shape replaces the one before.
          const others = current.getSnapshot().filter((f) => f.id !== id && shapeOf(f));
          if (others.length > 0) current.removeFeatures(others.map((f) => f.id as string));
          const drawn = shapeOf(current.getSnapshot().find((f) => f.id === id));
          if (!drawn) return;
          const next = areaFromDrawn(drawn);
          reported.current = JSON.stringify(next);
          onDrawRef.current(next);
        });
        drawRef.current = draw;
        setReady(true);
      });
    });
    return () => {
      abort.abort();
      draw?.stop();
      map?.remove();
      drawRef.current = null;
      mapRef.current = null;
      setReady(false);
    };
  }, [styleUrl]);

  // An area from outside the map (typed numbers, "Run again"): draw it and show it.
  useEffect(() => {
    const draw = drawRef.current;
    if (!ready || !draw) return;
    const key = area ? JSON.stringify(area) : null;
    if (key === reported.current) return;
    reported.current = key;
    draw.clear();
    const drawn = drawnFromArea(area);
    if (!drawn) return;
    draw.addFeatures([
      {
        id: crypto.randomUUID(),
        type: 'Feature',
        geometry: { type: 'Polygon', coordinates: [drawn.ring] },
        properties: { mode: drawn.shape },
      },
    ]);
    mapRef.current?.fitBounds(boundsOf(drawn.ring), { padding: 40, duration: 0 });
  }, [area, ready]);

  // The typed location, once located: shown, whatever was on the map.
  useEffect(() => {
    if (!ready || !focus) return;
    mapRef.current?.fitBounds(
      [
        [focus.low.longitude, focus.low.latitude],
        [focus.high.longitude, focus.high.latitude],
      ],
      { padding: 20, duration: 0 },
    );
  }, [focus, ready]);

  useEffect(() => {
    if (!ready) return;
    mapRef.current?.getSource<GeoJSONSource>(LEADS_SOURCE)?.setData(leadFeatures(points));
  }, [points, ready]);

  useEffect(() => {
    if (ready) drawRef.current?.setMode(mode);
  }, [mode, ready]);

  function clear() {
    drawRef.current?.clear();
    reported.current = null;
    onDrawRef.current(null);
  }

  return (
    <div className="grid gap-2">
      <div role="toolbar" aria-label="Drawing tools" className="flex flex-wrap items-center gap-2">
        {TOOLS.map((tool) => (
          <Button
            key={tool.mode}
            size="sm"
            variant={mode === tool.mode ? 'primary' : 'secondary'}
            aria-pressed={mode === tool.mode}
            disabled={disabled || !ready}
            onClick={() => setMode(tool.mode)}
          >
            {tool.label}
          </Button>
        ))}
        <Button size="sm" variant="secondary" disabled={disabled || !ready || area === null} onClick={clear}>
          Clear area
        </Button>
      </div>
      {/* MapLibre adds its own classes to the container (`maplibregl-map`, which holds the
          canvas in place): its class attribute never changes after mount, so React never
          rewrites them away; the disabled look is on the wrapper. */}
      <div className={cn('rounded-lg ring-1 ring-slate-300', disabled && 'pointer-events-none opacity-60')}>
        <div ref={container} data-testid="area-map" aria-busy={!ready || undefined} className="h-80 w-full overflow-hidden rounded-lg bg-slate-200" />
      </div>
      <p className="text-xs text-slate-600">
        {mode === 'polygon'
          ? 'Click each corner, then click the first one (or press Enter) to close the polygon.'
          : mode === 'select'
            ? 'Click the area to select it, then drag it or its corners.'
            : `Click one ${mode === 'circle' ? 'centre' : 'corner'}, move, then click again to finish.`}
        {tiles === false && ' The map tiles are unavailable: the area still draws on a plain background.'}
      </p>
    </div>
  );
}
