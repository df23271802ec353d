import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BusinessTypesResponse } from '../../api/gen/model/businessTypesResponse';
import { jsonResponse, renderWithProviders } from '../../test/render';
import { SearchForm } from './search-form';

/** A slice of the server's catalogue, labels as `GET /api/leads/business-types` sends them. */
const catalogue: BusinessTypesResponse = {
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
      label: 'Technology & IT',
      types: [
        { value: 'electronics_store', label: 'Electronics Store', textOnly: false },
        { value: 'store', label: 'Computer/Phone Repair', textOnly: false },
      ],
    },
  ],
};

type Answer = () => Response | Promise<Response>;
let businessTypes: Answer;
let fetchMock: ReturnType<typeof vi.fn>;

beforeEach(() => {
  businessTypes = () => jsonResponse(catalogue);
  fetchMock = vi.fn(async (url: string) =>
    url === '/api/leads/business-types' ? businessTypes() : jsonResponse({ error: 'not_found' }, 404),
  );
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

const typeSelect = () => screen.getByLabelText('Business type');
const catalogueCalls = () => fetchMock.mock.calls.filter(([url]) => url === '/api/leads/business-types').length;

async function setup(props: Partial<Parameters<typeof SearchForm>[0]> = {}, { waitForTypes = true } = {}) {
  const onSearch = vi.fn();
  await renderWithProviders(<SearchForm hasApiKey isSearching={false} onSearch={onSearch} {...props} />);
  if (waitForTypes) await screen.findByRole('option', { name: 'Dentist' });
  return { onSearch, user: userEvent.setup() };
}

describe('SearchForm', () => {
  it('enables Search only once a type and a location are given, and sends the trimmed location', async () => {
    const { onSearch, user } = await setup();
    const button = screen.getByRole('button', { name: 'Search' });
    expect(button).toBeDisabled();
    await user.selectOptions(typeSelect(), 'dentist');
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
    await user.selectOptions(typeSelect(), 'cafe');
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
    await setup();
    const tech = screen.getByRole('group', { name: 'Technology & IT' });
    expect(within(tech).getAllByRole('option').map((o) => o.textContent)).toEqual(['Electronics Store', 'Computer/Phone Repair']);
    const food = screen.getByRole('group', { name: 'Food & Dining' });
    expect(within(food).getByRole('option', { name: 'Meal Takeaway' })).toHaveValue('meal_takeaway');
    expect(screen.getByRole('option', { name: 'Veterinary Care' })).toHaveValue('veterinary_care');
    expect(screen.getAllByRole('group').map((g) => g.getAttribute('label'))).toEqual([
      'Food & Dining',
      'Health & Medical',
      'Technology & IT',
    ]);
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
    expect(await screen.findByRole('option', { name: 'Dentist' })).toBeInTheDocument();
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

    expect(await screen.findByRole('option', { name: 'Dentist' })).toBeInTheDocument();
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
});
