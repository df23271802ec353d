import '@testing-library/jest-dom/vitest';
import { afterEach } from 'vitest';

// Tests that need no DOM (`@vitest-environment node`, e.g. the lint test) skip this.
if (typeof window !== 'undefined') {
  // jsdom has no layout: the router's scroll restoration calls window.scrollTo.
  window.scrollTo = (() => {}) as typeof window.scrollTo;

  afterEach(() => {
    window.localStorage.clear();
    window.sessionStorage.clear();
  });
}
