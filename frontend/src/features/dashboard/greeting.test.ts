import { describe, expect, it } from 'vitest';
import { greetingName } from './greeting';

describe('greetingName', () => {
  it('uses the first word of the name, then the email, then "there"', () => {
    expect(greetingName({ name: '  Ada King Lovelace ', email: 'ada@example.com' })).toBe('Ada');
    expect(greetingName({ name: '   ', email: 'ada@example.com' })).toBe('ada@example.com');
    expect(greetingName({ name: null, email: '' })).toBe('there');
    expect(greetingName(null)).toBe('there');
  });
});
