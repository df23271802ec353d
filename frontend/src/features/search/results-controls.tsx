import { useId } from 'react';
import { Button } from '../../components/ui/button';
import { Input, Label, Select } from '../../components/ui/field';
import { FIRST_DIRECTION, isFiltering, NO_FILTER, SORT_LABELS, type LeadFilter, type LeadSort, type SortDirection, type SortKey } from './lead-view';
import { MIN_RATING_CHOICES } from './search-options';

export interface ResultsControlsProps {
  filter: LeadFilter;
  onFilter: (filter: LeadFilter) => void;
  sort: LeadSort;
  onSort: (sort: LeadSort) => void;
  /** The search read websites: a "Has email" box, and Email among the sorts. */
  enriched: boolean;
  /** Phones have no column headers to click: a "Sort by" select instead. */
  sortSelect: boolean;
  shown: number;
  total: number;
}

const TEXT_DIRECTIONS: Record<SortDirection, string> = { ascending: 'A to Z', descending: 'Z to A' };
const NUMBER_DIRECTIONS: Record<SortDirection, string> = { ascending: 'low to high', descending: 'high to low' };

/** The "Sort by" choices: the search's order, then each column both ways, its first way first. */
function sortChoices(enriched: boolean): Array<{ value: string; label: string }> {
  const keys = (Object.keys(SORT_LABELS) as SortKey[]).filter((key) => enriched || key !== 'email');
  return [
    { value: '', label: 'Search order' },
    ...keys.flatMap((key) => {
      const words = key === 'rating' || key === 'reviews' ? NUMBER_DIRECTIONS : TEXT_DIRECTIONS;
      const first = FIRST_DIRECTION[key];
      const other: SortDirection = first === 'ascending' ? 'descending' : 'ascending';
      return [first, other].map((direction) => ({ value: `${key}:${direction}`, label: `${SORT_LABELS[key]}, ${words[direction]}` }));
    }),
  ];
}

function parseSort(value: string): LeadSort {
  const [key, direction] = value.split(':') as [SortKey, SortDirection];
  return value ? { key, direction } : null;
}

/**
 * Above the results: find text, a minimum rating, has website / phone / email, and on a
 * phone the sort. Filters narrow what is shown; the exports keep every lead found.
 */
export function ResultsControls({ filter, onFilter, sort, onSort, enriched, sortSelect, shown, total }: ResultsControlsProps) {
  const id = useId();
  const change = (part: Partial<LeadFilter>) => onFilter({ ...filter, ...part });
  const filtering = isFiltering(filter);
  const box = (key: 'hasWebsite' | 'hasPhone' | 'hasEmail', label: string) => (
    <div className="flex items-center gap-2">
      <input
        id={`${id}-${key}`}
        type="checkbox"
        className="size-4 rounded border-slate-300 text-indigo-600 focus:ring-indigo-600"
        checked={filter[key]}
        onChange={(event) => change({ [key]: event.target.checked })}
      />
      <label htmlFor={`${id}-${key}`} className="text-sm text-slate-800">
        {label}
      </label>
    </div>
  );

  return (
    <div role="group" aria-label="Filter the results" className="border-b border-slate-200 px-6 py-4">
      <div className="flex flex-wrap items-end gap-x-4 gap-y-3">
        <div className="w-full sm:w-64">
          <Label htmlFor={`${id}-text`}>Find in results</Label>
          <Input
            id={`${id}-text`}
            type="search"
            className="mt-1.5"
            placeholder="Name, address, phone, website..."
            value={filter.text}
            onChange={(event) => change({ text: event.target.value })}
            autoComplete="off"
          />
        </div>
        <div className="w-[calc(50%-0.5rem)] sm:w-40">
          <Label htmlFor={`${id}-rating`}>Rated at least</Label>
          <Select
            id={`${id}-rating`}
            className="mt-1.5"
            value={filter.minRating ? String(filter.minRating) : ''}
            onChange={(event) => change({ minRating: Number(event.target.value) || 0 })}
          >
            {MIN_RATING_CHOICES.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </Select>
        </div>
        {sortSelect && (
          <div className="w-[calc(50%-0.5rem)] sm:w-56">
            <Label htmlFor={`${id}-sort`}>Sort by</Label>
            <Select
              id={`${id}-sort`}
              className="mt-1.5"
              value={sort ? `${sort.key}:${sort.direction}` : ''}
              onChange={(event) => onSort(parseSort(event.target.value))}
            >
              {sortChoices(enriched).map((choice) => (
                <option key={choice.value} value={choice.value}>
                  {choice.label}
                </option>
              ))}
            </Select>
          </div>
        )}
        <div className="flex flex-wrap gap-x-4 gap-y-2 pb-2.5">
          {box('hasWebsite', 'Has website')}
          {box('hasPhone', 'Has phone')}
          {enriched && box('hasEmail', 'Has email')}
        </div>
      </div>
      <div className={filtering ? 'mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-600' : undefined}>
        <p aria-live="polite">
          {filtering
            ? `Showing ${shown.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} leads. Exports include all ${total.toLocaleString('en-US')}.`
            : ''}
        </p>
        {filtering && (
          <Button variant="ghost" size="sm" onClick={() => onFilter(NO_FILTER)}>
            Clear filters
          </Button>
        )}
      </div>
    </div>
  );
}
