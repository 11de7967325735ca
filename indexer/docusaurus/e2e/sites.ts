/** The fixture sites the browser tests search, and where fixtures.setup.ts serves each. */
export const FIXTURE_SITES = ['versioned-blog', 'two-locales', 'docs-root', 'classic-ts'] as const;
export type FixtureSite = (typeof FIXTURE_SITES)[number] | 'brand';

/** THEME_E2E_PORT, else 20 above the site's E2E_PORT (as its Algolia build is 10 above), else 3420. */
const FIRST_PORT = Number(process.env.THEME_E2E_PORT ?? (process.env.E2E_PORT ? Number(process.env.E2E_PORT) + 20 : 3420));

/** The origin (no baseUrl) that serves `site`'s build. */
export function originOf(site: FixtureSite): string {
  if (site === 'brand') return `http://localhost:${FIRST_PORT + FIXTURE_SITES.length + 2}`;
  return `http://localhost:${FIRST_PORT + FIXTURE_SITES.indexOf(site)}`;
}

/** two-locales under `docusaurus start --locale fr` (the development server), and its home page. */
export const DEV_SERVER_HOME = '/docs-site/fr/';
export function devServerOrigin(): string {
  return `http://localhost:${FIRST_PORT + FIXTURE_SITES.length}`;
}

/** The theme's options on the Algolia-mode build of versioned-blog. */
export const ALGOLIA_SITE_OPTIONS = {indexPages: false, ignore: ['blog/tags']};

/** versioned-blog again, in Algolia mode (themeConfig.algolia with credentials), with ALGOLIA_SITE_OPTIONS. */
export function algoliaSiteOrigin(): string {
  return `http://localhost:${FIRST_PORT + FIXTURE_SITES.length + 1}`;
}

/**
 * The projects the theme is installed into from the local registry (fixtures.setup.ts), each as a
 * user's site is: its own Docusaurus and React first, then `npm install docusaurus-theme-docs-search`.
 * - latest: the newest Docusaurus 3 (the repository's version, with ^) and React 19; it builds
 *   the fixture sites above.
 * - oldest: the oldest Docusaurus the theme's peerDependencies accept, pinned to that exact
 *   version, with React 18; it builds the brand site (its own colours), then is upgraded to the
 *   latest Docusaurus and built again.
 * - below: Docusaurus 2, below the range: the install must stop with npm's peer dependency error.
 */
export const OLDEST_DOCUSAURUS = '3.0.0';
/** The webpack of a lock file from Docusaurus 3.0's time (fixtures.setup.ts says why). */
export const OLD_SITES_WEBPACK = '5.95.0';
export const BELOW_RANGE_DOCUSAURUS = '2.4.3';
/**
 * The DocSearch range the theme accepts (its dependencies: ^3.8.0) and the two ends the tests run:
 * the oldest project's lock file holds OLDEST_DOCSEARCH without its package.json naming it (as a
 * Docusaurus 3.7 site's lock does), and the theme must reuse it; on the latest project (whose
 * stock search theme takes DocSearch 4) npm installs the newest 3.x, NEWEST_DOCSEARCH, for the theme.
 */
export const OLDEST_DOCSEARCH = '3.8.0';
export const NEWEST_DOCSEARCH = '3.9.0';
export type InstallProject = 'latest' | 'oldest';

/** What fixtures.setup.ts saw while installing into a project (install-facts.json there). */
export interface InstallFacts {
  project: InstallProject | 'below';
  docusaurus: string;
  react: string;
  /** `npm install docusaurus-theme-docs-search`: exit code and output. */
  install: {code: number | null; output: string};
  /** package-lock.json's `packages` before and after that install: path → version. */
  before: Record<string, string>;
  after: Record<string, string>;
  /** `npm ls --all --parseable --long` before and after that install: "<path> <name>@<version>" per installed package. */
  lsBefore?: string[];
  lsAfter?: string[];
  /** `npm ls` after it. */
  ls?: {code: number | null; output: string};
  /** Folders under node_modules with nothing in them. */
  emptyFolders?: string[];
  /** `import('docusaurus-theme-docs-search')` in plain Node: its exports, or the error. */
  imported?: {code: number | null; output: string};
  /** Files named by our installed packages' `exports` that are missing, and subpaths Node does not resolve (missingExports). */
  exportsMissing?: string[];
  /** After the builds: `npm install` of the latest @docusaurus/core and preset, `npm ls`, a build. */
  upgrade?: {to: string; install: {code: number | null; output: string}; ls: {code: number | null; output: string}; after: Record<string, string>; build: {code: number | null; output: string}};
}
