import { describe, expect, it } from 'vitest';
import { apiKeySaveError, canSaveApiKey, canTestApiKey } from './api-key-rules';

describe('canSaveApiKey', () => {
  const preview = 'AIzaSy...1234';
  it('is false while the field still shows the stored preview', () => {
    expect(canSaveApiKey({ value: preview, preview, saving: false })).toBe(false);
  });
  it('is false for blank text', () => {
    expect(canSaveApiKey({ value: '   ', preview, saving: false })).toBe(false);
    expect(canSaveApiKey({ value: '', preview: null, saving: false })).toBe(false);
  });
  it('is false while saving', () => {
    expect(canSaveApiKey({ value: 'AIzaNEW', preview, saving: true })).toBe(false);
  });
  it('is true for new non-blank text', () => {
    expect(canSaveApiKey({ value: 'AIzaNEW', preview, saving: false })).toBe(true);
    expect(canSaveApiKey({ value: 'AIzaNEW', preview: null, saving: false })).toBe(true);
  });
});

describe('apiKeySaveError', () => {
  it("asks for a valid key when blank after trimming", () => {
    expect(apiKeySaveError('  ')).toBe('Please enter a valid API key');
    expect(apiKeySaveError(' AIza ')).toBeNull();
  });
});

describe('canTestApiKey', () => {
  it('needs a key and no test or save in progress', () => {
    expect(canTestApiKey({ hasKey: true, testing: false, saving: false })).toBe(true);
    expect(canTestApiKey({ hasKey: false, testing: false, saving: false })).toBe(false);
    expect(canTestApiKey({ hasKey: true, testing: true, saving: false })).toBe(false);
    expect(canTestApiKey({ hasKey: true, testing: false, saving: true })).toBe(false);
  });
});
