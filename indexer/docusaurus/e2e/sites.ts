/** The fixture sites the browser tests search, and where fixtures.setup.ts serves each. */
export const FIXTURE_SITES = ['versioned-blog', 'two-locales', 'docs-root', 'classic-ts'] as const;
export type FixtureSite = (typeof FIXTURE_SITES)[number];

/** THEME_E2E_PORT, else 20 above the site's E2E_PORT (as its Algolia build is 10 above), else 3420. */
const FIRST_PORT = Number(process.env.THEME_E2E_PORT ?? (process.env.E2E_PORT ? Number(process.env.E2E_PORT) + 20 : 3420));

/** The origin (no baseUrl) that serves `site`'s build. */
export function originOf(site: FixtureSite): string {
  return `http://localhost:${FIRST_PORT + FIXTURE_SITES.indexOf(site)}`;
}

/** The classic TypeScript site under `docusaurus start` (the development server). */
export function devServerOrigin(): string {
  return `http://localhost:${FIRST_PORT + FIXTURE_SITES.length}`;
}

/** The theme's options on the Algolia-mode build of versioned-blog. */
export const ALGOLIA_SITE_OPTIONS = {indexPages: false, ignore: ['blog/tags']};

/** versioned-blog again, in Algolia mode (themeConfig.algolia with credentials), with ALGOLIA_SITE_OPTIONS. */
export function algoliaSiteOrigin(): string {
  return `http://localhost:${FIRST_PORT + FIXTURE_SITES.length + 1}`;
}
