import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// Unit tests do not need the router code generator or Tailwind: they render
// features and pure modules directly.
export default defineConfig({
  plugins: [react()],
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    restoreMocks: true,
    // Two cores: keep the worker pool small so `npm test` stays lean.
    maxWorkers: 2,
  },
});
