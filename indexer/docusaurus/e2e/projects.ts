/**
 * The latest and oldest projects as they are before the theme comes (sites.ts says what each
 * holds): committed as files, `e2e/projects/<kind>/package.json` and `package-lock.json`, which
 * fixtures.setup.ts copies and installs with `npm ci`, as a real site's deploy does. They are
 * written by `npm run e2e:projects` (scripts/e2e-projects.ts, writeProjects below) from the public
 * registry: each project's own Docusaurus and React installed by name with what its lock holds
 * without package.json naming it, then those removed again (npm keeps a removed package where
 * another one needs it, and drops the rest).
 */
import {copyFile, mkdir, mkdtemp, readFile, rm, writeFile} from 'node:fs/promises';
import {createRequire} from 'node:module';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {runCommand} from './registry.ts';
import {
  OLD_SITES_WEBPACK,
  OLDEST_DOCSEARCH,
  OLDEST_DOCUSAURUS,
  OTHER_SEARCH_PLUGIN,
  OTHER_SEARCH_PLUGIN_VERSION,
  SITE_ALGOLIASEARCH,
  SITE_DOCSEARCH_4,
  type InstallProject,
} from './sites.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

/** Where a project's committed files are. */
export const projectFolder = (kind: InstallProject) => path.join(here, 'projects', kind);
/** The files a project is made of before `npm ci` (its .npmrc is written by the setup). */
export const PROJECT_FILES = ['package.json', 'package-lock.json'] as const;
const REGENERATE = 'npm run e2e:projects --workspace docusaurus-theme-docs-search';

/** The installed version of a package of this repository's tree (the latest project's Docusaurus and React). */
export const repositoryVersion = (name: string) => (require(`${name}/package.json`) as {version: string}).version;

/** What each project's lock must hold of @docusaurus/core: the repository's version, OLDEST_DOCUSAURUS. */
export const expectedDocusaurus = (kind: InstallProject) => (kind === 'latest' ? repositoryVersion('@docusaurus/core') : OLDEST_DOCUSAURUS);

interface Lock {
  packages: Record<string, {version?: string}>;
}

/**
 * Throws, naming the command that rewrites them, unless each committed project is there and its
 * lock holds the expected @docusaurus/core: the latest project the repository's version (so that
 * upgrading Docusaurus here cannot leave the theme tested on an older one), the oldest OLDEST_DOCUSAURUS.
 */
export async function checkProjects(): Promise<void> {
  for (const kind of ['latest', 'oldest'] as const) {
    const lockFile = path.join(projectFolder(kind), 'package-lock.json');
    let lock: Lock;
    try {
      lock = JSON.parse(await readFile(lockFile, 'utf8')) as Lock;
    } catch (error) {
      throw new Error(`${path.relative(process.cwd(), lockFile)} cannot be read (${(error as Error).message}): run ${REGENERATE}`, {cause: error});
    }
    const locked = lock.packages['node_modules/@docusaurus/core']?.version;
    const expected = expectedDocusaurus(kind);
    if (locked !== expected) {
      const whose = kind === 'latest' ? "the repository's is" : 'OLDEST_DOCUSAURUS (e2e/sites.ts) is';
      throw new Error(
        `e2e/projects/${kind}/package-lock.json locks @docusaurus/core ${locked ?? '(none)'}, ${whose} ${expected}: run ${REGENERATE}`,
      );
    }
  }
}

/**
 * A project's package.json as a user's site has it with the packages its lock must also hold
 * (lockedOnly), and those packages: installed by name, then uninstalled.
 */
export function projectManifest(kind: InstallProject): {manifest: object; lockedOnly: string[]} {
  const docusaurus = kind === 'latest' ? `^${repositoryVersion('@docusaurus/core')}` : OLDEST_DOCUSAURUS;
  const react = kind === 'latest' ? `^${repositoryVersion('react')}` : '^18.2.0';
  const dependencies: Record<string, string> = {
    '@docusaurus/core': docusaurus,
    '@docusaurus/preset-classic': docusaurus,
    react,
    'react-dom': react,
  };
  if (kind === 'latest') dependencies['@docusaurus/faster'] = docusaurus;
  // oldest: a lock file from Docusaurus 3.7's time holds DocSearch 3.8 (the stock search theme
  // asked for ^3.8.1) without package.json naming it. latest: the lock holds what the public
  // site's does (sites.ts, SITE_ALGOLIASEARCH); with them another search plugin, which nothing
  // else needs, so that the uninstall removes it: a site that tried it before this theme
  // (README, "Before you install").
  const lockedOnly: Record<string, string> =
    kind === 'latest'
      ? {algoliasearch: SITE_ALGOLIASEARCH, '@docsearch/react': SITE_DOCSEARCH_4, '@docsearch/css': SITE_DOCSEARCH_4, [OTHER_SEARCH_PLUGIN]: OTHER_SEARCH_PLUGIN_VERSION}
      : {'@docsearch/react': OLDEST_DOCSEARCH, '@docsearch/css': OLDEST_DOCSEARCH};
  Object.assign(dependencies, lockedOnly);
  // Docusaurus 3.0 to 3.5 do not build on a fresh install, with or without the theme: their
  // webpackbar fails on webpack 5.96 and later ("Invalid options object. Progress Plugin"), and
  // their theme-classic requires webpack/lib/ContextReplacementPlugin, gone in 5.113. A site on
  // such a version has its lock file's webpack from its time: this one pins it as such a lock does.
  const overrides = kind === 'oldest' ? {webpack: OLD_SITES_WEBPACK} : undefined;
  return {manifest: {name: `${kind}-site`, version: '1.0.0', private: true, dependencies, overrides}, lockedOnly: Object.keys(lockedOnly)};
}

/**
 * The public registry whatever the user's configuration says, and `resolved` kept in the lock
 * (npm's default, which a user's .npmrc may turn off) as a site's lock has it: `npm ci` then
 * takes each tarball by its integrity from npm's cache without asking the registry for the
 * package's metadata, and asks the configured registry for the others (replace-registry-host).
 */
const NPM_FLAGS = ['--no-audit', '--no-fund', '--registry=https://registry.npmjs.org/', '--omit-lockfile-registry-resolved=false'];

async function mustRun(args: string[], cwd: string): Promise<void> {
  const ran = await runCommand('npm', args, cwd);
  if (ran.code !== 0) throw new Error(`npm ${args.join(' ')} (in ${cwd}) failed:\n${ran.stdout}\n${ran.stderr}`);
}

/**
 * Makes one project from the public registry in a temporary folder (install, then uninstall of
 * lockedOnly) and writes its package.json and package-lock.json into e2e/projects/<kind>.
 */
async function writeProject(kind: InstallProject): Promise<string> {
  const work = await mkdtemp(path.join(tmpdir(), `theme-e2e-${kind}-`));
  try {
    const {manifest, lockedOnly} = projectManifest(kind);
    await writeFile(path.join(work, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    await mustRun(['install', ...NPM_FLAGS], work);
    await mustRun(['uninstall', ...NPM_FLAGS, ...lockedOnly], work);
    const to = projectFolder(kind);
    await mkdir(to, {recursive: true});
    for (const file of PROJECT_FILES) await copyFile(path.join(work, file), path.join(to, file));
    const lock = JSON.parse(await readFile(path.join(to, 'package-lock.json'), 'utf8')) as Lock;
    return `e2e/projects/${kind}: @docusaurus/core ${lock.packages['node_modules/@docusaurus/core']?.version}, ${Object.keys(lock.packages).length - 1} packages in the lock`;
  } finally {
    await rm(work, {recursive: true, force: true});
  }
}

/** Both projects, side by side (each mostly waits on the network), then checkProjects. */
export async function writeProjects(): Promise<string[]> {
  const written = await Promise.all((['latest', 'oldest'] as const).map(writeProject));
  await checkProjects();
  return written;
}
