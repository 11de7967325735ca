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
 * The latest and oldest are committed as what they hold before the theme (e2e/projects, made by
 * projects.ts from what this file says) and installed with `npm ci`.
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

/**
 * What the latest project's lock file holds before the theme comes, as the public HomeWizard site's
 * does (Docusaurus 3.9 with DocSearch 4.4): an older algoliasearch 5.x, the lowest the stock search
 * theme of 3.9 and 3.10 accepts (^5.37.0), and DocSearch 4.4 (which brings zod 4 to the top of the
 * tree), both without package.json naming them; and the leftovers of another search plugin,
 * installed with the site and then removed. The theme must reuse that algoliasearch, move nothing
 * and leave one @docusaurus/theme-common.
 */
export const SITE_ALGOLIASEARCH = '5.37.0';
export const SITE_DOCSEARCH_4 = '4.4.0';
export const OTHER_SEARCH_PLUGIN = '@easyops-cn/docusaurus-search-local';
export const OTHER_SEARCH_PLUGIN_VERSION = '0.55.3';

/** A command's exit code and output (stdout, then stderr). */
export interface RunFacts {
  code: number | null;
  output: string;
}

/**
 * Trees without Docusaurus (fixtures.setup.ts, installTree): an empty project that installs zod 4
 * (`npm init -y && npm i zod@4`), then one of our packages alone, by name, from the registry.
 */
export const ZOD4_TREES = ['docs-search', 'docs-indexer'] as const;
export type Zod4Tree = (typeof ZOD4_TREES)[number];

/** What a tree's install did (tree-facts.json in its folder). */
export interface TreeFacts {
  package: Zod4Tree;
  /** package-lock.json's packages (path → version) before and after `npm install <package>`. */
  before: Record<string, string>;
  after: Record<string, string>;
  install: RunFacts;
  /** `npm ls --all`, folders left empty, and an import of each of the package's entry points in plain Node (what it prints). */
  ls: RunFacts;
  emptyFolders: string[];
  imported: RunFacts;
  /** Then `rm -rf node_modules && npm ci` on the new lock, and the same checks again. */
  ci: RunFacts;
  lsAfterCi: RunFacts;
  importedAfterCi: RunFacts;
  afterCi: Record<string, string>;
}

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
  /** Folders under node_modules with nothing in them that were not empty before the install. */
  emptyFolders?: string[];
  /** `import('docusaurus-theme-docs-search')` in plain Node: its exports, or the error. */
  imported?: {code: number | null; output: string};
  /** Files named by our installed packages' `exports` that are missing, and subpaths Node does not resolve (missingExports). */
  exportsMissing?: string[];
  /** Latest project: `npm ls @docusaurus/theme-common` once the other search plugin was removed, and after the theme's install. */
  themeCommonBefore?: RunFacts;
  themeCommonAfter?: RunFacts;
  /**
   * The new lock as a deploy reads it. Latest project: in a copy of the project (package.json,
   * lock, .npmrc), `npm ci`, `npm ls --all`, the plain-Node import, and `npm ci` of the lock from
   * before the theme's install (`before`). Oldest project: `npm ci --dry-run` in such a copy
   * (package.json and lock in sync), then `npm ls --all` and the import in the project itself,
   * whose node_modules npm installed from that lock.
   */
  ci?: {command: 'npm ci' | 'npm ci --dry-run'; install: RunFacts; ls: RunFacts; imported: RunFacts; before?: RunFacts};
  /** After the builds: `npm install` of the latest @docusaurus/core and preset, `npm ls`, a build. */
  upgrade?: {to: string; install: {code: number | null; output: string}; ls: {code: number | null; output: string}; after: Record<string, string>; build: {code: number | null; output: string}};
}
