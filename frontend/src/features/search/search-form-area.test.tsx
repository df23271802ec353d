import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AreaMapProps } from './area-map';
import { jsonResponse, renderWithProviders } from '../../test/render';
import { SearchForm } from './search-form';

// The search form's "Area" (issue #30 item 5) with the map's chunk replaced: jsdom has no
// WebGL. The stand-in shows what the form hands the map and draws as a user would, through
// `onDraw`; the real map is driven in the browser (e2e/map.spec.ts).

const POLYGON = {
  polygon: [
    { latitude: 29.72, longitude: -95.48 },
    { latitude: 29.72, longitude: -95.32 },
    { latitude: 29.83, longitude: -95.32 },
    { latitude: 29.83, longitude: -95.48 },
  ],
};

vi.mock('./area-map', () => ({
  default: ({ area, onDraw, styleUrl, focus, points }: AreaMapProps) => (
    <div data-testid="map" data-area={JSON.stringify(area)} data-style={String(styleUrl)} data-focus={JSON.stringify(focus ?? null)} data-points={JSON.stringify(points ?? [])}>
      <button type="button" onClick={() => onDraw(POLYGON)}>
        Draw a polygon
      </button>
      <button type="button" onClick={() => onDraw({ center: { latitude: 29.76, longitude: -95.37 }, radiusMeters: 60_000 })}>
        Draw a huge circle
      </button>
    </div>
  ),
}));

const HOUSTON = { low: { latitude: 29.52, longitude: -95.7 }, high: { latitude: 30.02, longitude: -95.1 } };
const locateCalls = () => fetchMock.mock.calls.filter(([url]) => url === '/api/leads/locate').map(([, init]) => JSON.parse(String((init as RequestInit).body)) as unknown);

const catalogue = { googleTypes: [], groups: [{ label: 'Health & Medical', types: [{ value: 'dentist', label: 'Dentist', textOnly: false }] }] };
const STYLE = 'https://maps.agency.example/style.json';
let fetchMock: ReturnType<typeof vi.fn>;

beforeEach(() => {
  fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    if (url === '/api/leads/business-types') return jsonResponse(catalogue);
    if (url === '/api/site') return jsonResponse({ supportEmail: 's@x.example', legalEntity: 'L', businessAddress: 'A', jurisdiction: 'J', arbitrationRules: 'R', marketingFigures: [], mapStyleUrl: STYLE });
    if (url === '/api/leads/estimate')
      return jsonResponse({
        estimatedLeads: 120,
        estimatedCostUsd: 0.35,
        estimatedSeconds: 4,
        requests: { idsOnly: 3, pro: 0, enterprise: 6 },
        billableRequests: 6,
        exact: true,
        spent: { requests: { idsOnly: 0, pro: 0, enterprise: 0 }, billableRequests: 0, costUsd: 0 },
      });
    if (url === '/api/leads/locate') {
      const { location } = JSON.parse(String(init?.body)) as { location: string };
      if (location === 'Atlantis') return jsonResponse({ error: 'invalid_location', message: 'We could not find "Atlantis" on the map.' }, 400);
      return jsonResponse({ location, ...HOUSTON, spent: { requests: { idsOnly: 0, pro: 1, enterprise: 0 }, billableRequests: 1, costUsd: 0.032 } });
    }
    return jsonResponse({ error: 'not_found' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

async function setup(props: Partial<Parameters<typeof SearchForm>[0]> = {}) {
  const onSearch = vi.fn();
  await renderWithProviders(<SearchForm hasApiKey isSearching={false} onSearch={onSearch} {...props} />);
  await waitFor(() => expect(screen.getByLabelText('Business type').tagName).toBe('INPUT'));
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Business type'), 'dentist');
  await user.keyboard('{Enter}');
  return { onSearch, user };
}

const searchButton = () => screen.getByRole('button', { name: 'Search' });

/** Puts `text` in the field at once (a paste: one change, where typing is one per key). */
async function fill(user: ReturnType<typeof userEvent.setup>, label: string, text: string) {
  await user.click(screen.getByLabelText(label));
  await user.paste(text);
}

// Rendering the whole form and typing into it takes seconds on a busy 2-core machine.
describe('SearchForm: an area drawn on a map', { timeout: 15_000 }, () => {
  it('loads the map with the operator style only when drawing is picked, and searches the drawn polygon', async () => {
    const { onSearch, user } = await setup();
    expect(screen.getByRole('radio', { name: 'A city or ZIP code' })).toBeChecked();
    expect(screen.queryByTestId('map')).not.toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: 'Draw on a map' }));
    const map = await screen.findByTestId('map');
    await waitFor(() => expect(map.dataset.style).toBe(STYLE));
    // No location and no area yet: nothing to search.
    expect(searchButton()).toBeDisabled();
    expect(screen.getByText('No area yet: draw one on the map, or type one below.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Draw a polygon' }));
    expect(screen.getByText(/^Polygon of 4 points: 29\.7200, -95\.4800; 29\.7200, -95\.3200/)).toBeInTheDocument();
    expect(searchButton()).toBeEnabled();
    await user.click(searchButton());
    expect(onSearch).toHaveBeenCalledWith({ businessType: 'dentist', location: '', area: POLYGON });
  });

  it("estimates the drawn area, quick coverage included, with the search's own body", async () => {
    const { user } = await setup();
    await user.click(screen.getByRole('radio', { name: 'Draw on a map' }));
    await user.click(await screen.findByRole('button', { name: 'Draw a polygon' }));
    await user.click(screen.getByRole('button', { name: 'Estimate cost' }));
    expect(await screen.findByText(/^About 120 dentists, about \$0\.35 on your Google key/)).toBeInTheDocument();
    const [, init] = fetchMock.mock.calls.find(([url]) => url === '/api/leads/estimate')!;
    expect(JSON.parse(String(init.body))).toEqual({ businessType: 'dentist', location: '', area: POLYGON });
  });

  it('takes a rectangle or a circle typed as numbers, hands it to the map, and says what is wrong', async () => {
    const { onSearch, user } = await setup();
    await user.click(screen.getByRole('radio', { name: 'Draw on a map' }));
    const map = await screen.findByTestId('map');
    await fill(user, 'South-west latitude', '29.7');
    expect(screen.getByText('Enter all four edges as numbers (degrees).')).toBeInTheDocument();
    expect(searchButton()).toBeDisabled();
    await fill(user, 'South-west longitude', '-95.5');
    await fill(user, 'North-east latitude', '29.85');
    await fill(user, 'North-east longitude', '-95.3');
    const rectangle = { low: { latitude: 29.7, longitude: -95.5 }, high: { latitude: 29.85, longitude: -95.3 } };
    expect(JSON.parse(map.dataset.area!)).toEqual(rectangle);
    expect(screen.getByText('Rectangle from 29.7000, -95.5000 (south-west) to 29.8500, -95.3000 (north-east)')).toBeInTheDocument();

    // A location typed too names the search; the area is what is searched.
    await user.type(screen.getByLabelText('Location'), 'East Houston');
    await user.click(searchButton());
    expect(onSearch).toHaveBeenLastCalledWith({ businessType: 'dentist', location: 'East Houston', area: rectangle });

    await user.selectOptions(screen.getByLabelText('Shape'), 'circle');
    await fill(user, 'Centre latitude', '29.76');
    await fill(user, 'Centre longitude', '-95.37');
    await fill(user, 'Radius (km)', '75');
    expect(screen.getByText("The circle's radius may be at most 50 km: draw a smaller one.")).toBeInTheDocument();
    expect(searchButton()).toBeDisabled();
    await user.clear(screen.getByLabelText('Radius (km)'));
    await fill(user, 'Radius (km)', '2.5');
    expect(JSON.parse(map.dataset.area!)).toEqual({ center: { latitude: 29.76, longitude: -95.37 }, radiusMeters: 2500 });
    expect(searchButton()).toBeEnabled();
  });

  it('shows a drawn circle in the typed fields, and refuses one past the limit', async () => {
    const { user } = await setup();
    await user.click(screen.getByRole('radio', { name: 'Draw on a map' }));
    await user.click(await screen.findByRole('button', { name: 'Draw a huge circle' }));
    expect(screen.getByLabelText('Shape')).toHaveValue('circle');
    expect(screen.getByLabelText('Radius (km)')).toHaveValue('60');
    expect(screen.getByText("The circle's radius may be at most 50 km: draw a smaller one.")).toBeInTheDocument();
    expect(searchButton()).toBeDisabled();
  });

  it('opens on the typed location, located by the server once, and shows another only when asked', async () => {
    const { user } = await setup();
    await user.type(screen.getByLabelText('Location'), 'Houston, TX');
    expect(locateCalls()).toEqual([]);
    await user.click(screen.getByRole('radio', { name: 'Draw on a map' }));
    const map = await screen.findByTestId('map');
    expect(await screen.findByText('Map centred on “Houston, TX”.')).toBeInTheDocument();
    expect(JSON.parse(map.dataset.focus!)).toMatchObject(HOUSTON);
    expect(locateCalls()).toEqual([{ location: 'Houston, TX' }]);

    // Typing does not locate each keystroke: a button shows the new location.
    await user.clear(screen.getByLabelText('Location'));
    await user.type(screen.getByLabelText('Location'), 'Atlantis');
    expect(locateCalls()).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Show “Atlantis” on the map' }));
    expect(await screen.findByText(/^“Atlantis” could not be shown on the map: We could not find "Atlantis" on the map\.$/)).toBeInTheDocument();
    expect(locateCalls()).toEqual([{ location: 'Houston, TX' }, { location: 'Atlantis' }]);
    // The map stays usable: drawing still works.
    await user.click(screen.getByRole('button', { name: 'Draw a polygon' }));
    expect(searchButton()).toBeEnabled();
  });

  it('does not locate without a location, and marks the leads that have a position', async () => {
    await setup({
      leads: [
        { name: 'Oak Dental', address: '', phone: '', website: '', placeId: 'a', rating: null, reviewCount: null, latitude: 29.76, longitude: -95.37 },
        { name: 'No Pin', address: '', phone: '', website: '', placeId: 'b', rating: null, reviewCount: null },
      ],
    });
    await userEvent.setup().click(screen.getByRole('radio', { name: 'Draw on a map' }));
    const map = await screen.findByTestId('map');
    expect(JSON.parse(map.dataset.points!)).toEqual([{ latitude: 29.76, longitude: -95.37, name: 'Oak Dental' }]);
    expect(screen.getByText('1 lead marked on the map.')).toBeInTheDocument();
    expect(JSON.parse(map.dataset.focus!)).toBeNull();
    expect(locateCalls()).toEqual([]);
  });

  it('runs a search with an area again on the map, and back on the location drops the area', async () => {
    const rectangle = { low: { latitude: 29.7, longitude: -95.5 }, high: { latitude: 29.85, longitude: -95.3 } };
    const { onSearch, user } = await setup({ initial: { businessType: 'dentist', location: 'East Houston', area: rectangle } });
    expect(screen.getByRole('radio', { name: 'Draw on a map' })).toBeChecked();
    expect(JSON.parse((await screen.findByTestId('map')).dataset.area!)).toEqual(rectangle);
    expect(screen.getByLabelText('North-east latitude')).toHaveValue('29.85');
    // It opens on its own area, not on its location.
    expect(locateCalls()).toEqual([]);

    await user.click(screen.getByRole('radio', { name: 'A city or ZIP code' }));
    expect(screen.queryByTestId('map')).not.toBeInTheDocument();
    await user.click(searchButton());
    expect(onSearch).toHaveBeenCalledWith({ businessType: 'dentist', location: 'East Houston' });
  });
});
