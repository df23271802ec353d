import { Suspense } from 'react';
import { cn } from '../../components/ui/cn';
import type { Lead } from '../../lib/lead';
import type { AreaRequest } from './search-area';
import { MapLoading } from './map-loading';
import { DrawnArea } from './search-chunks';

/** Where a search looks: the named location (a geocoder's answer) or an area drawn or typed. */
export type AreaMode = 'location' | 'map';

export interface AreaChoiceProps {
  idPrefix: string;
  mode: AreaMode;
  onModeChange: (mode: AreaMode) => void;
  /** The area the search would send (null: none yet, or the typed one is incomplete). */
  area: AreaRequest | null;
  onAreaChange: (area: AreaRequest | null) => void;
  /** The location typed in the form: the map opens on it. */
  location: string;
  /** The leads on screen (the search running or just done): shown on the map. */
  leads?: readonly Lead[];
  disabled?: boolean;
}

/**
 * "Area": the named location, as always, or "Draw on a map" (issue #30 item 5). Drawing
 * loads its own chunks (drawn-area.tsx, then the map's); the dashboard's holds only these
 * radios.
 */
export function AreaChoice({ idPrefix, mode, onModeChange, area, onAreaChange, location, leads, disabled = false }: AreaChoiceProps) {
  const name = `${idPrefix}-area-mode`;
  return (
    <div className="grid gap-3">
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">Area</legend>
        <div className="mt-1.5 flex flex-wrap gap-2">
          <ModeOption name={name} value="location" checked={mode === 'location'} onSelect={() => onModeChange('location')}>
            A city or ZIP code
          </ModeOption>
          <ModeOption name={name} value="map" checked={mode === 'map'} onSelect={() => onModeChange('map')}>
            Draw on a map
          </ModeOption>
        </div>
      </fieldset>
      {mode === 'map' && (
        <Suspense fallback={<MapLoading />}>
          <DrawnArea idPrefix={idPrefix} area={area} onAreaChange={onAreaChange} location={location} leads={leads} disabled={disabled} />
        </Suspense>
      )}
    </div>
  );
}

function ModeOption({ name, value, checked, onSelect, children }: { name: string; value: AreaMode; checked: boolean; onSelect: () => void; children: string }) {
  return (
    <label
      className={cn(
        'flex cursor-pointer items-center gap-2 rounded-lg px-3 py-2 text-sm ring-1 ring-inset has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-600',
        checked ? 'bg-indigo-50 font-medium text-indigo-900 ring-indigo-300' : 'text-slate-700 ring-slate-300 hover:bg-slate-50',
      )}
    >
      <input type="radio" name={name} value={value} checked={checked} onChange={onSelect} className="accent-indigo-600" />
      {children}
    </label>
  );
}
