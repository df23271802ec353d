import { describe, expect, it } from 'vitest';
import { onceEach } from './use-business-types';

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
