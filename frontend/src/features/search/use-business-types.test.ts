import { describe, expect, it } from 'vitest';
import { businessTypeLabel, exactType, GOOGLE_TYPES_GROUP, matchingTypes, onceEach, toCatalogue } from './use-business-types';

describe('onceEach', () => {
  it('lists a type in two groups once, where it first appears, and drops a group left empty', () => {
    const groups = [
      { label: 'Shopping & Retail', types: [{ value: 'electronics_store', label: 'Electronics Store', textOnly: false }] },
      {
        label: 'Technology & IT',
        types: [
          { value: 'electronics_store', label: 'Electronics Store', textOnly: false },
          { value: 'computer_phone_repair', label: 'Computer/Phone Repair', textOnly: true },
        ],
      },
      { label: 'Only repeats', types: [{ value: 'electronics_store', label: 'Electronics Store', textOnly: false }] },
    ];
    const once = onceEach(groups);
    expect(once.map((g) => [g.label, g.types.map((t) => t.value)])).toEqual([
      ['Shopping & Retail', ['electronics_store']],
      ['Technology & IT', ['computer_phone_repair']],
    ]);
  });
});

describe('toCatalogue', () => {
  it("keeps Google's types the groups do not list, names them, and matches them only once typed", () => {
    const catalogue = toCatalogue({
      groups: [{ label: 'Food & Dining', types: [{ value: 'restaurant', label: 'Restaurant', textOnly: false }] }],
      googleTypes: [
        { value: 'restaurant', label: 'Restaurant', textOnly: false },
        { value: 'indian_restaurant', label: 'Indian Restaurant', textOnly: false },
      ],
    });
    expect(catalogue.googleTypes.map((t) => t.value)).toEqual(['indian_restaurant']);
    expect(businessTypeLabel(catalogue, 'indian_restaurant')).toBe('Indian Restaurant');
    expect(businessTypeLabel(catalogue, 'spaceport')).toBe('spaceport');
    expect(matchingTypes(catalogue, '').flatMap((g) => g.types.map((t) => t.value))).toEqual(['restaurant']);
    expect(matchingTypes(catalogue, 'INDIAN_rest').map((g) => g.label)).toEqual([GOOGLE_TYPES_GROUP]);
    expect(exactType(catalogue, 'indian restaurant')?.value).toBe('indian_restaurant');
    expect(exactType(catalogue, 'indian')).toBeUndefined();
  });
});
