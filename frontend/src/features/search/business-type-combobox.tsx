import { useEffect, useMemo, useState, type KeyboardEvent } from 'react';
import type { BusinessTypeItem } from '../../api/gen/model/businessTypeItem';
import { cn } from '../../components/ui/cn';
import { inputClasses } from '../../components/ui/field';
import { businessTypeLabel, exactType, matchingTypes, type BusinessTypeCatalogue } from './use-business-types';

export interface BusinessTypeComboboxProps {
  /** The input's id (its label's `htmlFor`). */
  id: string;
  catalogue: BusinessTypeCatalogue;
  /** The chosen type's value, '' for none. */
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
  /** Ids of text describing the field. */
  describedBy?: string;
}

/**
 * The business type as an editable combobox (WAI-ARIA 1.2 combobox with a listbox popup,
 * issue #26 item 9): typing filters the catalogue's groups by label or value and, beyond
 * them, offers Google's other place types ("vegan restaurant", `electrician`). Arrow keys
 * move through the options, Enter chooses, Escape closes and keeps the earlier choice;
 * leaving the field with the exact name of a type typed chooses it. Hand-written: the
 * libraries that do this (Downshift, Headless UI) cost more of the bundle budget than
 * these few lines.
 */
export function BusinessTypeCombobox({ id, catalogue, value, onChange, disabled = false, describedBy }: BusinessTypeComboboxProps) {
  const listId = `${id}-list`;
  // `typed` is the text while the user edits it; otherwise the field shows the chosen label.
  const [typed, setTyped] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  // The active option is kept by value, not by place: the list can change under it (the
  // catalogue's Google types arrive, a keystroke refilters) and Enter must take the
  // option that was highlighted, not whichever now sits at its index.
  const [activeValue, setActiveValue] = useState<string | null>(null);
  const groups = useMemo(() => matchingTypes(catalogue, typed ?? ''), [catalogue, typed]);
  const options = useMemo(() => groups.flatMap((group) => group.types), [groups]);
  const active = activeValue === null ? -1 : options.findIndex((type) => type.value === activeValue);
  const setActive = (index: number) => setActiveValue(index >= 0 ? (options[index]?.value ?? null) : null);
  const text = typed ?? (value ? businessTypeLabel(catalogue, value) : '');
  const expanded = open && options.length > 0;
  const optionId = (index: number) => `${id}-option-${index}`;

  // The active option stays in view as the arrow keys move through a long list.
  useEffect(() => {
    if (expanded && active >= 0) document.getElementById(`${id}-option-${active}`)?.scrollIntoView?.({ block: 'nearest' });
  }, [expanded, active, id]);

  function choose(type: BusinessTypeItem) {
    onChange(type.value);
    setTyped(null);
    setOpen(false);
    setActive(-1);
  }

  /** Leaves editing: an exact name chooses its type, anything else gives the earlier choice back. */
  function settle() {
    const exact = typed === null ? undefined : exactType(catalogue, typed);
    if (exact) onChange(exact.value);
    setTyped(null);
    setOpen(false);
    setActive(-1);
  }

  function openAt(index: number, among: readonly BusinessTypeItem[] = options) {
    setOpen(true);
    setActiveValue(index >= 0 ? (among[index]?.value ?? null) : null);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    const last = options.length - 1;
    const selected = options.findIndex((type) => type.value === value);
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        if (!expanded) openAt(selected >= 0 ? selected : 0);
        else setActive(Math.min(active + 1, last));
        break;
      case 'ArrowUp':
        event.preventDefault();
        if (!expanded) openAt(selected >= 0 ? selected : last);
        else setActive(Math.max(active - 1, 0));
        break;
      case 'Enter':
        // Choosing is not submitting: the form's Enter applies once the list is closed.
        if (expanded && active >= 0 && options[active]) {
          event.preventDefault();
          choose(options[active]);
        } else if (typed !== null) {
          const exact = exactType(catalogue, typed);
          if (exact) {
            event.preventDefault();
            choose(exact);
          }
        }
        break;
      case 'Escape':
        if (expanded || typed !== null) {
          event.preventDefault();
          setTyped(null);
          setOpen(false);
          setActive(-1);
        }
        break;
    }
  }

  let index = -1;
  return (
    <div className="relative mt-1.5">
      <input
        id={id}
        type="text"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
        aria-describedby={describedBy}
        autoComplete="off"
        spellCheck={false}
        placeholder="Select a business type"
        className={cn(inputClasses, 'pr-8')}
        value={text}
        disabled={disabled}
        onChange={(event) => {
          const next = event.target.value;
          setTyped(next);
          // The exact name typed is the one Enter takes, else the first match.
          const exact = exactType(catalogue, next);
          const listed = matchingTypes(catalogue, next).flatMap((group) => group.types);
          openAt(next.trim() ? Math.max(0, exact ? listed.findIndex((type) => type.value === exact.value) : 0) : -1, listed);
        }}
        onClick={() => (expanded ? setOpen(false) : openAt(Math.max(0, options.findIndex((type) => type.value === value))))}
        onKeyDown={onKeyDown}
        onBlur={settle}
      />
      <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="pointer-events-none absolute top-3 right-2.5 size-4 text-slate-400">
        <path d="M5.5 7.5 10 12l4.5-4.5z" />
      </svg>
      <div
        id={listId}
        role="listbox"
        aria-label="Business types"
        hidden={!expanded}
        className="absolute z-20 mt-1 max-h-72 w-full overflow-auto rounded-lg bg-white py-1 text-sm shadow-lg ring-1 ring-slate-200"
      >
        {/* The options exist only while the list is open: closed, they would be a quarter of
            the dashboard's first render (82 elements nobody sees), its longest task. */}
        {expanded &&
          groups.map((group) => (
            <div key={group.label} role="group" aria-labelledby={`${listId}-${slug(group.label)}`}>
              <div id={`${listId}-${slug(group.label)}`} role="presentation" className="px-3 pt-2 pb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase">
                {group.label}
              </div>
              {group.types.map((type) => {
                index += 1;
                const at = index;
                return (
                  <div
                    key={type.value}
                    id={optionId(at)}
                    role="option"
                    aria-selected={type.value === value}
                    className={cn(
                      'cursor-pointer px-3 py-1.5 text-slate-800',
                      at === active && 'bg-indigo-600 text-white',
                      type.value === value && at !== active && 'font-semibold text-indigo-800',
                    )}
                    // Keeps the focus in the field, so its blur does not settle first.
                    onMouseDown={(event) => event.preventDefault()}
                    // The pointer highlights only when it moves: a list that opens under a
                    // resting pointer must not take the highlight from what was typed
                    // (Enter would then choose the option under the pointer).
                    onMouseMove={() => at !== active && setActive(at)}
                    onClick={() => choose(type)}
                  >
                    {type.label}
                  </div>
                );
              })}
            </div>
          ))}
      </div>
      {open && typed !== null && typed.trim() !== '' && options.length === 0 && (
        <p role="status" className="absolute z-20 mt-1 w-full rounded-lg bg-white px-3 py-2 text-sm text-slate-600 shadow-lg ring-1 ring-slate-200">
          No business type or Google place type matches “{typed.trim()}”.
        </p>
      )}
    </div>
  );
}

const slug = (label: string) => label.toLowerCase().replace(/[^a-z0-9]+/g, '-');
