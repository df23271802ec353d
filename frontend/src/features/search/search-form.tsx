import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Coverage } from '../../api/gen/model/coverage';
import { AfterFirstPaint } from '../../components/after-first-paint';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Hint, Input, Label, Select } from '../../components/ui/field';
import { Spinner } from '../../components/ui/spinner';
import type { Lead, SearchQuery } from '../../lib/lead';
import { AreaChoice, type AreaMode } from './area-choice';
import { areaProblem, type AreaRequest } from './search-area';
import { canStartSearch, searchSubmitError } from './search-form-rules';
import { BudgetField, ClientField, CostEstimate, CoverageChoice, ExcludeChoice, SearchFilters } from './search-options-fields';
import { buildSearchQuery, defaultSearchOptions, hasOptionErrors, searchOptionErrors, searchOptionsFromQuery, type SearchOptions } from './search-options';
import { readEnrichPreference, writeEnrichPreference } from './enrich-preference';
import { BusinessTypeCombobox } from './business-type-combobox';
import { businessTypeLabel, useBusinessTypes } from './use-business-types';

export interface SearchFormProps {
  hasApiKey: boolean;
  isSearching: boolean;
  onSearch: (query: SearchQuery) => void;
  /** Fields to start from (history "Run again"); remount the form (a new `key`) to apply new ones. */
  initial?: SearchQuery | null;
  /** The signed-in user's id: the enrichment box remembers its last state per user. */
  userId?: string | null;
  /**
   * Actions under the form given the search it holds (null while incomplete) and its
   * type's label: the page's "Save as monitor".
   */
  actions?: (query: SearchQuery | null, typeLabel: string) => ReactNode;
  /** The leads on screen (the search running or just done): the area map marks them. */
  leads?: readonly Lead[];
}

/**
 * Business type + location form (spec section 5, Search form). The types are the
 * server's catalogue: until it has loaded the select says so and stays disabled; if it
 * cannot be loaded, the error and a Retry button stand under it. Below: the coverage
 * ('Quick: top 60' or 'Full area' with its estimate and budget) and the filters (#11).
 */
export function SearchForm({ hasApiKey, isSearching, onSearch, initial = null, userId = null, actions, leads }: SearchFormProps) {
  const id = useId();
  const [businessType, setBusinessType] = useState(initial?.businessType ?? '');
  const [location, setLocation] = useState(initial?.location ?? '');
  const [options, setOptions] = useState<SearchOptions>(() =>
    initial ? searchOptionsFromQuery(initial) : { ...defaultSearchOptions, enrich: readEnrichPreference(userId) },
  );
  const [areaMode, setAreaMode] = useState<AreaMode>(initial?.area ? 'map' : 'location');
  const [area, setArea] = useState<AreaRequest | null>(initial?.area ?? null);
  const [error, setError] = useState<string | null>(null);
  const catalogue = useBusinessTypes().data;

  const optionErrors = searchOptionErrors(options);
  const optionsValid = !hasOptionErrors(optionErrors);
  const drawing = areaMode === 'map' ? { hasArea: area !== null && areaProblem(area) === null } : undefined;
  const searchArea = drawing?.hasArea ? area : null;
  const enabled = canStartSearch({ businessType, location, hasApiKey, isSearching, drawing }) && optionsValid;
  const full = options.coverage === Coverage.full;
  // The search as it would be sent (and estimated), once the form is complete.
  const query = searchSubmitError({ businessType, location, hasApiKey: true, drawing }) === null && optionsValid
    ? buildSearchQuery(businessType, location, options, searchArea)
    : null;
  const changeOptions = (change: Partial<SearchOptions>) => setOptions((current) => ({ ...current, ...change }));

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isSearching) return;
    const problem = searchSubmitError({ businessType, location, hasApiKey, drawing });
    setError(problem);
    if (problem || !optionsValid) return;
    onSearch(buildSearchQuery(businessType, location, options, searchArea));
  }

  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Find new leads</h2>
      <p className="mt-1 text-sm text-slate-600">Choose a business type and where to look. Results stream in as they are found.</p>
      <form onSubmit={submit} noValidate className="mt-5 grid gap-4 md:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto] md:items-start">
        <div>
          <Label htmlFor={`${id}-type`}>Business type</Label>
          <BusinessTypeSelect
            id={`${id}-type`}
            value={businessType}
            onChange={setBusinessType}
            disabled={isSearching}
          />
        </div>
        <div>
          <Label htmlFor={`${id}-location`}>Location</Label>
          <Input
            id={`${id}-location`}
            className="mt-1.5"
            value={location}
            onChange={(event) => setLocation(event.target.value)}
            placeholder="e.g. Austin, TX"
            autoComplete="off"
            disabled={isSearching}
            aria-describedby={`${id}-location-hint`}
          />
          <Hint id={`${id}-location-hint`}>
            {areaMode === 'map' ? 'Optional with a drawn area: it names the search in your history' : 'Enter a city, state, ZIP code or full address'}
          </Hint>
        </div>
        {/* The options and the button: one render after the fields above, at transition
            priority (split into short tasks), so the page's first render stays short. Together,
            so nothing painted moves: on a phone the button sits below the options. */}
        <AfterFirstPaint>
          <fieldset disabled={isSearching} className="grid gap-4 md:col-span-3">
            <AreaChoice
              idPrefix={id}
              mode={areaMode}
              onModeChange={setAreaMode}
              area={area}
              onAreaChange={setArea}
              location={location}
              leads={leads}
              disabled={isSearching}
            />
            <div className="grid gap-4 md:grid-cols-[minmax(0,2fr)_minmax(0,1fr)] md:items-start">
              <CoverageChoice idPrefix={id} options={options} onChange={changeOptions} />
              {full && <BudgetField idPrefix={id} options={options} onChange={changeOptions} errors={optionErrors} />}
            </div>
            {/* A drawn area is estimated before spending whatever the coverage (issue #30 item 5). */}
            {(full || drawing) && (
              <CostEstimate
                query={query}
                typeLabel={businessTypeLabel(catalogue, businessType)}
                disabled={!hasApiKey || isSearching}
              />
            )}
            <div className="grid gap-4 md:grid-cols-2 md:items-start">
              <ClientField idPrefix={id} options={options} onChange={changeOptions} />
              <ExcludeChoice idPrefix={id} options={options} onChange={changeOptions} />
            </div>
            <SearchFilters idPrefix={id} options={options} onChange={changeOptions} errors={optionErrors} />
            <EnrichChoice
              id={`${id}-enrich`}
              checked={options.enrich}
              onChange={(enrich) => {
                changeOptions({ enrich });
                writeEnrichPreference(userId, enrich);
              }}
            />
          </fieldset>
          {/* After the options in the page (a phone's one column, and the tab order: fill
              everything, then search), beside the location on wider screens (issue #26 item 9). */}
          <div className="md:col-start-3 md:row-start-1 md:pt-[1.625rem]">
            <Button type="submit" size="field" className="w-full md:w-auto" disabled={!enabled}>
              {isSearching ? (
                <>
                  <Spinner />
                  Searching...
                </>
              ) : (
                <>
                  <svg aria-hidden="true" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} className="size-5">
                    <circle cx="11" cy="11" r="7" />
                    <path strokeLinecap="round" d="m20 20-3.5-3.5" />
                  </svg>
                  Search
                </>
              )}
            </Button>
          </div>
        </AfterFirstPaint>
      </form>
      {actions && (
        <AfterFirstPaint>
          <div className="mt-4 flex flex-wrap items-center gap-2">{actions(query, businessTypeLabel(catalogue, businessType))}</div>
        </AfterFirstPaint>
      )}
      {error && (
        <p role="alert" className="mt-3 text-sm text-red-700">
          {error}
        </p>
      )}
    </Card>
  );
}

/** The enrichment box (issue #14): read each lead's website for emails and social profiles. */
function EnrichChoice({ id, checked, onChange }: { id: string; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <div className="flex items-start gap-3">
      <input
        id={id}
        type="checkbox"
        className="mt-0.5 size-4 rounded border-slate-300 text-indigo-600 focus:ring-indigo-600"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        aria-describedby={`${id}-hint`}
      />
      <div>
        <label htmlFor={id} className="text-sm font-medium text-slate-800">
          Find emails and social profiles
        </label>
        <Hint id={`${id}-hint`}>
          Reads each business&rsquo;s own website while the search runs. Nothing found is stored; it adds a few seconds.
        </Hint>
      </div>
    </div>
  );
}

interface BusinessTypeSelectProps {
  id: string;
  value: string;
  onChange: (value: string) => void;
  disabled: boolean;
}

/**
 * The business type over `GET /api/leads/business-types`: a combobox of the groups the
 * server sends and Google's other types; a disabled select says it is loading or failed.
 */
function BusinessTypeSelect({ id, value, onChange, disabled }: BusinessTypeSelectProps) {
  const businessTypes = useBusinessTypes();
  const catalogue = businessTypes.data;

  if (!catalogue) {
    // A retry after a failure is loading again, not failed yet.
    const failed = businessTypes.isError && !businessTypes.isFetching;
    const loading = !failed;
    return (
      <>
        <Select
          id={id}
          className="mt-1.5"
          value=""
          disabled
          aria-busy={loading || undefined}
          aria-describedby={failed ? `${id}-error` : undefined}
        >
          <option value="">{loading ? 'Loading business types...' : 'Business types unavailable'}</option>
        </Select>
        {failed && (
          <div id={`${id}-error`} className="mt-1.5 flex flex-wrap items-center gap-2">
            <p role="alert" className="text-sm text-red-700">
              {businessTypes.error?.message}
            </p>
            <Button variant="secondary" size="sm" onClick={() => void businessTypes.refetch()}>
              Retry
            </Button>
          </div>
        )}
      </>
    );
  }

  return (
    <>
      <BusinessTypeCombobox id={id} catalogue={catalogue} value={value} onChange={onChange} disabled={disabled} describedBy={`${id}-hint`} />
      <Hint id={`${id}-hint`}>Type to filter, or any Google place type (e.g. vegan restaurant).</Hint>
    </>
  );
}
