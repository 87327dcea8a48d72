import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumForConfig } from './browser.ts';

// Undefined: Playwright's own Chromium. The global setup stops the run with one message when there is no browser at all.
const executablePath = chromiumForConfig();

export default defineConfig({
  testDir: './specs',
  globalSetup: './global-setup.ts',
  outputDir: './test-results',
  fullyParallel: false,
  workers: 1,
  forbidOnly: process.env.CI !== undefined,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 720 },
    deviceScaleFactor: 1,
    // Playwright gives every launch a fresh temporary profile (user-data dir) of its own.
    launchOptions: { ...(executablePath === undefined ? {} : { executablePath }), args: CHROMIUM_ARGS },
    trace: 'retain-on-failure',
  },
});
