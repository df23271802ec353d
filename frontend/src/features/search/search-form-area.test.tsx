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
  default: ({ area, onDraw, styleUrl }: AreaMapProps) => (
    <div data-testid="map" data-area={JSON.stringify(area)} data-style={String(styleUrl)}>
      <button type="button" onClick={() => onDraw(POLYGON)}>
        Draw a polygon
      </button>
      <button type="button" onClick={() => onDraw({ center: { latitude: 29.76, longitude: -95.37 }, radiusMeters: 60_000 })}>
        Draw a huge circle
      </button>
    </div>
  ),
}));

const catalogue = { googleTypes: [], groups: [{ label: 'Health & Medical', types: [{ value: 'dentist', label: 'Dentist', textOnly: false }] }] };
const STYLE = 'https://maps.agency.example/style.json';
let fetchMock: ReturnType<typeof vi.fn>;

beforeEach(() => {
  fetchMock = vi.fn(async (url: string) => {
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

  it('runs a search with an area again on the map, and back on the location drops the area', async () => {
    const rectangle = { low: { latitude: 29.7, longitude: -95.5 }, high: { latitude: 29.85, longitude: -95.3 } };
    const { onSearch, user } = await setup({ initial: { businessType: 'dentist', location: 'East Houston', area: rectangle } });
    expect(screen.getByRole('radio', { name: 'Draw on a map' })).toBeChecked();
    expect(JSON.parse((await screen.findByTestId('map')).dataset.area!)).toEqual(rectangle);
    expect(screen.getByLabelText('North-east latitude')).toHaveValue('29.85');

    await user.click(screen.getByRole('radio', { name: 'A city or ZIP code' }));
    expect(screen.queryByTestId('map')).not.toBeInTheDocument();
    await user.click(searchButton());
    expect(onSearch).toHaveBeenCalledWith({ businessType: 'dentist', location: 'East Houston' });
  });
});
