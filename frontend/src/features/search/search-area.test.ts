import { describe, expect, it } from 'vitest';
import {
  areaFromDrawn,
  areaFromTyped,
  areaProblem,
  describeArea,
  distanceMeters,
  drawnFromArea,
  EMPTY_TYPED_AREA,
  typedFromArea,
  type Position,
} from './search-area';

/**
 * A circle as terra-draw's circle mode draws it on a Web Mercator map: evenly spaced
 * points on the projected plane, scaled so the point under the cursor (due east) is
 * `meters` along the ground (a sphere of Earth's mean radius, as terra-draw measures).
 */
function mercatorCircle([lng, lat]: Position, meters: number, steps = 64): Position[] {
  const R = 6_378_137;
  const x0 = (lng * Math.PI * R) / 180;
  const y0 = R * Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360));
  const scaled = (meters * (R / 6_371_008.8)) / Math.cos((lat * Math.PI) / 180);
  const ring: Position[] = [];
  for (let i = 0; i < steps; i++) {
    const angle = (2 * Math.PI * i) / steps;
    const x = x0 + scaled * Math.cos(angle);
    const y = y0 + scaled * Math.sin(angle);
    ring.push([(x / R) * (180 / Math.PI), (2 * Math.atan(Math.exp(y / R)) - Math.PI / 2) * (180 / Math.PI)]);
  }
  return [...ring, ring[0]];
}

describe('areaFromDrawn', () => {
  it('turns a rectangle dragged from any corner into south-west low and north-east high', () => {
    // Dragged from the north-east corner to the south-west one, as GeoJSON [lng, lat].
    const ring: Position[] = [
      [-95.3, 29.8],
      [-95.5, 29.8],
      [-95.5, 29.7],
      [-95.3, 29.7],
      [-95.3, 29.8],
    ];
    expect(areaFromDrawn({ shape: 'rectangle', ring })).toEqual({
      low: { latitude: 29.7, longitude: -95.5 },
      high: { latitude: 29.8, longitude: -95.3 },
    });
  });

  it("gives a circle's centre and its radius in metres along the ground", () => {
    const area = areaFromDrawn({ shape: 'circle', ring: mercatorCircle([-95.37, 29.76], 2500) });
    expect(area.center?.latitude).toBeCloseTo(29.76, 5);
    expect(area.center?.longitude).toBeCloseTo(-95.37, 5);
    // Within a metre or two of what was drawn: the outline's mean distance.
    expect(Math.abs((area.radiusMeters as number) - 2500)).toBeLessThanOrEqual(2);
    expect(Number.isInteger(area.radiusMeters)).toBe(true);
    expect(area).not.toHaveProperty('low');
  });

  it("sends a polygon's points open, without the closing point or repeated clicks", () => {
    const ring: Position[] = [
      [-95.5, 29.7],
      [-95.3, 29.7],
      [-95.3, 29.7],
      [-95.4, 29.85],
      [-95.5, 29.7],
    ];
    expect(areaFromDrawn({ shape: 'polygon', ring })).toEqual({
      polygon: [
        { latitude: 29.7, longitude: -95.5 },
        { latitude: 29.7, longitude: -95.3 },
        { latitude: 29.85, longitude: -95.4 },
      ],
    });
  });

  it('rounds coordinates to six decimals (a tenth of a metre)', () => {
    const ring: Position[] = [
      [-95.123456789, 29.987654321],
      [-95.0, 29.987654321],
      [-95.0, 30.5],
      [-95.123456789, 30.5],
      [-95.123456789, 29.987654321],
    ];
    expect(areaFromDrawn({ shape: 'rectangle', ring }).low).toEqual({ latitude: 29.987654, longitude: -95.123457 });
  });
});

describe('drawnFromArea', () => {
  it('draws a circle whose outline converts back to the same circle', () => {
    const circle = { center: { latitude: 40.7, longitude: -74 }, radiusMeters: 12_000 };
    const drawn = drawnFromArea(circle);
    expect(drawn?.shape).toBe('circle');
    expect(drawn?.ring[0]).toEqual(drawn?.ring[drawn.ring.length - 1]);
    for (const [lng, lat] of drawn?.ring ?? []) {
      expect(Math.abs(distanceMeters(circle.center, { latitude: lat, longitude: lng }) - 12_000)).toBeLessThan(1);
    }
    const back = areaFromDrawn(drawn!);
    expect(Math.abs((back.radiusMeters as number) - 12_000)).toBeLessThanOrEqual(25);
    expect(back.center?.latitude).toBeCloseTo(40.7, 2);
  });

  it("closes a rectangle's and a polygon's ring, and round-trips them", () => {
    const rectangle = { low: { latitude: 29.7, longitude: -95.5 }, high: { latitude: 29.8, longitude: -95.3 } };
    const drawn = drawnFromArea(rectangle);
    expect(drawn?.ring).toHaveLength(5);
    expect(areaFromDrawn(drawn!)).toEqual(rectangle);
    const polygon = { polygon: [{ latitude: 1, longitude: 1 }, { latitude: 1, longitude: 2 }, { latitude: 2, longitude: 1.5 }] };
    expect(areaFromDrawn(drawnFromArea(polygon)!)).toEqual(polygon);
  });
});

describe('areaProblem', () => {
  it("holds drawn areas to the contract's limits", () => {
    const rect = (south: number, west: number, north: number, east: number) => ({
      low: { latitude: south, longitude: west },
      high: { latitude: north, longitude: east },
    });
    expect(areaProblem(rect(29, -96, 30, -95))).toBeNull();
    expect(areaProblem(rect(29, -96, 35, -95))).toMatch(/at most 5 degrees/);
    expect(areaProblem(rect(30, -95, 29, -96))).toMatch(/south and west/);
    expect(areaProblem({ center: { latitude: 0, longitude: 0 }, radiusMeters: 50_000 })).toBeNull();
    expect(areaProblem({ center: { latitude: 0, longitude: 0 }, radiusMeters: 50_001 })).toMatch(/at most 50 km/);
    expect(areaProblem({ center: { latitude: 95, longitude: 0 }, radiusMeters: 10 })).toMatch(/latitude from -90 to 90/);
    expect(areaProblem({ polygon: [{ latitude: 0, longitude: 0 }, { latitude: 1, longitude: 1 }] })).toMatch(/at least 3 points/);
    const many = Array.from({ length: 501 }, (_, i) => ({ latitude: Math.sin(i), longitude: Math.cos(i) }));
    expect(areaProblem({ polygon: many })).toMatch(/at most 500 points/);
    expect(areaProblem({ polygon: [{ latitude: 0, longitude: 0 }, { latitude: 0, longitude: 6 }, { latitude: 1, longitude: 3 }] })).toMatch(/5 degrees/);
  });
});

describe('typed areas', () => {
  it('reads a rectangle from its four edges and a circle from its centre and radius in km', () => {
    expect(areaFromTyped({ ...EMPTY_TYPED_AREA, south: '29.7', west: '-95.5', north: '29.8', east: '-95.3' })).toEqual({
      area: { low: { latitude: 29.7, longitude: -95.5 }, high: { latitude: 29.8, longitude: -95.3 } },
      problem: null,
    });
    expect(areaFromTyped({ ...EMPTY_TYPED_AREA, shape: 'circle', centerLatitude: '29.76', centerLongitude: '-95.37', radiusKm: '2.5' })).toEqual({
      area: { center: { latitude: 29.76, longitude: -95.37 }, radiusMeters: 2500 },
      problem: null,
    });
  });

  it('says what is missing or wrong, and nothing while the fields are blank', () => {
    expect(areaFromTyped(EMPTY_TYPED_AREA)).toEqual({ area: null, problem: null });
    expect(areaFromTyped({ ...EMPTY_TYPED_AREA, south: '29.7', west: 'x' }).problem).toMatch(/all four edges/);
    expect(areaFromTyped({ ...EMPTY_TYPED_AREA, shape: 'circle', centerLatitude: '1', centerLongitude: '1', radiusKm: '80' }).problem).toMatch(/50 km/);
  });

  it('shows a drawn rectangle or circle in the fields, and empties them for a polygon', () => {
    const typed = typedFromArea({ low: { latitude: 29.7, longitude: -95.5 }, high: { latitude: 29.8, longitude: -95.3 } });
    expect([typed.shape, typed.south, typed.west, typed.north, typed.east]).toEqual(['rectangle', '29.7', '-95.5', '29.8', '-95.3']);
    const circle = typedFromArea({ center: { latitude: 1, longitude: 2 }, radiusMeters: 1234 }, typed);
    expect([circle.shape, circle.centerLatitude, circle.centerLongitude, circle.radiusKm, circle.south]).toEqual(['circle', '1', '2', '1.234', '29.7']);
    expect(typedFromArea({ polygon: [] }, circle)).toEqual({ ...EMPTY_TYPED_AREA, shape: 'circle' });
  });

  it('describes each shape with its coordinates', () => {
    expect(describeArea({ center: { latitude: 29.76, longitude: -95.37 }, radiusMeters: 2500 })).toBe('Circle of 2.5 km around 29.7600, -95.3700');
    expect(describeArea({ low: { latitude: 29.7, longitude: -95.5 }, high: { latitude: 29.8, longitude: -95.3 } })).toBe(
      'Rectangle from 29.7000, -95.5000 (south-west) to 29.8000, -95.3000 (north-east)',
    );
  });
});
