import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Lead } from '../../lib/lead';
import { ResultsPanel } from './results-panel';

// The table agencies expect (issue #26 item 7): sort by any column, filter, a Google Maps
// link per row, the search's filters as chips.

const leads: Lead[] = [
  { name: 'Bright Smiles', address: '2 Oak St', phone: '(512) 555-0102', website: 'https://bright.example/', placeId: 'b', rating: 4.1, reviewCount: 80 },
  { name: 'apex dental', address: '1 Elm St', phone: '', website: 'https://apex.example/', placeId: 'a', rating: 4.9, reviewCount: 12, contacts: { emails: ['desk@apex.example'], socials: {} } },
  { name: 'Cedar Dentistry', address: '3 Pine St', phone: '(512) 555-0103', website: '', placeId: 'c' },
];

const table = () => screen.getByRole('table', { name: 'Leads found' });
const firstCells = () =>
  within(table())
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0].textContent);

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('ResultsPanel: sorting', () => {
  it('sorts by a column when its header is clicked: first way, other way, then the search order; aria-sort follows', async () => {
    const user = userEvent.setup();
    render(<ResultsPanel results={leads} typeLabel="Dentist" location="Austin" />);
    const nameHeader = screen.getByRole('columnheader', { name: 'Name' });
    expect(nameHeader).not.toHaveAttribute('aria-sort');

    await user.click(within(nameHeader).getByRole('button', { name: 'Name' }));
    expect(firstCells()).toEqual(['apex dental', 'Bright Smiles', 'Cedar Dentistry']);
    expect(nameHeader).toHaveAttribute('aria-sort', 'ascending');

    await user.click(within(nameHeader).getByRole('button', { name: 'Name' }));
    expect(firstCells()).toEqual(['Cedar Dentistry', 'Bright Smiles', 'apex dental']);
    expect(nameHeader).toHaveAttribute('aria-sort', 'descending');

    await user.click(within(nameHeader).getByRole('button', { name: 'Name' }));
    expect(firstCells()).toEqual(['Bright Smiles', 'apex dental', 'Cedar Dentistry']);
    expect(nameHeader).not.toHaveAttribute('aria-sort');
  });

  it('sorts from the keyboard, ratings high to low first, one column sorted at a time', async () => {
    const user = userEvent.setup();
    render(<ResultsPanel results={leads} typeLabel="Dentist" location="Austin" />);
    screen.getByRole('button', { name: 'Rating' }).focus();
    await user.keyboard('{Enter}');
    expect(firstCells()).toEqual(['apex dental', 'Bright Smiles', 'Cedar Dentistry']);
    expect(screen.getByRole('columnheader', { name: 'Rating' })).toHaveAttribute('aria-sort', 'descending');
    // Focus stays on the header, so the next press reverses it.
    expect(screen.getByRole('button', { name: 'Rating' })).toHaveFocus();
    await user.keyboard(' ');
    // Unrated last either way.
    expect(firstCells()).toEqual(['Bright Smiles', 'apex dental', 'Cedar Dentistry']);
    expect(screen.getByRole('columnheader', { name: 'Rating' })).toHaveAttribute('aria-sort', 'ascending');

    await user.click(screen.getByRole('button', { name: 'Phone' }));
    expect(screen.getByRole('columnheader', { name: 'Rating' })).not.toHaveAttribute('aria-sort');
    expect(screen.getByRole('columnheader', { name: 'Phone' })).toHaveAttribute('aria-sort', 'ascending');
    for (const name of ['Address', 'Website', 'Reviews']) expect(screen.getByRole('button', { name })).toBeInTheDocument();
  });

  it('on a phone (no headers) sorts with a "Sort by" select', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: false, media: query, addEventListener: () => {}, removeEventListener: () => {} }));
    const user = userEvent.setup();
    render(<ResultsPanel results={leads} typeLabel="Dentist" location="Austin" />);
    expect(screen.queryByRole('table')).toBeNull();
    await user.selectOptions(screen.getByLabelText('Sort by'), 'Reviews, high to low');
    const names = within(screen.getByRole('list', { name: 'Leads found' }))
      .getAllByRole('listitem')
      .map((li) => li.querySelector('p')?.textContent);
    expect(names).toEqual(['Bright Smiles', 'apex dental', 'Cedar Dentistry']);
  });
});

describe('ResultsPanel: filtering', () => {
  it('filters by text, minimum rating, website and phone, says how many are shown, and clears', async () => {
    const user = userEvent.setup();
    render(<ResultsPanel results={leads} typeLabel="Dentist" location="Austin" />);
    const controls = screen.getByRole('group', { name: 'Filter the results' });

    await user.type(within(controls).getByLabelText('Find in results'), 'OAK');
    expect(firstCells()).toEqual(['Bright Smiles']);
    expect(controls).toHaveTextContent('Showing 1 of 3 leads. Exports include all 3.');
    await user.clear(within(controls).getByLabelText('Find in results'));

    await user.selectOptions(within(controls).getByLabelText('Rated at least'), '4.5+ stars');
    expect(firstCells()).toEqual(['apex dental']);
    await user.selectOptions(within(controls).getByLabelText('Rated at least'), 'Any rating');

    await user.click(within(controls).getByLabelText('Has website'));
    expect(firstCells()).toEqual(['Bright Smiles', 'apex dental']);
    await user.click(within(controls).getByLabelText('Has phone'));
    expect(firstCells()).toEqual(['Bright Smiles']);
    // Has email is only for a search that read websites.
    expect(within(controls).queryByLabelText('Has email')).toBeNull();

    await user.type(within(controls).getByLabelText('Find in results'), 'nothing like it');
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByText('No leads match these filters.')).toBeInTheDocument();
    await user.click(within(controls).getByRole('button', { name: 'Clear filters' }));
    expect(firstCells()).toEqual(['Bright Smiles', 'apex dental', 'Cedar Dentistry']);
    expect(within(controls).getByLabelText('Has phone')).not.toBeChecked();
  });

  it('filters an enriched search by email, and finds text in emails', async () => {
    const user = userEvent.setup();
    render(<ResultsPanel results={leads} typeLabel="Dentist" location="Austin" enriched />);
    await user.click(screen.getByLabelText('Has email'));
    expect(firstCells()).toEqual(['apex dental']);
    await user.click(screen.getByLabelText('Has email'));
    await user.type(screen.getByLabelText('Find in results'), 'desk@');
    expect(firstCells()).toEqual(['apex dental']);
  });

  it('sorts and filters 3,000 leads, rendering only a window of them', async () => {
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
      return this.getAttribute('role') === 'region' ? 576 : 0;
    });
    const many: Lead[] = Array.from({ length: 3000 }, (_, i) => ({
      name: `Dentist ${String(i).padStart(4, '0')}`,
      address: `${i} Main St`,
      phone: i % 2 ? '+1 713 555 0100' : '',
      website: '',
      placeId: `p${i}`,
      rating: (i % 50) / 10,
      reviewCount: i,
    }));
    const user = userEvent.setup();
    render(<ResultsPanel results={many} typeLabel="Dentist" location="Houston, TX" />);
    await user.click(screen.getByRole('button', { name: 'Name' }));
    await user.click(screen.getByRole('button', { name: 'Name' }));
    expect(firstCells()[0]).toBe('Dentist 2999');
    expect(firstCells().length).toBeLessThan(60);

    await user.click(screen.getByLabelText('Has phone'));
    await user.selectOptions(screen.getByLabelText('Rated at least'), '4.5+ stars');
    // Odd indexes with a rating of 4.5 to 4.9: i % 50 in 45..49, odd: 3 of every 50.
    expect(table()).toHaveAttribute('aria-rowcount', String(180 + 1));
    expect(screen.getByText('Showing 180 of 3,000 leads. Exports include all 3,000.')).toBeInTheDocument();
    expect(firstCells()[0]).toBe('Dentist 2999');
    expect(firstCells().length).toBeLessThan(60);
  });
});

describe('ResultsPanel: Google Maps, search filters', () => {
  it('links each lead to Google Maps by name and place id', () => {
    render(<ResultsPanel results={leads} typeLabel="Dentist" location="Austin" />);
    const link = screen.getByRole('link', { name: 'Map of Bright Smiles' });
    expect(link).toHaveAttribute('href', 'https://www.google.com/maps/search/?api=1&query=Bright%20Smiles&query_place_id=b');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noreferrer noopener');
  });

  it('shows the filters the search ran with as chips, and says the leads match them', () => {
    const { rerender } = render(<ResultsPanel results={leads} typeLabel="Dentist" location="Austin" />);
    expect(screen.getByRole('heading', { name: 'Found 3 leads' })).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Search filters' })).toBeNull();
    rerender(<ResultsPanel results={leads} typeLabel="Dentist" location="Austin" searchFilters={['4+ stars', 'Has a website']} />);
    expect(screen.getByRole('heading', { name: 'Found 3 leads matching your filters' })).toBeInTheDocument();
    const chips = within(screen.getByRole('list', { name: 'Search filters' })).getAllByRole('listitem');
    expect(chips.map((chip) => chip.textContent)).toEqual(['4+ stars', 'Has a website']);
    rerender(<ResultsPanel results={[]} typeLabel="Dentist" location="Austin" searchFilters={['4+ stars']} />);
    expect(within(screen.getByRole('list', { name: 'Search filters' })).getByRole('listitem')).toHaveTextContent('4+ stars');
  });
});

describe('ResultsPanel: focus after a search (issue #26 item 9)', () => {
  it('takes the focus to its heading when asked, found or not', () => {
    const { unmount } = render(<ResultsPanel results={leads} typeLabel="Dentist" location="Austin" focusOnArrival />);
    expect(screen.getByRole('heading', { name: 'Found 3 leads' })).toHaveFocus();
    unmount();
    render(<ResultsPanel results={[]} typeLabel="Dentist" location="Austin" focusOnArrival />);
    expect(screen.getByRole('heading', { name: 'No results found' })).toHaveFocus();
  });

  it('leaves the focus alone when not asked, or when the user is typing elsewhere', () => {
    const { unmount } = render(<ResultsPanel results={leads} typeLabel="Dentist" location="Austin" />);
    expect(document.body).toHaveFocus();
    unmount();
    const field = document.createElement('input');
    document.body.append(field);
    field.focus();
    render(<ResultsPanel results={leads} typeLabel="Dentist" location="Austin" focusOnArrival />);
    expect(field).toHaveFocus();
    field.remove();
  });
});

describe('ResultsPanel: how long the results are kept (issue #26 item 2)', () => {
  it('says so above the results when the server said, beside the exports', () => {
    const { rerender } = render(<ResultsPanel results={leads} typeLabel="Dentist" location="Austin" actions={<button type="button">Download CSV</button>} />);
    expect(screen.queryByText(/Results are kept/)).toBeNull();
    rerender(<ResultsPanel results={leads} typeLabel="Dentist" location="Austin" keptMinutes={10} actions={<button type="button">Download CSV</button>} />);
    expect(screen.getByText('Results are kept for 10 minutes: export them now.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download CSV' })).toBeInTheDocument();
  });
});

describe('ResultsPanel: new places (issue #29 item 7)', () => {
  it('says how many were new of how many found and marks every lead of an exclude run New', () => {
    render(<ResultsPanel results={leads} typeLabel="Dentists" location="Austin" newOfFound={{ newCount: 3, foundCount: 40 }} />);
    expect(screen.getByText('3 new of 40 found')).toBeInTheDocument();
    expect(within(table()).getAllByText('New')).toHaveLength(3);
  });

  it('marks nothing New for a search without an exclusion', () => {
    render(<ResultsPanel results={leads} typeLabel="Dentists" location="Austin" />);
    expect(screen.queryByText(/new of/)).toBeNull();
    expect(within(table()).queryAllByText('New')).toHaveLength(0);
  });
});
