import type { GeoPoint } from '../../api/gen/model/geoPoint';
import type { SearchArea } from '../../api/gen/model/searchArea';

// A search's explicit area (issue #30 item 5): what the map draws and the numbers a user
// types, turned into the request's `area`, checked against the contract's limits before
// anything is sent, and back into a shape to draw ("Run again", typed numbers). Pure: the
// map itself is a lazy chunk (area-map.tsx), and these rules are tested without it.

/** Widest a rectangle or a polygon may be, in degrees of latitude and of longitude (the contract's). */
export const MAX_AREA_DEGREES = 5;
/** Largest circle radius the contract takes, in metres. */
export const MAX_RADIUS_METERS = 50_000;
/** Most distinct points a polygon may have (the contract's). */
export const MAX_POLYGON_POINTS = 500;

/** A `[longitude, latitude]` pair, as GeoJSON (and so the map) writes a position. */
export type Position = [number, number];

/** The shapes the map draws. */
export type AreaShape = 'rectangle' | 'circle' | 'polygon';

/** A shape as the map hands it over: its kind and its GeoJSON ring (closed: last = first). */
export interface DrawnShape {
  shape: AreaShape;
  ring: Position[];
}

/** A request's area: a rectangle, a circle or a polygon (the contract's `SearchArea`). */
export type AreaRequest = SearchArea;

/** Metres in a degree of latitude near enough for a search area, and Earth's mean radius. */
const EARTH_RADIUS_METERS = 6_371_008.8;
/** Decimal places kept of a coordinate: a tenth of a metre, past what a drawn edge means. */
const PLACES = 6;

const round = (value: number, places = PLACES) => {
  const factor = 10 ** places;
  return Math.round(value * factor) / factor;
};
const point = ([longitude, latitude]: Position): GeoPoint => ({ latitude: round(latitude), longitude: round(longitude) });
const radians = (degrees: number) => (degrees * Math.PI) / 180;
const degrees = (radians_: number) => (radians_ * 180) / Math.PI;

/** The ring's distinct points: the closing point and repeated neighbours dropped. */
function openRing(ring: Position[]): Position[] {
  const points: Position[] = [];
  for (const p of ring) {
    const last = points[points.length - 1];
    if (!last || last[0] !== p[0] || last[1] !== p[1]) points.push(p);
  }
  while (points.length > 1 && points[0][0] === points[points.length - 1][0] && points[0][1] === points[points.length - 1][1]) points.pop();
  return points;
}

/** Great-circle distance in metres (haversine). */
export function distanceMeters(a: GeoPoint, b: GeoPoint): number {
  const dLat = radians(b.latitude - a.latitude);
  const dLng = radians(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_METERS * Math.asin(Math.min(1, Math.sqrt(h)));
}

// Web Mercator, the map's projection: a circle drawn on it is a circle of this plane, so
// its centre is the mean of its points here (not in degrees, where it sits too far south).
const mercatorY = (latitude: number) => Math.log(Math.tan(Math.PI / 4 + radians(latitude) / 2));
const latitudeOfY = (y: number) => degrees(2 * Math.atan(Math.exp(y)) - Math.PI / 2);

/**
 * The request's area for a drawn shape:
 * - a rectangle: its south-west corner as `low`, its north-east as `high`, whichever
 *   corner the drag started from;
 * - a circle: its centre, and its radius in metres along the ground (the mean distance
 *   from the centre to the drawn outline, whole metres);
 * - a polygon: its points open (the closing point left out: the contract implies it).
 */
export function areaFromDrawn({ shape, ring }: DrawnShape): AreaRequest {
  const points = openRing(ring);
  if (shape === 'rectangle') {
    const lngs = points.map((p) => p[0]);
    const lats = points.map((p) => p[1]);
    return {
      low: point([Math.min(...lngs), Math.min(...lats)]),
      high: point([Math.max(...lngs), Math.max(...lats)]),
    };
  }
  if (shape === 'circle') {
    const x = points.reduce((sum, p) => sum + p[0], 0) / points.length;
    const y = points.reduce((sum, p) => sum + mercatorY(p[1]), 0) / points.length;
    const center = point([x, latitudeOfY(y)]);
    const radius = points.reduce((sum, p) => sum + distanceMeters(center, point(p)), 0) / points.length;
    return { center, radiusMeters: Math.round(radius) };
  }
  return { polygon: points.map(point) };
}

/** Which shape an area is, or null for one that is none of them. */
export function areaShape(area: AreaRequest | null | undefined): AreaShape | null {
  if (!area) return null;
  if (area.polygon) return 'polygon';
  if (area.low && area.high) return 'rectangle';
  if (area.center && area.radiusMeters != null) return 'circle';
  return null;
}

const validPoint = (p: GeoPoint) =>
  Number.isFinite(p.latitude) && Number.isFinite(p.longitude) && Math.abs(p.latitude) <= 90 && Math.abs(p.longitude) <= 180;

/**
 * What keeps the server from taking this area, in words, or null: the contract's limits
 * (5 degrees a side, 50 km of radius, 3 to 500 points), checked here so a user sees them
 * as they draw rather than after asking for an estimate.
 */
export function areaProblem(area: AreaRequest): string | null {
  switch (areaShape(area)) {
    case 'rectangle': {
      const { low, high } = area as Required<Pick<SearchArea, 'low' | 'high'>> & { low: GeoPoint; high: GeoPoint };
      if (!validPoint(low) || !validPoint(high)) return 'Corners need a latitude from -90 to 90 and a longitude from -180 to 180.';
      if (low.latitude >= high.latitude || low.longitude >= high.longitude) return 'The south-west corner must be south and west of the north-east corner.';
      if (high.latitude - low.latitude > MAX_AREA_DEGREES || high.longitude - low.longitude > MAX_AREA_DEGREES) {
        return `The rectangle may be at most ${MAX_AREA_DEGREES} degrees on a side: draw a smaller one.`;
      }
      return null;
    }
    case 'circle': {
      const radius = area.radiusMeters as number;
      if (!validPoint(area.center as GeoPoint)) return 'The centre needs a latitude from -90 to 90 and a longitude from -180 to 180.';
      if (!(radius > 0)) return 'The radius must be more than 0.';
      if (radius > MAX_RADIUS_METERS) return `The circle's radius may be at most ${MAX_RADIUS_METERS / 1000} km: draw a smaller one.`;
      return null;
    }
    case 'polygon': {
      const ring = area.polygon as GeoPoint[];
      if (!ring.every(validPoint)) return 'Every point needs a latitude from -90 to 90 and a longitude from -180 to 180.';
      if (ring.length < 3) return 'A polygon needs at least 3 points.';
      if (ring.length > MAX_POLYGON_POINTS) return `A polygon may have at most ${MAX_POLYGON_POINTS} points.`;
      const lats = ring.map((p) => p.latitude);
      const lngs = ring.map((p) => p.longitude);
      if (Math.max(...lats) - Math.min(...lats) > MAX_AREA_DEGREES || Math.max(...lngs) - Math.min(...lngs) > MAX_AREA_DEGREES) {
        return `The polygon must fit within ${MAX_AREA_DEGREES} degrees of latitude and of longitude: draw a smaller one.`;
      }
      return null;
    }
    default:
      return 'Draw a rectangle, a circle or a polygon, or type a rectangle or a circle.';
  }
}

/** A point along the ground from `center`, `meters` away at `bearing` degrees (clockwise from north). */
function destination(center: GeoPoint, meters: number, bearing: number): Position {
  const d = meters / EARTH_RADIUS_METERS;
  const lat1 = radians(center.latitude);
  const lng1 = radians(center.longitude);
  const b = radians(bearing);
  const lat2 = Math.asin(Math.sin(lat1) * Math.cos(d) + Math.cos(lat1) * Math.sin(d) * Math.cos(b));
  const lng2 = lng1 + Math.atan2(Math.sin(b) * Math.sin(d) * Math.cos(lat1), Math.cos(d) - Math.sin(lat1) * Math.sin(lat2));
  return [round(degrees(lng2)), round(degrees(lat2))];
}

/** Points of a drawn circle's outline. */
const CIRCLE_STEPS = 64;

/**
 * The area as a shape to draw, its GeoJSON ring closed: a rectangle's four corners, a
 * circle's outline (64 points at its radius along the ground), a polygon's points. Null
 * for an area of no known shape.
 */
export function drawnFromArea(area: AreaRequest | null | undefined): DrawnShape | null {
  const shape = areaShape(area);
  if (!area || !shape) return null;
  let ring: Position[];
  if (shape === 'rectangle') {
    const { low, high } = area as { low: GeoPoint; high: GeoPoint };
    ring = [
      [low.longitude, low.latitude],
      [high.longitude, low.latitude],
      [high.longitude, high.latitude],
      [low.longitude, high.latitude],
    ];
  } else if (shape === 'circle') {
    const center = area.center as GeoPoint;
    ring = Array.from({ length: CIRCLE_STEPS }, (_, i) => destination(center, area.radiusMeters as number, (360 * i) / CIRCLE_STEPS));
  } else {
    ring = (area.polygon as GeoPoint[]).map((p) => [p.longitude, p.latitude]);
  }
  return { shape, ring: [...ring, ring[0]] };
}

const fixed = (value: number) => value.toFixed(4);
const place = (p: GeoPoint) => `${fixed(p.latitude)}, ${fixed(p.longitude)}`;

/** The radius in words: "850 m", "2.5 km". */
export function formatRadius(meters: number): string {
  return meters < 1000 ? `${Math.round(meters)} m` : `${Number((meters / 1000).toFixed(2))} km`;
}

/** Points of a polygon its description lists; the rest are counted. */
const LISTED_POINTS = 8;

/** The area in words, coordinates included, for the form and screen readers. */
export function describeArea(area: AreaRequest): string {
  switch (areaShape(area)) {
    case 'rectangle':
      return `Rectangle from ${place(area.low as GeoPoint)} (south-west) to ${place(area.high as GeoPoint)} (north-east)`;
    case 'circle':
      return `Circle of ${formatRadius(area.radiusMeters as number)} around ${place(area.center as GeoPoint)}`;
    case 'polygon': {
      const ring = area.polygon as GeoPoint[];
      const more = ring.length > LISTED_POINTS ? `; and ${ring.length - LISTED_POINTS} more` : '';
      return `Polygon of ${ring.length} points: ${ring.slice(0, LISTED_POINTS).map(place).join('; ')}${more}`;
    }
    default:
      return 'No area';
  }
}

/** What the search is "in" on screen when it has a drawn area and no location typed. */
export const DRAWN_AREA_LABEL = 'the drawn area';

/** Where a search looks, for "Searching for Dentist in ...": the location typed, else the drawn area. */
export function searchPlaceLabel(query: { location: string; area?: unknown }): string {
  return query.location.trim() || (query.area ? DRAWN_AREA_LABEL : '');
}

// ---- Typed numbers: the keyboard's way to set an area (a rectangle or a circle). ----

/** The typed area's fields, as typed. */
export interface TypedArea {
  shape: 'rectangle' | 'circle';
  south: string;
  west: string;
  north: string;
  east: string;
  centerLatitude: string;
  centerLongitude: string;
  /** Kilometres, as people think of a radius. */
  radiusKm: string;
}

export const EMPTY_TYPED_AREA: TypedArea = {
  shape: 'rectangle',
  south: '',
  west: '',
  north: '',
  east: '',
  centerLatitude: '',
  centerLongitude: '',
  radiusKm: '',
};

/** The fields showing an area; blank ones for a polygon or no area, keeping the shape chosen. */
export function typedFromArea(area: AreaRequest | null | undefined, current: TypedArea = EMPTY_TYPED_AREA): TypedArea {
  const text = (value: number) => String(round(value));
  switch (areaShape(area)) {
    case 'rectangle': {
      const { low, high } = area as { low: GeoPoint; high: GeoPoint };
      return { ...current, shape: 'rectangle', south: text(low.latitude), west: text(low.longitude), north: text(high.latitude), east: text(high.longitude) };
    }
    case 'circle': {
      const center = area?.center as GeoPoint;
      return {
        ...current,
        shape: 'circle',
        centerLatitude: text(center.latitude),
        centerLongitude: text(center.longitude),
        radiusKm: String(round((area?.radiusMeters as number) / 1000, 3)),
      };
    }
    default:
      // A polygon has no typed form: the fields empty, so none of them says otherwise.
      return { ...EMPTY_TYPED_AREA, shape: current.shape };
  }
}

/** A typed number, or null when the field is blank or not a number. */
function typedNumber(value: string): number | null {
  const trimmed = value.trim();
  if (trimmed === '') return null;
  const n = Number(trimmed);
  return Number.isFinite(n) ? n : null;
}

/** The typed fields as an area, or, while they cannot be one, why not (null while blank). */
export function areaFromTyped(typed: TypedArea): { area: AreaRequest | null; problem: string | null } {
  const fields =
    typed.shape === 'rectangle' ? [typed.south, typed.west, typed.north, typed.east] : [typed.centerLatitude, typed.centerLongitude, typed.radiusKm];
  if (fields.every((f) => f.trim() === '')) return { area: null, problem: null };
  const numbers = fields.map(typedNumber);
  if (numbers.some((n) => n === null)) {
    return { area: null, problem: typed.shape === 'rectangle' ? 'Enter all four edges as numbers (degrees).' : 'Enter the centre (degrees) and the radius (km) as numbers.' };
  }
  const [a, b, c, d] = numbers as number[];
  const area: AreaRequest =
    typed.shape === 'rectangle'
      ? { low: { latitude: a, longitude: b }, high: { latitude: c, longitude: d } }
      : { center: { latitude: a, longitude: b }, radiusMeters: Math.round(c * 1000) };
  const problem = areaProblem(area);
  return problem ? { area: null, problem } : { area, problem: null };
}
