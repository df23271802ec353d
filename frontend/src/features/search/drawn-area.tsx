import { useQuery } from '@tanstack/react-query';
import { Suspense, useMemo, useState } from 'react';
import { locateArea } from '../../api/gen/leads/leads';
import { Button } from '../../components/ui/button';
import { Input, Label, Select } from '../../components/ui/field';
import { useSiteConfig } from '../../lib/site-config';
import type { AreaChoiceProps } from './area-choice';
import { MapLoading } from './map-loading';
import { AreaMap } from './search-chunks';
import { areaFromTyped, areaProblem, describeArea, typedFromArea, type AreaRequest, type TypedArea } from './search-area';

// "Draw on a map"'s form part (issue #30 item 5), a small chunk of its own loaded when
// drawing is picked: the map (a far larger chunk, loaded from here), the area in words
// with its coordinates, and the same area typed as numbers, the way to set one without a
// pointer. The map opens on the location typed in the form: the server locates it
// (`locate_area`: its cache, or one request on the user's key, once per location), never
// the browser.

/** The map, the typed numbers and the area in words. */
export default function DrawnArea({ idPrefix, area, onAreaChange, location, leads, disabled }: Omit<AreaChoiceProps, 'mode' | 'onModeChange'>) {
  const styleUrl = useSiteConfig().mapStyleUrl ?? null;
  const typedLocation = location.trim();
  // The location the map shows: the one typed when it opened, or one asked for since (a
  // button, never each keystroke). A search run again opens on its own area instead.
  const [shown, setShown] = useState(() => (area === null ? typedLocation : ''));
  const located = useQuery({
    queryKey: ['locateArea', shown],
    queryFn: ({ signal }) => locateArea({ location: shown }, { signal }),
    enabled: shown !== '',
    staleTime: Infinity,
    retry: false,
  });
  const focus = shown !== '' ? (located.data ?? null) : null;
  const points = useMemo(
    () =>
      (leads ?? []).flatMap((lead) =>
        lead.latitude != null && lead.longitude != null ? [{ latitude: lead.latitude, longitude: lead.longitude, name: lead.name }] : [],
      ),
    [leads],
  );
  const [typed, setTyped] = useState<TypedArea>(() => typedFromArea(area));
  const typedProblem = areaFromTyped(typed).problem;
  // A drawn rectangle or circle shows in the typed fields, which then say what is wrong with it.
  const drawnProblem = area && areaProblem(area) !== typedProblem ? areaProblem(area) : null;

  function fromMap(next: AreaRequest | null) {
    setTyped((current) => typedFromArea(next, current));
    onAreaChange(next);
  }
  function fromTyped(change: Partial<TypedArea>) {
    const next = { ...typed, ...change };
    setTyped(next);
    onAreaChange(areaFromTyped(next).area);
  }

  return (
    <div className="grid gap-3">
      <Suspense fallback={<MapLoading />}>
        <AreaMap styleUrl={styleUrl} area={area} focus={focus} points={points} onDraw={fromMap} disabled={disabled} />
      </Suspense>
      <div className="flex flex-wrap items-center gap-2 text-sm text-slate-700" aria-live="polite">
        {shown !== '' && located.isPending && <span>Finding “{shown}” on the map...</span>}
        {focus && <span>Map centred on “{focus.location}”.</span>}
        {located.isError && (
          <span className="text-red-700">
            “{shown}” could not be shown on the map: {located.error.message}
          </span>
        )}
        {typedLocation !== '' && typedLocation !== shown && (
          <Button size="sm" variant="secondary" onClick={() => setShown(typedLocation)}>
            Show “{typedLocation}” on the map
          </Button>
        )}
        {points.length > 0 && (
          <span>
            {points.length.toLocaleString('en-US')} {points.length === 1 ? 'lead' : 'leads'} marked on the map.
          </span>
        )}
      </div>
      <p id={`${idPrefix}-area-summary`} aria-live="polite" className="text-sm text-slate-800">
        {area ? describeArea(area) : 'No area yet: draw one on the map, or type one below.'}
        {drawnProblem && <span className="block font-medium text-red-700">{drawnProblem}</span>}
      </p>
      <TypedAreaFields idPrefix={idPrefix} typed={typed} problem={typedProblem} onChange={fromTyped} />
    </div>
  );
}

interface TypedFieldsProps {
  idPrefix: string;
  typed: TypedArea;
  problem: string | null;
  onChange: (change: Partial<TypedArea>) => void;
}

/** A rectangle's edges or a circle's centre and radius, as numbers. */
function TypedAreaFields({ idPrefix, typed, problem, onChange }: TypedFieldsProps) {
  const id = `${idPrefix}-typed`;
  const problemId = `${id}-problem`;
  const field = (key: keyof Omit<TypedArea, 'shape'>, label: string, placeholder: string) => (
    <div>
      <Label htmlFor={`${id}-${key}`}>{label}</Label>
      <Input
        id={`${id}-${key}`}
        className="mt-1.5"
        inputMode="decimal"
        autoComplete="off"
        placeholder={placeholder}
        value={typed[key]}
        onChange={(event) => onChange({ [key]: event.target.value })}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? problemId : undefined}
      />
    </div>
  );
  return (
    <fieldset className="grid gap-3 rounded-lg px-3 pt-1 pb-3 ring-1 ring-slate-200 ring-inset">
      <legend className="px-1 text-sm font-medium text-slate-800">Or type the area</legend>
      <div className="sm:max-w-md">
        <Label htmlFor={`${id}-shape`}>Shape</Label>
        <Select id={`${id}-shape`} className="mt-1.5" value={typed.shape} onChange={(e) => onChange({ shape: e.target.value as TypedArea['shape'] })}>
          <option value="rectangle">Rectangle (south-west and north-east corners)</option>
          <option value="circle">Circle (centre and radius)</option>
        </Select>
      </div>
      {typed.shape === 'rectangle' ? (
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          {field('south', 'South-west latitude', 'e.g. 29.70')}
          {field('west', 'South-west longitude', 'e.g. -95.50')}
          {field('north', 'North-east latitude', 'e.g. 29.85')}
          {field('east', 'North-east longitude', 'e.g. -95.30')}
        </div>
      ) : (
        <div className="grid gap-3 sm:grid-cols-3">
          {field('centerLatitude', 'Centre latitude', 'e.g. 29.76')}
          {field('centerLongitude', 'Centre longitude', 'e.g. -95.37')}
          {field('radiusKm', 'Radius (km)', 'e.g. 5')}
        </div>
      )}
      {problem && (
        <p id={problemId} className="text-xs text-red-700">
          {problem}
        </p>
      )}
    </fieldset>
  );
}
