import '@testing-library/jest-dom/vitest';
import { afterEach } from 'vitest';

// jsdom has no layout: the router's scroll restoration calls window.scrollTo.
window.scrollTo = (() => {}) as typeof window.scrollTo;

afterEach(() => {
  window.localStorage.clear();
  window.sessionStorage.clear();
});
