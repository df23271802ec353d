import { useListBusinessTypes } from '../../api/gen/leads/leads';
import type { BusinessTypeGroupItem } from '../../api/gen/model/businessTypeGroupItem';
import type { BusinessTypesResponse } from '../../api/gen/model/businessTypesResponse';

// The business-type catalogue is the server's (`GET /api/leads/business-types`): groups
// and labels are shown exactly as it sends them, and nothing here keeps a copy.

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

const selectGroups = (answer: BusinessTypesResponse): BusinessTypeGroupItem[] => onceEach(answer.groups);

/** The catalogue's groups. It changes only with a server release, so it is read once per page load. */
export function useBusinessTypes() {
  return useListBusinessTypes({ query: { staleTime: Infinity, select: selectGroups } });
}

/** The label the catalogue gives a type value (its first appearance), or the value itself while unknown. */
export function businessTypeLabel(groups: readonly BusinessTypeGroupItem[] | undefined, value: string): string {
  for (const group of groups ?? []) {
    const found = group.types.find((type) => type.value === value);
    if (found) return found.label;
  }
  return value;
}
