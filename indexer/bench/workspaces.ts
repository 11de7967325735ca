/**
 * Where the workspaces the benchmarks measure are, found by package name (never by a relative
 * path into another workspace): the site (its build, query sets, synonyms and Docusaurus),
 * docs-indexer (its CLI and fixture sites) and the theme (its package and browser-test site).
 */
import {createRequire} from 'node:module';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

interface PackageJson {
  version: string;
  bin?: Record<string, string>;
}

const require = createRequire(import.meta.url);
const folderOf = (name: string, from: NodeJS.Require = require): string => path.dirname(from.resolve(`${name}/package.json`));
const manifest = (folder: string): PackageJson => require(path.join(folder, 'package.json')) as PackageJson;

/** This workspace (docs-bench); its results go to results/ here. */
export const BENCH = path.dirname(fileURLToPath(import.meta.url));
export const RESULTS = path.join(BENCH, 'results');

/** The site workspace and `require` as the site resolves (its Docusaurus, its React). */
export const SITE = folderOf('site');
export const siteRequire = createRequire(path.join(SITE, 'package.json'));
/** The site's production build. */
export const SITE_BUILD = path.join(SITE, 'build');

/** The docs-indexer workspace: its fixture sites are in test/sites. */
export const INDEXER = folderOf('docs-indexer');
/** The `docs-indexer` command (the package's bin). */
export const INDEXER_BIN = path.join(INDEXER, manifest(INDEXER).bin?.['docs-indexer'] ?? 'bin/docs-indexer.js');

/** The docusaurus-theme-docs-search workspace (packed by bench:theme). */
export const THEME = folderOf('docusaurus-theme-docs-search');

/** The Docusaurus CLI the site builds with. */
export function docusaurusBin(): string {
  const core = folderOf('@docusaurus/core', siteRequire);
  return path.join(core, manifest(core).bin?.docusaurus ?? 'bin/docusaurus.mjs');
}

/** The version of `name` the site installs (Docusaurus, React: what bench:theme installs beside the theme). */
export const siteVersionOf = (name: string): string => manifest(folderOf(name, siteRequire)).version;

/** The folders Node looks in for packages from here (for esbuild bundling a source tree from elsewhere). */
export const NODE_PATHS: string[] = require.resolve.paths('docs-search') ?? [];
