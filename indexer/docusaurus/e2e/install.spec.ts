/**
 * The theme installed from a registry as a user does (fixtures.setup.ts, InstallFacts): `npm
 * install docusaurus-theme-docs-search` into a site on the latest Docusaurus 3 with React 19 and
 * into one pinned to the oldest Docusaurus the theme serves with React 18. No browser here: what
 * npm did, read from the projects' lock files and npm's own commands.
 */
import {test, expect} from '@playwright/test';
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {BELOW_RANGE_DOCUSAURUS, NEWEST_DOCSEARCH, OLDEST_DOCSEARCH, OLDEST_DOCUSAURUS, type InstallFacts, type InstallProject} from './sites.ts';

function factsOf(project: InstallProject | 'below'): InstallFacts {
  const dir = process.env.THEME_E2E_DIR ?? process.env.THEME_E2E_RUN_DIR;
  if (!dir) throw new Error('fixtures.setup.ts did not run');
  return JSON.parse(readFileSync(path.join(dir, project, 'install-facts.json'), 'utf8')) as InstallFacts;
}

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
});

test(`below the supported range (Docusaurus ${BELOW_RANGE_DOCUSAURUS}), npm refuses the install and names the peer dependency`, () => {
  const facts = factsOf('below');
  expect(facts.install.code).not.toBe(0);
  expect(facts.install.output).toContain('ERESOLVE');
  expect(facts.install.output).toMatch(/peer (@docusaurus\/core|react)@"[^"]+" from docusaurus-theme-docs-search@0\.1\.0/);
});
