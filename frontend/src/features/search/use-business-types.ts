import { useListBusinessTypes } from '../../api/gen/leads/leads';
import type { BusinessTypeGroupItem } from '../../api/gen/model/businessTypeGroupItem';
import type { BusinessTypesResponse } from '../../api/gen/model/businessTypesResponse';

// The business-type catalogue is the server's (`GET /api/leads/business-types`): groups
// and labels are shown exactly as it sends them, and nothing here keeps a copy.

const selectGroups = (answer: BusinessTypesResponse): BusinessTypeGroupItem[] => answer.groups;

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
