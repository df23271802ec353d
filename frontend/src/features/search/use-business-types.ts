import { useListBusinessTypes } from '../../api/gen/leads/leads';
import type { BusinessTypeGroupItem } from '../../api/gen/model/businessTypeGroupItem';
import type { BusinessTypeItem } from '../../api/gen/model/businessTypeItem';
import type { BusinessTypesResponse } from '../../api/gen/model/businessTypesResponse';

// The business-type catalogue is the server's (`GET /api/leads/business-types`): groups
// and labels are shown exactly as it sends them, and nothing here keeps a copy.

/** The spec's groups, each type once, and the rest of Google's Table A (issue #26 item 9). */
export interface BusinessTypeCatalogue {
  groups: BusinessTypeGroupItem[];
  /** Google place types the groups do not list, which a search accepts too. */
  googleTypes: BusinessTypeItem[];
}

/** The heading of Google's types beside the catalogue's groups. */
export const GOOGLE_TYPES_GROUP = 'More Google place types';
/** The most Google types listed for one query: type more to narrow them. */
export const MAX_GOOGLE_MATCHES = 30;

/**
 * The groups with each type listed once, where it first appears: the catalogue lists some
 * types in two groups (Electronics Store under Shopping and under Technology), and one
 * list showing a type twice reads as a mistake (issue #26 item 9).
 */
export function onceEach(groups: readonly BusinessTypeGroupItem[]): BusinessTypeGroupItem[] {
  const seen = new Set<string>();
  return groups
    .map((group) => ({
      ...group,
      types: group.types.filter((type) => {
        if (seen.has(type.value)) return false;
        seen.add(type.value);
        return true;
      }),
    }))
    .filter((group) => group.types.length > 0);
}

/** The answer as the form uses it; an older server without `googleTypes` offers the groups alone. */
export function toCatalogue(answer: BusinessTypesResponse): BusinessTypeCatalogue {
  const groups = onceEach(answer.groups);
  const listed = new Set(groups.flatMap((group) => group.types.map((type) => type.value)));
  const googleTypes = (answer.googleTypes ?? []).filter((type) => !listed.has(type.value));
  return { groups, googleTypes };
}

/** The catalogue. It changes only with a server release, so it is read once per page load. */
export function useBusinessTypes() {
  return useListBusinessTypes({ query: { staleTime: Infinity, select: toCatalogue } });
}

/** The label of a type value (the catalogue's, else Google's type's), or the value itself while unknown. */
export function businessTypeLabel(catalogue: BusinessTypeCatalogue | undefined, value: string): string {
  for (const group of catalogue?.groups ?? []) {
    const found = group.types.find((type) => type.value === value);
    if (found) return found.label;
  }
  return catalogue?.googleTypes.find((type) => type.value === value)?.label ?? value;
}

/** Lower case, underscores as spaces: "Indian_Restaurant" and "indian restaurant" read alike. */
const normalise = (text: string) => text.toLowerCase().replace(/_/g, ' ').replace(/\s+/g, ' ').trim();

function matches(type: BusinessTypeItem, words: readonly string[]): boolean {
  const haystack = `${normalise(type.label)} ${normalise(type.value)}`;
  return words.every((word) => haystack.includes(word));
}

/**
 * What the combobox lists for `text`: the catalogue's groups with the types matching every
 * word (all of them when `text` is blank), then, once something is typed, up to
 * {@link MAX_GOOGLE_MATCHES} of Google's other types that match.
 */
export function matchingTypes(catalogue: BusinessTypeCatalogue, text: string): BusinessTypeGroupItem[] {
  const words = normalise(text).split(' ').filter(Boolean);
  const groups = catalogue.groups
    .map((group) => ({ ...group, types: group.types.filter((type) => matches(type, words)) }))
    .filter((group) => group.types.length > 0);
  if (words.length === 0) return groups;
  const google = catalogue.googleTypes.filter((type) => matches(type, words)).slice(0, MAX_GOOGLE_MATCHES);
  return google.length > 0 ? [...groups, { label: GOOGLE_TYPES_GROUP, types: google }] : groups;
}

/** The type whose label or value is exactly `text` (ignoring case and underscores), if any. */
export function exactType(catalogue: BusinessTypeCatalogue, text: string): BusinessTypeItem | undefined {
  const wanted = normalise(text);
  if (!wanted) return undefined;
  const all = [...catalogue.groups.flatMap((group) => group.types), ...catalogue.googleTypes];
  return all.find((type) => normalise(type.label) === wanted || normalise(type.value) === wanted);
}
