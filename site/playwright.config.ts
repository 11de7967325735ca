import {defineConfig} from '@playwright/test';

import {CHROME_ARGS, CHROME_PATH, TEST_ARGS} from './chrome.cjs';

/** Browser tests run Debian's Chromium (site/chrome.cjs). */
export {CHROME_ARGS, CHROME_PATH};
/** The production build of the site in local-search mode, served by `docusaurus serve`. */
export const PORT = Number(process.env.E2E_PORT ?? 3000);
export const BASE_URL = `http://localhost:${PORT}`;
/** The Algolia-mode build (site/build-algolia, `npm run build:algolia`) for search-algolia.spec.ts. */
export const ALGOLIA_PORT = Number(process.env.E2E_ALGOLIA_PORT ?? PORT + 10);
export const ALGOLIA_BASE_URL = `http://localhost:${ALGOLIA_PORT}`;

export default defineConfig({
  testDir: './e2e',
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: [['list']],
  timeout: 30_000,
  expect: {timeout: 7_000},
  use: {
    baseURL: BASE_URL,
    browserName: 'chromium',
    launchOptions: {executablePath: CHROME_PATH, args: TEST_ARGS},
    trace: 'off',
  },
  webServer: [
    {
      command: `npx docusaurus serve --port ${PORT} --no-open`,
      url: BASE_URL,
      reuseExistingServer: !process.env.CI,
      timeout: 60_000,
    },
    {
      command: `npx docusaurus serve --dir build-algolia --port ${ALGOLIA_PORT} --no-open`,
      url: ALGOLIA_BASE_URL,
      reuseExistingServer: !process.env.CI,
      timeout: 60_000,
    },
  ],
});
