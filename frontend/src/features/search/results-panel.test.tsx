import { fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Lead } from '../../lib/lead';
import { ResultsPanel, VIRTUALIZE_ABOVE, windowSpace } from './results-panel';

const leads = (n: number): Lead[] =>
  Array.from({ length: n }, (_, i) => ({
    name: `Dentist ${i + 1}`,
    address: `${i + 1} Main St, Houston, TX`,
    phone: i % 2 ? '+1 713 555 0100' : '',
    website: i % 3 ? `https://www.dentist${i + 1}.example/` : '',
    placeId: `p${i + 1}`,
    ...(i % 4 ? { rating: 4.25, reviewCount: i } : {}),
  }));

const bodyRows = () => within(screen.getByRole('table', { name: 'Leads found' })).getAllByRole('row').slice(1);

afterEach(() => vi.restoreAllMocks());

describe('ResultsPanel', () => {
  it('renders every row of a small result, with the columns as before', () => {
    render(<ResultsPanel results={leads(3)} typeLabel="Dentist" location="Austin" />);
    expect(screen.getByRole('heading', { name: 'Found 3 leads' })).toBeInTheDocument();
    const rows = bodyRows();
    expect(rows).toHaveLength(3);
    expect(within(rows[1]).getAllByRole('cell').map((c) => c.textContent)).toEqual([
      'Dentist 2',
      '2 Main St, Houston, TX',
      '+1 713 555 0100',
      'dentist2.example',
      '4.3',
      '1',
      'Map',
    ]);
    expect(within(rows[0]).getAllByRole('cell').map((c) => c.textContent)).toEqual(['Dentist 1', '1 Main St, Houston, TX', '—', '—', '—', '—', 'Map']);
    expect(screen.getByRole('table')).toHaveAttribute('aria-rowcount', '4');
  });

  it('an enriched search adds Email and Profiles columns, with mailto and profile links', () => {
    const [a, b] = leads(2);
    const results: Lead[] = [
      { ...a, contacts: { emails: ['hi@d1.example', 'desk@d1.example'], socials: { instagram: 'https://www.instagram.com/d1' } } },
      { ...b, contacts: { emails: [], socials: {} } },
    ];
    render(<ResultsPanel results={results} typeLabel="Dentist" location="Austin" enriched />);
    expect(screen.getByRole('columnheader', { name: 'Email' })).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Profiles' })).toBeInTheDocument();
    const [first, second] = bodyRows();
    expect(within(first).getByRole('link', { name: 'hi@d1.example' })).toHaveAttribute('href', 'mailto:hi@d1.example');
    expect(within(first).getByRole('link', { name: 'desk@d1.example' })).toBeInTheDocument();
    expect(within(first).getByRole('link', { name: 'Instagram' })).toHaveAttribute('href', 'https://www.instagram.com/d1');
    expect(within(second).getAllByRole('cell').slice(-3, -1).map((c) => c.textContent)).toEqual(['—', '—']);
  });

  it('a lead without emails says how its website read went (issue #26 item 4)', () => {
    const [a, b, c] = leads(3);
    const results: Lead[] = [
      { ...a, contacts: { emails: [], socials: {}, status: 'not_read', reason: 'timed_out' } },
      { ...b, contacts: { emails: [], socials: {}, status: 'none' } },
      { ...c, website: '', contacts: { emails: [], socials: {}, status: 'no_website' } },
    ];
    render(<ResultsPanel results={results} typeLabel="Dentist" location="Austin" enriched />);
    const text = bodyRows().map((row) => row.textContent ?? '');
    expect(text[0]).toContain('Not read: timed out');
    expect(text[1]).toContain('None found');
    expect(text[2]).toContain('No website');
  });

  it('3,000 leads: only a window of rows is in the page, yet the table reports them all', () => {
    // jsdom has no layout: the scroll box is 576 px high (36rem); rows keep their 45 px estimate.
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
      return this.getAttribute('role') === 'region' ? 576 : 0;
    });
    const all = leads(3000);
    render(<ResultsPanel results={all} typeLabel="Dentist" location="Houston, TX" />);
    expect(screen.getByRole('heading', { name: 'Found 3,000 leads' })).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Leads found' });
    expect(table).toHaveAttribute('aria-rowcount', '3001');
    const rows = bodyRows();
    // 576 / 45 rows in view, and the overscan below.
    expect(rows.length).toBeGreaterThanOrEqual(13);
    expect(rows.length).toBeLessThan(VIRTUALIZE_ABOVE / 2);
    // The first rows, numbered from 2 (the header is row 1).
    expect(rows[0]).toHaveAttribute('aria-rowindex', '2');
    expect(within(rows[0]).getAllByRole('cell')[0]).toHaveTextContent('Dentist 1');
    // The rest is room to scroll into, hidden from assistive technology.
    expect(table.querySelector('tr[data-spacer]')).toHaveAttribute('aria-hidden', 'true');
    expect(screen.getByRole('region', { name: 'Leads' })).toHaveAttribute('tabindex', '0');
  });

  it('links a website or profile only when it is http or https (issue #25 item 10)', () => {
    const [a, b] = leads(2);
    const results: Lead[] = [
      {
        ...a,
        website: 'javascript:alert(1)',
        contacts: { emails: [], socials: { facebook: 'javascript:alert(1)', instagram: 'https://www.instagram.com/d1' } },
      },
      { ...b, website: 'http://dentist2.example/' },
    ];
    render(<ResultsPanel results={results} typeLabel="Dentist" location="Austin" enriched />);
    const [first, second] = bodyRows();
    const cells = within(first).getAllByRole('cell');
    // Shown as the text it came as, not as a link.
    expect(cells[3]).toHaveTextContent('javascript:alert(1)');
    expect(within(cells[3]).queryByRole('link')).toBeNull();
    expect(within(first).queryByRole('link', { name: 'Facebook' })).toBeNull();
    expect(cells[7]).toHaveTextContent('javascript:alert(1)');
    expect(within(first).getByRole('link', { name: 'Instagram' })).toHaveAttribute('href', 'https://www.instagram.com/d1');
    for (const link of screen.getAllByRole('link')) expect(link.getAttribute('href')).not.toMatch(/^javascript:/i);
    expect(within(second).getByRole('link', { name: 'dentist2.example' })).toHaveAttribute('href', 'http://dentist2.example/');
  });

  it('on a phone, 1,500 leads in a box with no height yet still reserve their height, so the box grows and shows them (issue #26 item 3)', () => {
    // A phone-wide viewport: `(min-width: 48rem)` does not match.
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: false, media: query, addEventListener: () => {}, removeEventListener: () => {} }));
    try {
      render(<ResultsPanel results={leads(1500)} typeLabel="Dentist" location="Houston, TX" />);
      expect(screen.queryByRole('table')).toBeNull();
      const list = screen.getByRole('list', { name: 'Leads found' });
      // jsdom lays nothing out: the scroll box is 0 px high and no card is in view. The
      // list still holds the height of all 1,500 cards (104 px estimated each), which is
      // what gives the box its height in a browser.
      expect(list.style.paddingTop).toBe('0px');
      expect(list.style.paddingBottom).toBe(`${1500 * 104}px`);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('windowSpace: the room above and below the rendered rows is all the rest, the whole list when none is rendered', () => {
    expect(windowSpace([], 156_000)).toEqual({ before: 0, after: 156_000 });
    expect(windowSpace([{ start: 0, end: 104 }, { start: 104, end: 208 }], 156_000)).toEqual({ before: 0, after: 155_792 });
    expect(windowSpace([{ start: 1040, end: 1144 }], 1144)).toEqual({ before: 1040, after: 0 });
  });

  it('says what the search cost, with or without results', () => {
    const cost = { requests: { idsOnly: 300, pro: 1, enterprise: 75 }, billableRequests: 76, costUsd: 2.695 };
    const { rerender } = render(<ResultsPanel results={leads(2)} typeLabel="Dentist" location="Austin" cost={cost} />);
    expect(screen.getByText('This search cost $2.70 on your Google key (76 billable requests)')).toBeInTheDocument();
    rerender(<ResultsPanel results={[]} typeLabel="Dentist" location="Austin" cost={{ ...cost, billableRequests: 1, costUsd: 0.035 }} />);
    expect(screen.getByRole('heading', { name: 'No results found' })).toBeInTheDocument();
    expect(screen.getByText('This search cost $0.04 on your Google key (1 billable request)')).toBeInTheDocument();
  });

  it("says how much of Google's count of the area it found, when Google counted (issue #30 item 3)", () => {
    const { rerender } = render(
      <ResultsPanel results={leads(2)} typeLabel="Dentist" location="Austin" completeness={{ found: 1487, expected: 1500, source: 'google_aggregate' }} />,
    );
    expect(screen.getByText("Found 1,487 of about 1,500 dentists here, by Google's count")).toBeInTheDocument();
    rerender(<ResultsPanel results={leads(2)} typeLabel="Dentist" location="Austin" completeness={null} />);
    expect(screen.queryByText(/by Google's count/)).not.toBeInTheDocument();
  });

  it('a running search: the table fills as leads arrive, keeps its place, and sorts meanwhile (issue #26 item 6)', () => {
    const all = leads(3000);
    Object.defineProperty(HTMLElement.prototype, 'scrollTo', {
      configurable: true,
      value(this: HTMLElement, options: ScrollToOptions) {
        this.scrollTop = options.top ?? this.scrollTop;
      },
    });
    const view = (n: number) => <ResultsPanel live results={all.slice(0, n)} typeLabel="Dentist" location="Austin" keptMinutes={10} />;
    const { rerender } = render(view(0));
    expect(screen.queryByRole('table')).toBeNull();
    rerender(view(40));
    expect(screen.getByRole('heading', { name: 'Leads so far: 40 leads' })).toBeInTheDocument();
    expect(bodyRows()).toHaveLength(40);
    // Nothing about a finished search's results while it runs.
    expect(screen.queryByText(/Results are kept/)).toBeNull();
    rerender(view(2000));
    const region = screen.getByRole('region', { name: 'Leads' });
    region.scrollTop = 900;
    rerender(view(3000));
    expect(screen.getByRole('table')).toHaveAttribute('aria-rowcount', '3001');
    expect(region.scrollTop).toBe(900);
    fireEvent.click(screen.getByRole('button', { name: 'Name' }));
    expect(screen.getByRole('columnheader', { name: 'Name' })).toHaveAttribute('aria-sort', 'ascending');
    expect(region.scrollTop).toBe(0);
  });
});
