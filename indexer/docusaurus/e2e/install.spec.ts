/**
 * The theme installed from a registry as a user does (fixtures.setup.ts, InstallFacts): `npm
 * install docusaurus-theme-docs-search` into a site on the latest Docusaurus 3 with React 19 (its
 * lock holding an older algoliasearch, DocSearch 4.4 and so zod 4, and the leftovers of another
 * search plugin) and into one pinned to the oldest Docusaurus the theme serves with React 18; and
 * docs-search and docs-indexer each alone into a project that holds zod 4 (TreeFacts). No browser
 * here: what npm did, read from the projects' lock files and npm's own commands.
 */
import {test, expect} from '@playwright/test';
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {
  BELOW_RANGE_DOCUSAURUS,
  NEWEST_DOCSEARCH,
  OLDEST_DOCSEARCH,
  OLDEST_DOCUSAURUS,
  OTHER_SEARCH_PLUGIN,
  SITE_ALGOLIASEARCH,
  SITE_DOCSEARCH_4,
  ZOD4_TREES,
  type InstallFacts,
  type InstallProject,
  type TreeFacts,
  type Zod4Tree,
} from './sites.ts';

function runDir(): string {
  const dir = process.env.THEME_E2E_DIR ?? process.env.THEME_E2E_RUN_DIR;
  if (!dir) throw new Error('fixtures.setup.ts did not run');
  return dir;
}

function factsOf(project: InstallProject | 'below'): InstallFacts {
  return JSON.parse(readFileSync(path.join(runDir(), project, 'install-facts.json'), 'utf8')) as InstallFacts;
}

function treeFactsOf(name: Zod4Tree): TreeFacts {
  return JSON.parse(readFileSync(path.join(runDir(), 'trees', name, 'tree-facts.json'), 'utf8')) as TreeFacts;
}

/** The packages `npm ci` names as missing from a lock file ("Missing: <name>@<version> from lock file"). */
const missingFromLock = (output: string) => [...output.matchAll(/Missing: (\S+?)@\S* from lock file/g)].map((m) => m[1]).sort();

/** The versions of @docusaurus/theme-common that `npm ls @docusaurus/theme-common` lists (deduped entries are the same copy). */
const themeCommonCopies = (output: string) => output.split('\n').filter((line) => /@docusaurus\/theme-common@\S+$/.test(line.trim())).map((line) => line.trim().split('@').at(-1));

/** Lock-file paths of @docusaurus/* packages that are not at the top level: a second copy. */
const nestedDocusaurus = (versions: Record<string, string>) => Object.keys(versions).filter((key) => /.\/node_modules\/@docusaurus\//.test(key));

/** @docusaurus/* packages present in more than one version (two copies of one version are not two Docusaurus). */
function docusaurusVersions(versions: Record<string, string>): Record<string, string[]> {
  const found: Record<string, Set<string>> = {};
  for (const [key, version] of Object.entries(versions)) {
    const name = /node_modules\/(@docusaurus\/[^/]+)$/.exec(key)?.[1];
    if (name) (found[name] ??= new Set()).add(version);
  }
  return Object.fromEntries(Object.entries(found).filter(([, set]) => set.size > 1).map(([name, set]) => [name, [...set]]));
}

/** Every package the site had, at the same place and version, is still there. */
function changed(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.entries(before)
    .filter(([key, version]) => after[key] !== version)
    .map(([key, version]) => `${key}: ${version} -> ${after[key] ?? 'removed'}`);
}

for (const project of ['latest', 'oldest'] as const) {
  test.describe(`npm install docusaurus-theme-docs-search from the registry into the ${project} Docusaurus`, () => {
    test('installs with no empty folder, npm ls is clean and the package imports in plain Node', () => {
      const facts = factsOf(project);
      if (project === 'oldest') expect(facts.docusaurus).toBe(OLDEST_DOCUSAURUS);
      expect(facts.install.code, facts.install.output).toBe(0);
      expect(facts.install.output).not.toMatch(/ERESOLVE|peer dep/i);
      expect(facts.emptyFolders).toEqual([]);
      expect(facts.ls?.code, facts.ls?.output).toBe(0);
      expect(facts.imported?.code, facts.imported?.output).toBe(0);
      expect(facts.imported?.output).toMatch(/\bdefault\b/);
      // Every file each published package's exports name is in it, and each subpath resolves.
      expect(facts.exportsMissing).toEqual([]);
      // The companions came from the registry as packages of their own.
      for (const name of ['docusaurus-theme-docs-search', 'docs-indexer', 'docs-search']) expect(facts.after[`node_modules/${name}`]).toBe('0.1.0');
    });

    test("leaves every package the site had at its version (npm ls and the lock file: only additions), DocSearch's included, and adds no second copy of any @docusaurus package", () => {
      const facts = factsOf(project);
      expect(Object.keys(facts.before).length).toBeGreaterThan(500);
      expect(changed(facts.before, facts.after)).toEqual([]);
      // npm ls before and after: every package installed before is still there, at its place and version.
      expect(facts.lsBefore?.length).toBeGreaterThan(500);
      const listedAfter = new Set(facts.lsAfter);
      expect(facts.lsBefore?.filter((entry) => !listedAfter.has(entry))).toEqual([]);
      expect(nestedDocusaurus(facts.after)).toEqual([]);
      const themeDocSearch = 'node_modules/docusaurus-theme-docs-search/node_modules/@docsearch/react';
      if (project === 'oldest') {
        // The lock held DocSearch 3.8 (not named in package.json): the theme uses that copy.
        expect(facts.before['node_modules/@docsearch/react']).toBe(OLDEST_DOCSEARCH);
        expect(facts.after['node_modules/@docsearch/react']).toBe(OLDEST_DOCSEARCH);
        expect(facts.after['node_modules/@docsearch/css']).toBe(OLDEST_DOCSEARCH);
        expect(facts.after[themeDocSearch]).toBeUndefined();
      } else {
        // The stock search theme has DocSearch 4 at the top: the theme gets the newest 3.x of its own.
        expect(facts.after['node_modules/@docsearch/react']).toMatch(/^4\./);
        expect(facts.after[themeDocSearch]).toBe(NEWEST_DOCSEARCH);
      }
    });

    if (project === 'latest') {
      test("reuses the site's older algoliasearch and keeps its DocSearch 4 and zod 4; one @docusaurus/theme-common after another search plugin was removed", () => {
        const facts = factsOf(project);
        // The tree as the public site's: an older algoliasearch and DocSearch 4.4 in the lock, zod 4 at the top.
        expect(facts.before['node_modules/algoliasearch']).toBe(SITE_ALGOLIASEARCH);
        expect(facts.before['node_modules/@docsearch/react']).toBe(SITE_DOCSEARCH_4);
        expect(facts.before['node_modules/zod']).toMatch(/^4\./);
        // The other plugin is gone, and left one theme-common.
        expect(facts.before[`node_modules/${OTHER_SEARCH_PLUGIN}`]).toBeUndefined();
        expect(facts.themeCommonBefore?.code, facts.themeCommonBefore?.output).toBe(0);
        expect(themeCommonCopies(facts.themeCommonBefore?.output ?? '')).toHaveLength(1);
        // Our packages take the site's algoliasearch: no copy of their own, no upgrade ("changed" above).
        expect(facts.after['node_modules/algoliasearch']).toBe(SITE_ALGOLIASEARCH);
        const ownAlgolia = Object.keys(facts.after).filter((key) => /node_modules\/(docs-indexer|docs-search|docusaurus-theme-docs-search)\/node_modules\/algoliasearch$/.test(key));
        expect(ownAlgolia).toEqual([]);
        expect(facts.themeCommonAfter?.code, facts.themeCommonAfter?.output).toBe(0);
        expect(themeCommonCopies(facts.themeCommonAfter?.output ?? '')).toHaveLength(1);
      });
    }

    const deploy =
      project === 'latest'
        ? 'the deploy: npm ci of the new lock on an empty node_modules installs, npm ls --all is clean, the theme imports; or it fails only as the lock from before the install did'
        : 'the deploy: npm ci --dry-run accepts the new lock (package.json and lock in sync), npm ls --all of the tree npm installed from it is clean, the theme imports';
    test(deploy, () => {
      const {ci} = factsOf(project);
      expect(ci?.command).toBe(project === 'latest' ? 'npm ci' : 'npm ci --dry-run');
      if (ci?.before && ci.before.code !== 0) {
        // The site's own lock already fails npm ci (seen on the latest project: @swc/html 1.16.22,
        // from @docusaurus/faster, names platform packages the registry does not have, so npm's lock
        // lacks them): the theme's install adds no reason, and none of ours.
        expect(missingFromLock(ci.before.output).length, ci.before.output).toBeGreaterThan(0);
        expect(missingFromLock(ci.install.output)).toEqual(missingFromLock(ci.before.output));
        return;
      }
      expect(ci?.install.code, ci?.install.output).toBe(0);
      expect(ci?.ls.code, ci?.ls.output).toBe(0);
      expect(ci?.imported.code, ci?.imported.output).toBe(0);
    });
  });
}

test('upgrading Docusaurus after the install works: npm ls clean, one version of each @docusaurus package, the site builds', () => {
  const {upgrade} = factsOf('oldest');
  expect(upgrade).toBeDefined();
  expect(upgrade?.install.code, upgrade?.install.output).toBe(0);
  expect(upgrade?.ls.code, upgrade?.ls.output).toBe(0);
  expect(upgrade?.after['node_modules/@docusaurus/core']).toBe(upgrade?.to);
  // No second copy, not even of one version: with @docusaurus/theme-search-algolia among the
  // theme's peers, npm placed plugin-content-blog and -pages twice at 3.10.2 (under preset-classic
  // and theme-classic) on this upgrade, as theme-common 3.0.0 still held the top-level 3.0.0 ones.
  expect(docusaurusVersions(upgrade?.after ?? {})).toEqual({});
  expect(nestedDocusaurus(upgrade?.after ?? {})).toEqual([]);
  expect(upgrade?.build.code, upgrade?.build.output).toBe(0);
  // 3.10 without future.faster runs postcss-preset-env over the theme's stylesheets: no warning about them.
  expect(upgrade?.build.output).not.toMatch(/postcss-is-pseudo-class|docusaurus-theme-docs-search[\\/]lib[\\/].*\.css/);
});

for (const name of ZOD4_TREES) {
  test(`${name} alone into a project with zod 4 at its top (npm init -y && npm i zod@4 && npm i ${name}): npm ls --all clean, plain-Node import, npm ci of the new lock`, () => {
    const facts = treeFactsOf(name);
    expect(facts.before['node_modules/zod']).toMatch(/^4\./);
    expect(facts.install.code, facts.install.output).toBe(0);
    expect(changed(facts.before, facts.after)).toEqual([]);
    expect(facts.after[`node_modules/${name}`]).toBe('0.1.0');
    // docs-search's own zod 3 beside the site's zod 4, each package with what it declared.
    expect(facts.after['node_modules/docs-search']).toBe('0.1.0');
    expect(facts.after['node_modules/docs-search/node_modules/zod']).toMatch(/^3\./);
    expect(facts.ls.code, facts.ls.output).toBe(0);
    expect(facts.emptyFolders).toEqual([]);
    expect(facts.imported.code, facts.imported.output).toBe(0);
    expect(facts.imported.output).toContain('parsed 0');
    // rm -rf node_modules && npm ci: the lock installs as it is, and works.
    expect(facts.ci.code, facts.ci.output).toBe(0);
    expect(facts.lsAfterCi.code, facts.lsAfterCi.output).toBe(0);
    expect(facts.importedAfterCi.code, facts.importedAfterCi.output).toBe(0);
    expect(facts.afterCi).toEqual(facts.after);
  });
}

test(`below the supported range (Docusaurus ${BELOW_RANGE_DOCUSAURUS}), npm refuses the install and names the peer dependency`, () => {
  const facts = factsOf('below');
  expect(facts.install.code).not.toBe(0);
  expect(facts.install.output).toContain('ERESOLVE');
  expect(facts.install.output).toMatch(/peer (@docusaurus\/core|react)@"[^"]+" from docusaurus-theme-docs-search@0\.1\.0/);
});
