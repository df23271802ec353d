import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Hint, Input, Label, Select } from '../../components/ui/field';
import { Spinner } from '../../components/ui/spinner';
import type { SearchQuery } from '../../lib/lead';
import type { BusinessTypeGroup } from './business-types';
import { canStartSearch, searchSubmitError } from './search-form-rules';

export interface SearchFormProps {
  groups: BusinessTypeGroup[];
  hasApiKey: boolean;
  isSearching: boolean;
  onSearch: (query: SearchQuery) => void;
}

/** Business type + location form (spec section 5, Search form). */
export function SearchForm({ groups, hasApiKey, isSearching, onSearch }: SearchFormProps) {
  const id = useId();
  const [businessType, setBusinessType] = useState('');
  const [location, setLocation] = useState('');
  const [error, setError] = useState<string | null>(null);

  const enabled = canStartSearch({ businessType, location, hasApiKey, isSearching });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isSearching) return;
    const problem = searchSubmitError({ businessType, location, hasApiKey });
    setError(problem);
    if (problem) return;
    onSearch({ businessType, location: location.trim() });
  }

  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Find new leads</h2>
      <p className="mt-1 text-sm text-slate-600">Choose a business type and where to look. Results stream in as they are found.</p>
      <form onSubmit={submit} noValidate className="mt-5 grid gap-4 md:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto] md:items-start">
        <div>
          <Label htmlFor={`${id}-type`}>Business type</Label>
          <Select
            id={`${id}-type`}
            className="mt-1.5"
            value={businessType}
            onChange={(event) => setBusinessType(event.target.value)}
            disabled={isSearching}
          >
            <option value="">Select a business type</option>
            {groups.map((group) => (
              <optgroup key={group.label} label={group.label}>
                {group.types.map((type) => (
                  <option key={`${group.label}-${type.value}`} value={type.value}>
                    {type.label}
                  </option>
                ))}
              </optgroup>
            ))}
          </Select>
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
          <Hint id={`${id}-location-hint`}>Enter a city, state, ZIP code or full address</Hint>
        </div>
        <div className="md:pt-[1.625rem]">
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
      </form>
      {error && (
        <p role="alert" className="mt-3 text-sm text-red-700">
          {error}
        </p>
      )}
    </Card>
  );
}
