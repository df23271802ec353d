import { chooseBusinessType, expect, expectNoConsoleErrors, parseSse, shot, signUpWithKey, test } from './fixtures';

// "Draw on a map" (issue #30 item 5) in the browser against the real stack: the map
// (MapLibre GL on SwiftShader's WebGL, terra-draw's tools) loads when drawing is picked,
// an area typed by keyboard shows on it, a polygon drawn with mouse clicks replaces it,
// its estimate shows before spending, and the search sends that polygon and finds
// dentists in the Places simulator's Houston. Every screen passes axe.
//
// The tiles: the server's default style (OpenFreeMap's, LEADGEN_MAP_STYLE_URL unset) is
// what the page asks for, through the Content-Security-Policy the server derived from it;
// the test answers it with a plain style (no network here), which is also how the map
// looks with no tiles at all.

/** A well-formed key without a fault marker (testkit places_sim/faults.rs): answers at once. */
const KEY = 'AIzaSyE2eMapDraw0123456789abcdefghijkl';
/** The server's default style (core/src/config/site.rs, DEFAULT_MAP_STYLE). */
const STYLE_URL = 'https://tiles.openfreemap.org/styles/liberty';
/** The rectangle typed first: the middle of the simulator's Houston (29.52-30.02, -95.70 to -95.10). */
const RECTANGLE = { south: 29.7, west: -95.5, north: 29.85, east: -95.3 };

interface GeoPoint {
  latitude: number;
  longitude: number;
}

const isPath = (url: string, path: string) => new URL(url).pathname === path;

test('map: type an area, draw a polygon over it with the mouse, see its estimate, search it', async ({ page, consoleErrors }) => {
  test.setTimeout(180_000);
  const styleRequests: string[] = [];
  await page.route('https://tiles.openfreemap.org/**', (route) => {
    styleRequests.push(route.request().url());
    return route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({ version: 8, sources: {}, layers: [{ id: 'land', type: 'background', paint: { 'background-color': '#f1f5f9' } }] }),
    });
  });
  await signUpWithKey(page, 'mara', KEY);

  const map = page.getByTestId('area-map');
  await test.step('picking "Draw on a map" loads the map with the server\'s style', async () => {
    await chooseBusinessType(page, 'dentist');
    await expect(page.locator('.maplibregl-canvas')).toHaveCount(0);
    await page.getByRole('radio', { name: 'Draw on a map' }).check();
    await expect(map.locator('canvas.maplibregl-canvas')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Polygon' })).toBeEnabled({ timeout: 20_000 });
    expect(styleRequests).toEqual([STYLE_URL]);
    // Not before the area is set.
    await expect(page.getByRole('button', { name: 'Search', exact: true })).toBeDisabled();
  });

  await test.step('a rectangle typed as numbers shows on the map', async () => {
    await page.getByLabel('South-west latitude').fill(String(RECTANGLE.south));
    await page.getByLabel('South-west longitude').fill(String(RECTANGLE.west));
    await page.getByLabel('North-east latitude').fill(String(RECTANGLE.north));
    await page.getByLabel('North-east longitude').fill(String(RECTANGLE.east));
    await expect(page.getByText('Rectangle from 29.7000, -95.5000 (south-west) to 29.8500, -95.3000 (north-east)')).toBeVisible();
    await shot(page, '70-map-typed-rectangle');
  });

  let drawn: GeoPoint[] = [];
  await test.step('a polygon drawn with four clicks and a closing click replaces it', async () => {
    await page.getByRole('button', { name: 'Polygon' }).click();
    await expect(page.getByRole('button', { name: 'Polygon' })).toHaveAttribute('aria-pressed', 'true');
    const box = await map.boundingBox();
    if (!box) throw new Error('the map has no box');
    // The map fitted the rectangle, so its middle is the rectangle's: a diamond inside it.
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    // About 0.04 degrees up and down, 0.08 left and right at this zoom: well inside.
    const corners: [number, number][] = [
      [cx, cy - 70],
      [cx + 110, cy],
      [cx, cy + 70],
      [cx - 110, cy],
    ];
    for (const [x, y] of corners) {
      await page.mouse.move(x, y, { steps: 4 });
      await page.mouse.click(x, y);
    }
    // Back on the first corner: the ring closes.
    await page.mouse.move(corners[0][0], corners[0][1], { steps: 4 });
    await page.mouse.click(corners[0][0], corners[0][1]);
    await expect(page.getByText(/^Polygon of 4 points: /)).toBeVisible();
    // The typed rectangle gave way: one area at a time.
    await expect(page.getByLabel('South-west latitude')).toHaveValue('');
    await shot(page, '71-map-drawn-polygon');
  });

  await test.step('its estimate shows before spending', async () => {
    const estimating = page.waitForResponse((r) => isPath(r.url(), '/api/leads/estimate'));
    await page.getByRole('button', { name: 'Estimate cost' }).click();
    const answer = await estimating;
    expect(answer.status()).toBe(200);
    const body = answer.request().postDataJSON() as { businessType: string; location: string; area: { polygon: GeoPoint[] } };
    expect(body.businessType).toBe('dentist');
    expect(body.location).toBe('');
    drawn = body.area.polygon;
    // Four corners, open (no closing point), each inside the typed rectangle: north, east,
    // south and west of the middle (in the ring's own winding: terra-draw orders it).
    expect(drawn).toHaveLength(4);
    for (const p of drawn) {
      expect(p.latitude).toBeGreaterThan(RECTANGLE.south);
      expect(p.latitude).toBeLessThan(RECTANGLE.north);
      expect(p.longitude).toBeGreaterThan(RECTANGLE.west);
      expect(p.longitude).toBeLessThan(RECTANGLE.east);
    }
    const lats = drawn.map((p) => p.latitude);
    const lngs = drawn.map((p) => p.longitude);
    expect(Math.max(...lats) - Math.min(...lats)).toBeGreaterThan(0.05);
    expect(Math.max(...lngs) - Math.min(...lngs)).toBeGreaterThan(0.1);
    const estimate = (await answer.json()) as { estimatedLeads: number };
    expect(estimate.estimatedLeads).toBeGreaterThan(0);
    await expect(page.getByText(new RegExp(`^About ${estimate.estimatedLeads.toLocaleString('en-US')} dentists?, about \\$[\\d,]+\\.\\d{2} on your Google key`))).toBeVisible();
    await shot(page, '72-map-estimate');
  });

  await test.step('the search sends the drawn polygon and finds dentists inside it', async () => {
    const streamed = page.waitForResponse((r) => isPath(r.url(), '/api/leads/search-stream') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const response = await streamed;
    expect(response.request().postDataJSON()).toEqual({ businessType: 'dentist', location: '', area: { polygon: drawn } });
    await expect(page.getByRole('heading', { name: /^Found [\d,]+ leads?$/ })).toBeVisible({ timeout: 60_000 });
    const frames = parseSse(await response.text());
    const last = frames[frames.length - 1].data;
    expect(last.type).toBe('complete');
    expect((last.results as unknown[]).length).toBeGreaterThan(0);
    await shot(page, '73-map-results');
  });

  expectNoConsoleErrors(consoleErrors);
});

/** The simulator's Houston (testkit places_sim/cities.rs): where "Houston, TX" is located. */
const HOUSTON = { south: 29.52, west: -95.7, north: 30.02, east: -95.1 };

test('map: it opens on the typed location, and marks the leads found', async ({ page, consoleErrors }) => {
  test.setTimeout(180_000);
  await page.route('https://tiles.openfreemap.org/**', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({ version: 8, sources: {}, layers: [{ id: 'land', type: 'background', paint: { 'background-color': '#f1f5f9' } }] }),
    }),
  );
  await signUpWithKey(page, 'nadia', KEY);

  const map = page.getByTestId('area-map');
  await test.step('the typed location is located by the server when the map opens', async () => {
    await chooseBusinessType(page, 'dentist');
    await page.getByLabel('Location', { exact: true }).fill('Houston, TX');
    const locating = page.waitForResponse((r) => isPath(r.url(), '/api/leads/locate'));
    await page.getByRole('radio', { name: 'Draw on a map' }).check();
    const answer = await locating;
    expect(answer.status()).toBe(200);
    expect(answer.request().postDataJSON()).toEqual({ location: 'Houston, TX' });
    const located = (await answer.json()) as { low: GeoPoint; high: GeoPoint };
    expect(located.low).toEqual({ latitude: HOUSTON.south, longitude: HOUSTON.west });
    expect(located.high).toEqual({ latitude: HOUSTON.north, longitude: HOUSTON.east });
    await expect(page.getByText('Map centred on “Houston, TX”.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Rectangle' })).toBeEnabled({ timeout: 20_000 });
  });

  await test.step('a rectangle drawn in the middle of the map lies in Houston', async () => {
    const box = await map.boundingBox();
    if (!box) throw new Error('the map has no box');
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    // Rectangle mode: click one corner, move, click the other.
    await page.mouse.move(cx - 60, cy + 40, { steps: 4 });
    await page.mouse.click(cx - 60, cy + 40);
    await page.mouse.move(cx + 60, cy - 40, { steps: 4 });
    await page.mouse.click(cx + 60, cy - 40);
    const summary = page.getByText(/^Rectangle from /);
    await expect(summary).toBeVisible();
    // Before it was centred the map showed the contiguous US (its middle near 37 N): a
    // rectangle drawn there would lie far north of Houston.
    const numbers = ((await summary.textContent()) ?? '').match(/-?\d+\.\d+/g)?.map(Number) ?? [];
    expect(numbers).toHaveLength(4);
    const [south, west, north, east] = numbers;
    for (const lat of [south, north]) {
      expect(lat).toBeGreaterThan(HOUSTON.south);
      expect(lat).toBeLessThan(HOUSTON.north);
    }
    for (const lng of [west, east]) {
      expect(lng).toBeGreaterThan(HOUSTON.west);
      expect(lng).toBeLessThan(HOUSTON.east);
    }
    await shot(page, '74-map-centred-on-location');
  });

  await test.step('the leads found carry their positions and are marked on the map', async () => {
    const streamed = page.waitForResponse((r) => isPath(r.url(), '/api/leads/search-stream') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const response = await streamed;
    await expect(page.getByRole('heading', { name: /^Found [\d,]+ leads?$/ })).toBeVisible({ timeout: 60_000 });
    const frames = parseSse(await response.text());
    const last = frames[frames.length - 1].data;
    expect(last.type).toBe('complete');
    const results = last.results as { latitude?: number; longitude?: number }[];
    expect(results.length).toBeGreaterThan(0);
    for (const lead of results) {
      expect(lead.latitude).toBeGreaterThan(HOUSTON.south);
      expect(lead.longitude).toBeLessThan(HOUSTON.east);
    }
    const marked = results.length === 1 ? '1 lead marked on the map.' : `${results.length.toLocaleString('en-US')} leads marked on the map.`;
    await expect(page.getByText(marked)).toBeVisible();
    await shot(page, '75-map-leads-marked');
  });

  expectNoConsoleErrors(consoleErrors);
});
