import { defineConfig } from '@playwright/test';

// Browser end-to-end tests against the real stack (see e2e/stack.ts). Run them with
// `npm run e2e`, which installs what is missing, builds the app, then runs this.
// Debian's chromium, never a downloaded browser (`npx playwright install` is not used).
export default defineConfig({
  testDir: './e2e',
  testMatch: '*.spec.ts',
  globalSetup: './e2e/global-setup.ts',
  globalTeardown: './e2e/global-teardown.ts',
  // One shared stack and two cores: one test at a time.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  forbidOnly: true,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  // Playwright empties its output folder at start; screenshots and logs live beside it.
  outputDir: './test-results/playwright',
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    acceptDownloads: true,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.LEADGEN_E2E_CHROMIUM ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-quic',
        '--no-first-run',
      ],
    },
  },
});
