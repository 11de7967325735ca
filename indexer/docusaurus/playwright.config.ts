import {defineConfig} from '@playwright/test';
import {CHROME_PATH, TEST_ARGS} from 'site/chrome';

/**
 * The theme as a site owner gets it: e2e/fixtures.setup.ts publishes it to a local registry
 * (e2e/registry.ts), installs it with npm next to Docusaurus in temporary folders, builds the
 * fixture sites (indexer/test/sites, a classic TypeScript site, a brand site on the oldest
 * Docusaurus) once each with the theme's one line added and serves them on
 * THEME_E2E_PORT.. (default E2E_PORT + 20.., else 3420..); e2e/*.spec.ts search them in Debian's Chromium.
 */
export default defineConfig({
  testDir: './e2e',
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: [['list']],
  timeout: 30_000,
  expect: {timeout: 7_000},
  globalSetup: './e2e/fixtures.setup.ts',
  use: {
    browserName: 'chromium',
    launchOptions: {executablePath: CHROME_PATH, args: TEST_ARGS},
    trace: 'off',
  },
});
