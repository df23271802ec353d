import { type ReactNode, useState } from 'react';
import { useEstimateSearch, useListClients } from '../../api/gen/leads/leads';
import { Coverage } from '../../api/gen/model/coverage';
import type { Exclude } from '../../api/gen/model/exclude';
import { PhoneChoice } from '../../api/gen/model/phoneChoice';
import { WebsiteChoice } from '../../api/gen/model/websiteChoice';
import { Button } from '../../components/ui/button';
import { cn } from '../../components/ui/cn';
import { Hint, Input, Label, Select } from '../../components/ui/field';
import { Spinner } from '../../components/ui/spinner';
import type { SearchQuery } from '../../lib/lead';
import { estimateText } from './search-format';
import { CLIENT_MAX, EXCLUDE_CHOICES, MIN_RATING_CHOICES, narrowsEstimate, type SearchOptionErrors, type SearchOptions } from './search-options';

interface OptionsProps {
  idPrefix: string;
  options: SearchOptions;
  onChange: (change: Partial<SearchOptions>) => void;
  errors: SearchOptionErrors;
}

/** 'Quick: top 60' (default) or 'Full area': native radios, so arrow keys move between them. */
export function CoverageChoice({ idPrefix, options, onChange }: Omit<OptionsProps, 'errors'>) {
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-800">Coverage</legend>
      <div className="mt-1.5 grid gap-2 sm:grid-cols-2">
        <CoverageOption
          name={`${idPrefix}-coverage`}
          value={Coverage.quick}
          checked={options.coverage === Coverage.quick}
          onSelect={() => onChange({ coverage: Coverage.quick })}
          hint="One query: Google's 60 best matches. Quick and cheap."
        >
          Quick: top 60
        </CoverageOption>
        <CoverageOption
          name={`${idPrefix}-coverage`}
          value={Coverage.full}
          checked={options.coverage === Coverage.full}
          onSelect={() => onChange({ coverage: Coverage.full })}
          hint="Every match in the area, past Google's 60. Costs more on your key."
        >
          Full area
        </CoverageOption>
      </div>
    </fieldset>
  );
}

function CoverageOption({
  name,
  value,
  checked,
  onSelect,
  hint,
  children,
}: {
  name: string;
  value: Coverage;
  checked: boolean;
  onSelect: () => void;
  hint: string;
  children: ReactNode;
}) {
  const hintId = `${name}-${value}-hint`;
  return (
    <label
      className={cn(
        'flex cursor-pointer items-start gap-2 rounded-lg px-3 py-2.5 text-sm ring-1 ring-inset has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-600',
        checked ? 'bg-indigo-50 text-indigo-900 ring-indigo-300' : 'text-slate-700 ring-slate-300 hover:bg-slate-50',
      )}
    >
      <input
        type="radio"
        name={name}
        value={value}
        checked={checked}
        onChange={onSelect}
        aria-describedby={hintId}
        className="mt-0.5 accent-indigo-600"
      />
      <span>
        <span className="block font-medium">{children}</span>
        <span id={hintId} className="block text-xs text-slate-600">
          {hint}
        </span>
      </span>
    </label>
  );
}

/** "Stop at (USD)": the budget of a full search (`maxCostUsd`). */
export function BudgetField({ idPrefix, options, onChange, errors }: OptionsProps) {
  const id = `${idPrefix}-budget`;
  return (
    <div>
      <Label htmlFor={id}>Stop at (USD)</Label>
      <Input
        id={id}
        className="mt-1.5"
        type="number"
        inputMode="decimal"
        min="0"
        step="0.01"
        placeholder="No limit"
        value={options.maxCostUsd}
        onChange={(event) => onChange({ maxCostUsd: event.target.value })}
        aria-invalid={errors.maxCostUsd ? true : undefined}
        aria-describedby={`${id}-hint`}
      />
      {errors.maxCostUsd ? (
        <p id={`${id}-hint`} className="mt-1.5 text-xs text-red-700">
          {errors.maxCostUsd}
        </p>
      ) : (
        <Hint id={`${id}-hint`}>Optional: the search stops before spending more on your Google key.</Hint>
      )}
    </div>
  );
}

/**
 * "Client" (optional): the label an agency runs the search for; the workspace's labels are
 * offered as a datalist, asked for only when the field is first focused (the dashboard's
 * first load asks nothing more).
 */
export function ClientField({ idPrefix, options, onChange }: Omit<OptionsProps, 'errors'>) {
  const id = `${idPrefix}-client`;
  const [wanted, setWanted] = useState(false);
  const clients = useListClients({ query: { enabled: wanted, staleTime: 60_000 } });
  return (
    <div>
      <Label htmlFor={id}>Client</Label>
      <Input
        id={id}
        className="mt-1.5"
        list={`${id}-list`}
        maxLength={CLIENT_MAX}
        autoComplete="off"
        placeholder="None"
        value={options.client}
        onFocus={() => setWanted(true)}
        onChange={(event) => onChange({ client: event.target.value })}
        aria-describedby={`${id}-hint`}
      />
      <datalist id={`${id}-list`}>
        {clients.data?.clients.map((client) => (
          <option key={client} value={client} />
        ))}
      </datalist>
      <Hint id={`${id}-hint`}>Optional: who this search is for; history and usage group by it.</Hint>
    </div>
  );
}

/** The filters, for both coverages, folded away until wanted. */
export function SearchFilters({ idPrefix, options, onChange, errors }: OptionsProps) {
  const active = [options.minRating !== '', options.minReviews.trim() !== '', options.website !== WebsiteChoice.any, options.phone !== PhoneChoice.any].filter(Boolean).length;
  return (
    <details className="group rounded-lg ring-1 ring-slate-200 ring-inset" open={active > 0 || undefined}>
      <summary className="cursor-pointer rounded-lg px-3 py-2.5 text-sm font-medium text-slate-800 select-none hover:bg-slate-50">
        Filters{active > 0 && <span className="ml-1 text-slate-500">({active} set)</span>}
      </summary>
      <div className="grid gap-4 px-3 pt-1 pb-3 sm:grid-cols-2 lg:grid-cols-4">
        <div>
          <Label htmlFor={`${idPrefix}-rating`}>Minimum rating</Label>
          <Select id={`${idPrefix}-rating`} className="mt-1.5" value={options.minRating} onChange={(e) => onChange({ minRating: e.target.value })}>
            {MIN_RATING_CHOICES.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </Select>
        </div>
        <div>
          <Label htmlFor={`${idPrefix}-reviews`}>Minimum reviews</Label>
          <Input
            id={`${idPrefix}-reviews`}
            className="mt-1.5"
            type="number"
            inputMode="numeric"
            min="0"
            step="1"
            placeholder="Any"
            value={options.minReviews}
            onChange={(e) => onChange({ minReviews: e.target.value })}
            aria-invalid={errors.minReviews ? true : undefined}
            aria-describedby={errors.minReviews ? `${idPrefix}-reviews-error` : undefined}
          />
          {errors.minReviews && (
            <p id={`${idPrefix}-reviews-error`} className="mt-1.5 text-xs text-red-700">
              {errors.minReviews}
            </p>
          )}
        </div>
        <div>
          <Label htmlFor={`${idPrefix}-website`}>Website</Label>
          <Select
            id={`${idPrefix}-website`}
            className="mt-1.5"
            value={options.website}
            onChange={(e) => onChange({ website: e.target.value as WebsiteChoice })}
          >
            <option value={WebsiteChoice.any}>Any</option>
            <option value={WebsiteChoice.with}>Has a website</option>
            <option value={WebsiteChoice.without}>No website</option>
          </Select>
        </div>
        <div>
          <Label htmlFor={`${idPrefix}-phone`}>Phone</Label>
          <Select
            id={`${idPrefix}-phone`}
            className="mt-1.5"
            value={options.phone}
            onChange={(e) => onChange({ phone: e.target.value as PhoneChoice })}
          >
            <option value={PhoneChoice.any}>Any</option>
            <option value={PhoneChoice.with}>Has a phone number</option>
          </Select>
        </div>
      </div>
    </details>
  );
}

/**
 * Which places to send (issue #29 item 7): every match, or only those the workspace's
 * place memory has not seen, or not exported, before. Sent as `exclude`.
 */
export function ExcludeChoice({ idPrefix, options, onChange }: Omit<OptionsProps, 'errors'>) {
  return (
    <div>
      <Label htmlFor={`${idPrefix}-exclude`}>Places</Label>
      <Select
        id={`${idPrefix}-exclude`}
        className="mt-1.5"
        value={options.exclude}
        onChange={(e) => onChange({ exclude: e.target.value as Exclude })}
        aria-describedby={`${idPrefix}-exclude-hint`}
      >
        {EXCLUDE_CHOICES.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </Select>
      <Hint id={`${idPrefix}-exclude-hint`}>Places left out are not sent and do not count toward your allowance.</Hint>
    </div>
  );
}

const sameQuery = (a: SearchQuery | undefined, b: SearchQuery) => a !== undefined && JSON.stringify(a) === JSON.stringify(b);

export interface CostEstimateProps {
  /** The request the search would send, or null while the form is incomplete or invalid. */
  query: SearchQuery | null;
  typeLabel: string;
  /** An estimate probes with the user's key: none without one, nor during a search. */
  disabled: boolean;
}

/**
 * 'Estimate cost' for a full search (`POST /api/leads/estimate`), on request only: an
 * estimate may take seconds and may spend a locate request on the user's key. The answer
 * shows only while the form still asks for the same search.
 */
export function CostEstimate({ query, typeLabel, disabled }: CostEstimateProps) {
  const estimate = useEstimateSearch();
  const current = query !== null && sameQuery(estimate.variables?.data as SearchQuery | undefined, query);
  const answer = current && estimate.isSuccess ? estimate.data : null;
  const failure = current && estimate.isError ? estimate.error.message : null;
  const pending = current && estimate.isPending;

  return (
    <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
      <Button
        variant="secondary"
        className="shrink-0"
        disabled={disabled || query === null || pending}
        aria-busy={pending || undefined}
        onClick={() => query && estimate.mutate({ data: query })}
      >
        {pending && <Spinner />}
        {pending ? 'Estimating...' : 'Estimate cost'}
      </Button>
      <div aria-live="polite" className="min-w-0 text-sm sm:pt-2">
        {answer && (
          <p className="text-slate-800">
            <span className="font-medium">{estimateText(answer, typeLabel)}</span>
            {!answer.exact && <span> This is a rough estimate: the area is large, so the figures are extrapolated.</span>}
            {query && narrowsEstimate(query) && <span> The website, phone and review filters may leave fewer.</span>}
          </p>
        )}
        {answer?.allowanceWarning && (
          // Before spending: the search would stop at today's lead allowance (issue #26 item 1).
          <p role="alert" className="mt-1 font-medium text-amber-800">
            {answer.allowanceWarning}
          </p>
        )}
        {failure && (
          <p role="alert" className="text-red-700">
            {failure}
          </p>
        )}
        {!answer && !failure && !pending && (
          <p className="text-slate-500">See how many leads this search finds and what it costs on your Google key before you start.</p>
        )}
      </div>
    </div>
  );
}
