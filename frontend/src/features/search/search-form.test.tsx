import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BusinessTypesResponse } from '../../api/gen/model/businessTypesResponse';
import { jsonResponse, renderWithProviders } from '../../test/render';
import { SearchForm } from './search-form';
import { searchQueryFromHistory } from './search-options';

/** A slice of the server's catalogue, labels as `GET /api/leads/business-types` sends them. */
const catalogue: BusinessTypesResponse = {
  googleTypes: [
    { value: 'indian_restaurant', label: 'Indian Restaurant', textOnly: false },
    { value: 'vegan_restaurant', label: 'Vegan Restaurant', textOnly: false },
    { value: 'electrician', label: 'Electrician', textOnly: false },
  ],
  groups: [
    {
      label: 'Food & Dining',
      types: [
        { value: 'restaurant', label: 'Restaurant', textOnly: false },
        { value: 'meal_takeaway', label: 'Meal Takeaway', textOnly: false },
        { value: 'cafe', label: 'Cafe', textOnly: false },
      ],
    },
    {
      label: 'Health & Medical',
      types: [
        { value: 'dentist', label: 'Dentist', textOnly: false },
        { value: 'veterinary_care', label: 'Veterinary Care', textOnly: false },
      ],
    },
    {
      label: 'Shopping & Retail',
      types: [
        { value: 'store', label: 'Store', textOnly: false },
        { value: 'electronics_store', label: 'Electronics Store', textOnly: false },
      ],
    },
    {
      label: 'Technology & IT',
      types: [
        // The same type in two groups, as the server's catalogue has it.
        { value: 'electronics_store', label: 'Electronics Store', textOnly: false },
        { value: 'computer_phone_repair', label: 'Computer/Phone Repair', textOnly: false },
      ],
    },
  ],
};

type Answer = () => Response | Promise<Response>;
let businessTypes: Answer;
let estimate: Answer;
let fetchMock: ReturnType<typeof vi.fn>;

beforeEach(() => {
  businessTypes = () => jsonResponse(catalogue);
  estimate = () => jsonResponse({ error: 'not_found' }, 404);
  fetchMock = vi.fn(async (url: string) => {
    if (url === '/api/leads/business-types') return businessTypes();
    if (url === '/api/leads/estimate') return estimate();
    return jsonResponse({ error: 'not_found' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

const typeSelect = () => screen.getByLabelText('Business type');

/** Chooses a business type as a user does: type its name (or value) in the combobox, then Enter. */
async function chooseType(user: ReturnType<typeof userEvent.setup>, name: string) {
  await user.clear(typeSelect());
  await user.type(typeSelect(), name);
  await user.keyboard('{Enter}');
}
const catalogueCalls = () => fetchMock.mock.calls.filter(([url]) => url === '/api/leads/business-types').length;

async function setup(props: Partial<Parameters<typeof SearchForm>[0]> = {}, { waitForTypes = true } = {}) {
  const onSearch = vi.fn();
  await renderWithProviders(<SearchForm hasApiKey isSearching={false} onSearch={onSearch} {...props} />);
  // Until the catalogue answers, a disabled select stands in for the combobox.
  if (waitForTypes) await waitFor(() => expect(typeSelect().tagName).toBe('INPUT'));
  return { onSearch, user: userEvent.setup() };
}

describe('SearchForm', () => {
  it('asks for enrichment when the box is ticked, and remembers the choice per user', async () => {
    window.localStorage.clear();
    const first = await setup({ userId: 'u-1' });
    const box = screen.getByRole('checkbox', { name: 'Find emails and social profiles' });
    expect(box).not.toBeChecked();
    await first.user.click(box);
    await chooseType(first.user, 'dentist');
    await first.user.type(screen.getByLabelText('Location'), 'Austin');
    await first.user.click(screen.getByRole('button', { name: 'Search' }));
    expect(first.onSearch).toHaveBeenCalledWith({ businessType: 'dentist', location: 'Austin', enrich: true });
    cleanup();

    // The same user's next visit starts ticked; another user's does not.
    await setup({ userId: 'u-1' });
    expect(screen.getByRole('checkbox', { name: 'Find emails and social profiles' })).toBeChecked();
    cleanup();
    await setup({ userId: 'u-2' });
    expect(screen.getByRole('checkbox', { name: 'Find emails and social profiles' })).not.toBeChecked();
    window.localStorage.clear();
  });

  it('puts Search after Coverage, Filters and the enrichment box: the order a phone shows and Tab follows (issue #26 item 9)', async () => {
    await setup();
    const search = screen.getByRole('button', { name: 'Search' });
    const follows = (element: Element) => (element.compareDocumentPosition(search) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
    expect(follows(screen.getByRole('group', { name: 'Coverage' }))).toBe(true);
    expect(follows(screen.getByText('Filters', { selector: 'summary' }))).toBe(true);
    expect(follows(screen.getByRole('checkbox', { name: 'Find emails and social profiles' }))).toBe(true);
    expect(follows(screen.getByLabelText('Location'))).toBe(true);
  });

  it('runs a history entry again with its enrichment', () => {
    expect(
      searchQueryFromHistory({ businessType: 'cafe', location: 'Paris', coverage: 'quick', options: { enrich: true } }),
    ).toEqual({ businessType: 'cafe', location: 'Paris', enrich: true });
    expect(searchQueryFromHistory({ businessType: 'cafe', location: 'Paris', coverage: 'quick', options: {} })).toEqual({
      businessType: 'cafe',
      location: 'Paris',
    });
  });

  it('sends the exclusion chosen, and gives the page actions the search the form holds (issue #29 item 7)', async () => {
    const held: Array<unknown> = [];
    const { onSearch, user } = await setup({ actions: (query) => (held.push(query), null) });
    expect(screen.getByLabelText('Places')).toHaveValue('none');
    expect(held.at(-1)).toBeNull();
    await chooseType(user, 'dentist');
    await user.type(screen.getByLabelText('Location'), 'Austin');
    await user.selectOptions(screen.getByLabelText('Places'), 'Only places not exported before');
    expect(held.at(-1)).toEqual({ businessType: 'dentist', location: 'Austin', exclude: 'exported' });
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(onSearch).toHaveBeenCalledWith({ businessType: 'dentist', location: 'Austin', exclude: 'exported' });
  });

  it('runs a history entry again with its exclusion', () => {
    expect(searchQueryFromHistory({ businessType: 'cafe', location: 'Paris', coverage: 'quick', options: { exclude: 'seen' } })).toEqual({
      businessType: 'cafe',
      location: 'Paris',
      exclude: 'seen',
    });
  });

  it('enables Search only once a type and a location are given, and sends the trimmed location', async () => {
    const { onSearch, user } = await setup();
    const button = screen.getByRole('button', { name: 'Search' });
    expect(button).toBeDisabled();
    await chooseType(user, 'dentist');
    expect(button).toBeDisabled();
    await user.type(screen.getByLabelText('Location'), '   ');
    expect(button).toBeDisabled();
    await user.type(screen.getByLabelText('Location'), 'Austin, TX  ');
    expect(button).toBeEnabled();
    await user.click(button);
    expect(onSearch).toHaveBeenCalledWith({ businessType: 'dentist', location: 'Austin, TX' });
  });

  it('stays disabled without an API key and explains why on submit', async () => {
    const { onSearch, user } = await setup({ hasApiKey: false });
    await chooseType(user, 'cafe');
    await user.type(screen.getByLabelText('Location'), 'Paris');
    expect(screen.getByRole('button', { name: 'Search' })).toBeDisabled();
    fireEvent.submit(screen.getByLabelText('Location').closest('form')!);
    expect(screen.getByRole('alert')).toHaveTextContent('Please add your Google Places API key in Settings before searching');
    expect(onSearch).not.toHaveBeenCalled();
  });

  it('asks for type and location when submitted empty', async () => {
    const { onSearch } = await setup();
    fireEvent.submit(screen.getByLabelText('Location').closest('form')!);
    expect(screen.getByRole('alert')).toHaveTextContent('Please select a business type and enter a location');
    expect(onSearch).not.toHaveBeenCalled();
  });

  it('disables the fields while a search runs', async () => {
    await setup({ isSearching: true });
    expect(typeSelect()).toBeDisabled();
    expect(screen.getByLabelText('Location')).toBeDisabled();
    expect(screen.getByRole('button', { name: /Searching/ })).toBeDisabled();
  });

  it("lists the server's catalogue grouped, with its labels as sent", async () => {
    const { user } = await setup();
    const box = typeSelect();
    expect(box).toHaveAttribute('aria-expanded', 'false');
    // Closed, the list holds no options at all (they would be a quarter of the
    // dashboard's first render), not merely hidden ones.
    const closed = document.getElementById(box.getAttribute('aria-controls')!)!;
    expect(closed).not.toBeVisible();
    expect(closed.querySelectorAll('[role="option"]')).toHaveLength(0);
    await user.click(box);
    expect(box).toHaveAttribute('aria-expanded', 'true');
    const list = screen.getByRole('listbox', { name: 'Business types' });
    expect(box).toHaveAttribute('aria-controls', list.id);
    const tech = within(list).getByRole('group', { name: 'Technology & IT' });
    // Electronics Store is listed once, in the first group that has it (issue #26 item 9).
    expect(within(tech).getAllByRole('option').map((o) => o.textContent)).toEqual(['Computer/Phone Repair']);
    expect(within(list).getAllByRole('group').map((g) => g.getAttribute('aria-labelledby') && document.getElementById(g.getAttribute('aria-labelledby')!)?.textContent)).toEqual([
      'Food & Dining',
      'Health & Medical',
      'Shopping & Retail',
      'Technology & IT',
    ]);
    // Google's other types wait until something is typed.
    expect(within(list).queryByRole('option', { name: 'Vegan Restaurant' })).not.toBeInTheDocument();
  });

  it('the combobox filters as one types, moves with the arrow keys, chooses with Enter and closes with Escape (issue #26 item 9)', async () => {
    const { onSearch, user } = await setup();
    const box = typeSelect();
    await user.type(box, 'rest');
    const list = screen.getByRole('listbox', { name: 'Business types' });
    // The catalogue's matches first, then Google's, under their own heading.
    expect(within(list).getAllByRole('option').map((o) => o.textContent)).toEqual(['Restaurant', 'Indian Restaurant', 'Vegan Restaurant']);
    expect(within(list).getByRole('group', { name: 'More Google place types' })).toBeInTheDocument();
    const active = () => document.getElementById(box.getAttribute('aria-activedescendant') ?? '')?.textContent;
    expect(active()).toBe('Restaurant');
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(active()).toBe('Vegan Restaurant');
    await user.keyboard('{ArrowUp}');
    expect(active()).toBe('Indian Restaurant');
    await user.keyboard('{ArrowDown}{Enter}');
    expect(box).toHaveValue('Vegan Restaurant');
    expect(box).toHaveAttribute('aria-expanded', 'false');

    // Escape closes and keeps the earlier choice; nothing matching says so.
    await user.clear(box);
    await user.type(box, 'spaceport');
    expect(screen.getByRole('status')).toHaveTextContent('No business type or Google place type matches “spaceport”.');
    await user.keyboard('{Escape}');
    expect(box).toHaveValue('Vegan Restaurant');

    await user.type(screen.getByLabelText('Location'), 'Leeds');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(onSearch).toHaveBeenCalledWith({ businessType: 'vegan_restaurant', location: 'Leeds' });
  });

  it('a list that opens under a resting pointer keeps the typed match for Enter; moving the pointer highlights', async () => {
    const { onSearch, user } = await setup();
    const box = typeSelect();
    await user.type(box, 'restaurant');
    const options = within(screen.getByRole('listbox', { name: 'Business types' })).getAllByRole('option');
    // The pointer was resting where the list opened: it "enters" an option without moving.
    fireEvent.mouseEnter(options[2]);
    fireEvent.mouseOver(options[2]);
    await user.keyboard('{Enter}');
    expect(box).toHaveValue('Restaurant');

    await user.clear(box);
    await user.type(box, 'restaurant');
    fireEvent.mouseMove(within(screen.getByRole('listbox', { name: 'Business types' })).getAllByRole('option')[1]);
    await user.keyboard('{Enter}');
    expect(box).toHaveValue('Indian Restaurant');
    await user.type(screen.getByLabelText('Location'), 'Leeds');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(onSearch).toHaveBeenCalledWith({ businessType: 'indian_restaurant', location: 'Leeds' });
  });

  it("takes a Google place type typed as its value, and an exact name on leaving the field", async () => {
    const { onSearch, user } = await setup();
    await user.type(typeSelect(), 'electrician');
    await user.tab();
    expect(typeSelect()).toHaveValue('Electrician');
    await user.type(screen.getByLabelText('Location'), 'Leeds');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(onSearch).toHaveBeenCalledWith({ businessType: 'electrician', location: 'Leeds' });
  });

  it("'Computer/Phone Repair' searches computer_phone_repair; a type in two groups is listed once", async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const { onSearch, user } = await setup();
      await user.click(typeSelect());
      expect(screen.getAllByRole('option', { name: 'Electronics Store' })).toHaveLength(1);
      await chooseType(user, 'Computer/Phone Repair');
      expect(typeSelect()).toHaveValue('Computer/Phone Repair');
      await user.type(screen.getByLabelText('Location'), 'Austin');
      await user.click(screen.getByRole('button', { name: 'Search' }));
      expect(onSearch).toHaveBeenCalledWith({ businessType: 'computer_phone_repair', location: 'Austin' });
      expect(errors.mock.calls.filter((args) => String(args[0]).includes('same key'))).toEqual([]);
    } finally {
      errors.mockRestore();
    }
  });
});

describe('SearchForm coverage, budget and filters', () => {
  it("defaults to 'Quick: top 60'; 'Full area' shows the budget and the estimate", async () => {
    const { user } = await setup();
    expect(screen.getByRole('radio', { name: /Quick: top 60/ })).toBeChecked();
    expect(screen.queryByLabelText('Stop at (USD)')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Estimate cost' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: /Full area/ }));
    expect(screen.getByRole('radio', { name: /Full area/ })).toBeChecked();
    expect(screen.getByLabelText('Stop at (USD)')).toBeInTheDocument();
    // Incomplete form: nothing to estimate yet.
    expect(screen.getByRole('button', { name: 'Estimate cost' })).toBeDisabled();
    // Keyboard: the arrow keys move between the two choices.
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('radio', { name: /Quick: top 60/ })).toBeChecked();
  });

  it('a full search with filters and a budget sends exactly what was set', async () => {
    const { onSearch, user } = await setup();
    await chooseType(user, 'dentist');
    await user.type(screen.getByLabelText('Location'), 'Houston, TX');
    await user.click(screen.getByRole('radio', { name: /Full area/ }));
    await user.type(screen.getByLabelText('Stop at (USD)'), '5.50');
    await user.click(screen.getByText('Filters'));
    await user.selectOptions(screen.getByLabelText('Minimum rating'), '4+ stars');
    await user.type(screen.getByLabelText('Minimum reviews'), '20');
    await user.selectOptions(screen.getByLabelText('Website'), 'No website');
    await user.selectOptions(screen.getByLabelText('Phone'), 'Has a phone number');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(onSearch).toHaveBeenCalledWith({
      businessType: 'dentist',
      location: 'Houston, TX',
      coverage: 'full',
      maxCostUsd: 5.5,
      minRating: 4,
      minReviews: 20,
      website: 'without',
      phone: 'with',
    });
  });

  it('filters apply to quick searches too, and a budget typed before going back to quick is not sent', async () => {
    const { onSearch, user } = await setup();
    await chooseType(user, 'cafe');
    await user.type(screen.getByLabelText('Location'), 'Paris');
    await user.click(screen.getByRole('radio', { name: /Full area/ }));
    await user.type(screen.getByLabelText('Stop at (USD)'), '3');
    await user.click(screen.getByRole('radio', { name: /Quick: top 60/ }));
    await user.click(screen.getByText('Filters'));
    await user.selectOptions(screen.getByLabelText('Minimum rating'), '3.5+ stars');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(onSearch).toHaveBeenCalledWith({ businessType: 'cafe', location: 'Paris', minRating: 3.5 });
  });

  it('refuses a budget of 0 or less and a fractional review count', async () => {
    const { onSearch, user } = await setup();
    await chooseType(user, 'dentist');
    await user.type(screen.getByLabelText('Location'), 'Austin');
    await user.click(screen.getByRole('radio', { name: /Full area/ }));
    const budget = screen.getByLabelText('Stop at (USD)');
    await user.type(budget, '0');
    expect(budget).toHaveAttribute('aria-invalid', 'true');
    expect(budget).toHaveAccessibleDescription('Enter an amount above $0, or leave it blank');
    expect(screen.getByRole('button', { name: 'Search' })).toBeDisabled();
    fireEvent.submit(screen.getByLabelText('Location').closest('form')!);
    expect(onSearch).not.toHaveBeenCalled();
    await user.clear(budget);
    expect(budget).not.toHaveAttribute('aria-invalid');

    await user.click(screen.getByText('Filters'));
    await user.type(screen.getByLabelText('Minimum reviews'), '2.5');
    expect(screen.getByLabelText('Minimum reviews')).toHaveAccessibleDescription(
      'Enter a whole number of reviews (0 or more), or leave it blank',
    );
    expect(screen.getByRole('button', { name: 'Search' })).toBeDisabled();
  });

  it('Estimate cost asks the server with the search as it would be sent and shows its figures', async () => {
    estimate = () =>
      jsonResponse({
        estimatedLeads: 1500,
        estimatedCostUsd: 2.7,
        estimatedSeconds: 29.6,
        requests: { idsOnly: 300, pro: 1, enterprise: 75 },
        billableRequests: 76,
        exact: true,
        spent: { requests: { idsOnly: 0, pro: 1, enterprise: 0 }, billableRequests: 1, costUsd: 0.032 },
      });
    const { user } = await setup();
    await chooseType(user, 'dentist');
    await user.type(screen.getByLabelText('Location'), 'Houston, TX');
    await user.click(screen.getByRole('radio', { name: /Full area/ }));
    await user.type(screen.getByLabelText('Stop at (USD)'), '10');
    await user.click(screen.getByRole('button', { name: 'Estimate cost' }));
    expect(await screen.findByText('About 1,500 dentists, about $2.70 on your Google key, about 30 s.')).toBeInTheDocument();
    expect(screen.queryByText(/rough estimate/)).not.toBeInTheDocument();
    const [, init] = fetchMock.mock.calls.find(([url]) => url === '/api/leads/estimate')!;
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toEqual({ businessType: 'dentist', location: 'Houston, TX', coverage: 'full', maxCostUsd: 10 });

    // Another search than the one estimated: the figures go.
    await user.type(screen.getByLabelText('Location'), ' North');
    expect(screen.queryByText(/About 1,500 dentists/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Estimate cost' })).toBeEnabled();
  });

  it("warns before a search that today's lead allowance would stop (issue #26 item 1)", async () => {
    const warning = "Today's allowance leaves 880 leads: this search would stop at 880 of about 1,500. It resets at midnight UTC.";
    estimate = () =>
      jsonResponse({
        estimatedLeads: 1500,
        estimatedCostUsd: 2.7,
        estimatedSeconds: 29.6,
        requests: { idsOnly: 300, pro: 1, enterprise: 75 },
        billableRequests: 76,
        exact: true,
        spent: { requests: { idsOnly: 0, pro: 1, enterprise: 0 }, billableRequests: 1, costUsd: 0.032 },
        leadsLeftToday: 880,
        allowanceWarning: warning,
      });
    const { user } = await setup();
    await chooseType(user, 'dentist');
    await user.type(screen.getByLabelText('Location'), 'Houston, TX');
    await user.click(screen.getByRole('radio', { name: /Full area/ }));
    await user.click(screen.getByRole('button', { name: 'Estimate cost' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(warning);
  });

  it('says when the estimate is rough, and shows a refusal in words', async () => {
    estimate = () =>
      jsonResponse({
        estimatedLeads: 12345,
        estimatedCostUsd: 31.456,
        estimatedSeconds: 600,
        requests: { idsOnly: 80, pro: 1, enterprise: 600 },
        billableRequests: 601,
        exact: false,
        spent: { requests: { idsOnly: 0, pro: 0, enterprise: 0 }, billableRequests: 0, costUsd: 0 },
      });
    const { user } = await setup();
    await chooseType(user, 'restaurant');
    await user.type(screen.getByLabelText('Location'), 'Houston, TX');
    await user.click(screen.getByRole('radio', { name: /Full area/ }));
    await user.click(screen.getByRole('button', { name: 'Estimate cost' }));
    expect(await screen.findByText('About 12,345 restaurants, about $31.46 on your Google key, about 10 min.')).toBeInTheDocument();
    expect(screen.getByText(/This is a rough estimate/)).toBeInTheDocument();

    estimate = () => jsonResponse({ error: 'invalid_location', message: 'Google could not place "Atlantis".' }, 400);
    await user.clear(screen.getByLabelText('Location'));
    await user.type(screen.getByLabelText('Location'), 'Atlantis');
    await user.click(screen.getByRole('button', { name: 'Estimate cost' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Google could not place "Atlantis".');
  });

  it('offers no estimate without an API key', async () => {
    const { user } = await setup({ hasApiKey: false });
    await chooseType(user, 'dentist');
    await user.type(screen.getByLabelText('Location'), 'Austin');
    await user.click(screen.getByRole('radio', { name: /Full area/ }));
    expect(screen.getByRole('button', { name: 'Estimate cost' })).toBeDisabled();
  });
});

describe('SearchForm business types loading and failure', () => {
  it("says 'Loading business types...' in a disabled select until the catalogue answers", async () => {
    let release!: () => void;
    businessTypes = () => new Promise<Response>((resolve) => (release = () => resolve(jsonResponse(catalogue))));
    await setup({}, { waitForTypes: false });
    expect(typeSelect()).toBeDisabled();
    expect(typeSelect()).toHaveAttribute('aria-busy', 'true');
    expect(within(typeSelect()).getAllByRole('option').map((o) => o.textContent)).toEqual(['Loading business types...']);
    expect(screen.getByRole('button', { name: 'Search' })).toBeDisabled();

    release();
    await waitFor(() => expect(typeSelect().tagName).toBe('INPUT'));
    expect(typeSelect()).toBeEnabled();
    expect(typeSelect()).not.toHaveAttribute('aria-busy');
    expect(screen.queryByText('Loading business types...')).not.toBeInTheDocument();
  });

  it("a failed read says so with a Retry button, offers no types, and Retry loads them", async () => {
    businessTypes = () => new Response('', { status: 500, statusText: 'Internal Server Error' });
    const { user } = await setup({}, { waitForTypes: false });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load business types');
    expect(typeSelect()).toBeDisabled();
    expect(typeSelect()).toHaveAccessibleDescription('Failed to load business types Retry');
    expect(screen.queryByRole('option', { name: 'Dentist' })).not.toBeInTheDocument();
    expect(catalogueCalls()).toBe(1);

    let release!: () => void;
    businessTypes = () => new Promise<Response>((resolve) => (release = () => resolve(jsonResponse(catalogue))));
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    // Retrying is loading again: no stale failure meanwhile.
    await waitFor(() => expect(screen.getByText('Loading business types...')).toBeInTheDocument());
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    release();

    await waitFor(() => expect(typeSelect().tagName).toBe('INPUT'));
    expect(typeSelect()).toBeEnabled();
    expect(catalogueCalls()).toBe(2);
    expect(typeSelect()).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
  });

  it("a failure with the server's own text shows that text", async () => {
    businessTypes = () => jsonResponse({ error: 'unauthorized', message: 'Session expired' }, 401);
    await setup({}, { waitForTypes: false });
    expect(await screen.findByRole('alert')).toHaveTextContent('Session expired');
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('starts from a history entry\'s fields ("Run again") and sends the same search', async () => {
    const initial = searchQueryFromHistory({
      businessType: 'dentist',
      location: 'Austin, TX',
      coverage: 'full',
      options: { coverage: 'full', max_cost_usd: 3, filters: { minRating: 4, minReviews: 20, website: 'without', phone: 'any' } },
    });
    expect(initial).toEqual({ businessType: 'dentist', location: 'Austin, TX', coverage: 'full', maxCostUsd: 3, minRating: 4, minReviews: 20, website: 'without' });
    const { onSearch, user } = await setup({ initial });
    expect(typeSelect()).toHaveValue('Dentist');
    expect(screen.getByLabelText('Location')).toHaveValue('Austin, TX');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(onSearch).toHaveBeenCalledWith(initial);
  });
});


describe('SearchForm client label (issue #28 item 7)', () => {
  it('asks for the labels only when the field is focused, offers them, and sends the trimmed label', async () => {
    const clients = () => fetchMock.mock.calls.filter(([url]) => url === '/api/leads/clients').length;
    fetchMock.mockImplementation(async (url: string) => {
      if (url === '/api/leads/business-types') return businessTypes();
      if (url === '/api/leads/clients') return jsonResponse({ clients: ['Acme Dental', 'Smile Co'] });
      return jsonResponse({ error: 'not_found' }, 404);
    });
    const { onSearch, user } = await setup();
    expect(clients()).toBe(0);
    await chooseType(user, 'dentist');
    await user.type(screen.getByLabelText('Location'), 'Houston, TX');
    const field = screen.getByRole('combobox', { name: 'Client' });
    await user.type(field, '  Smile Co ');
    await waitFor(() => expect(clients()).toBe(1));
    const list = document.getElementById(field.getAttribute('list') ?? '') as HTMLDataListElement;
    await waitFor(() => expect([...list.options].map((o) => o.value)).toEqual(['Acme Dental', 'Smile Co']));
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(onSearch).toHaveBeenCalledWith({ businessType: 'dentist', location: 'Houston, TX', client: 'Smile Co' });
  });

  it('"Run again" keeps the client a history entry was run for', () => {
    expect(
      searchQueryFromHistory({ businessType: 'dentist', location: 'Austin, TX', coverage: 'quick', options: {}, client: 'Smile Co' }),
    ).toEqual({ businessType: 'dentist', location: 'Austin, TX', client: 'Smile Co' });
  });
});
