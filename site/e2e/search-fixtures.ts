/**
 * Named fixtures for the search browser tests: a crafted local index (served in place of the
 * built one with page.route, so no page is added to the site) and helpers shared by the
 * search-*.spec.ts files.
 */
import {expect, type Page, type Request, type Route} from '@playwright/test';
import {packRecords, type LocalIndexFile, type SearchRecord as EngineRecord} from 'docs-search';
import {holdApp} from './shell-routes';

export const SITE_ORIGIN = 'https://homewizard-api-docs.github.io';
export const REPO_URL = 'https://github.com/homewizard-api-docs/homewizard-api-docs';
/** The local index, whatever its query string (`?format=N`). */
export const LOCAL_INDEX_URL = /\/search\/local-index\.json(\?.*)?$/;
/** The index name DocSearch stores recent and favourite searches under in local mode. */
export const LOCAL_INDEX_NAME = 'homewizard-api-docs';
/** The code sample of the XSS test (search-xss.spec.ts), as a reader sees it. */
export const XSS_TEXT = '<img src=x onerror=alert(1)>';

let position = 0;
function rec(path: string, anchor: string, levels: string[], content: string | null): EngineRecord {
  const hierarchy = Object.fromEntries(
    ['lvl0', 'lvl1', 'lvl2', 'lvl3', 'lvl4', 'lvl5', 'lvl6'].map((k, i) => [k, levels[i] ?? null]),
  ) as EngineRecord['hierarchy'];
  const deepest = levels.length - 1;
  return {
    objectID: `fixture-${position}`,
    url: `${SITE_ORIGIN}${path}#${anchor}`,
    url_without_anchor: `${SITE_ORIGIN}${path}`,
    anchor,
    type: content === null ? (`lvl${deepest}` as EngineRecord['type']) : 'content',
    hierarchy,
    content,
    weight: {pageRank: 0, level: content === null ? 100 - 10 * deepest : 0, position: position++},
    language: 'en',
    docusaurus_tag: 'docs-default-current',
    version: 'current',
  };
}

const V2_PAGES = ['measurement', 'batteries', 'system', 'telegram', 'device_information', 'websocket', 'authorization'];

/**
 * - "gizmo" matches 7 hits under "API v2", 2 under "API v1", 1 under "Documentation" and 9 under
 *   "Reference": 19 hits in 4 groups (under the modal's 20; more than a /search page of 15).
 * - "needle" matches one 25-word paragraph (snippet lengths).
 */
export const FIXTURE_RECORDS: EngineRecord[] = [
  ...V2_PAGES.map((p, i) => rec(`/docs/v2/${p}`, `gizmo-${i}`, ['API v2', `Gizmo ${p}`, `Gizmo section ${i}`], `The gizmo of ${p} explained.`)),
  rec('/docs/v1/measurement', 'gizmo-v1-a', ['API v1', 'Gizmo measurement v1'], null),
  rec('/docs/v1/state', 'gizmo-v1-b', ['API v1', 'Gizmo state v1'], null),
  rec('/docs/versioning', 'gizmo-doc', ['Documentation', 'Gizmo versions'], null),
  ...Array.from({length: 9}, (_, i) =>
    rec('/docs/discovery', `gizmo-ref-${i}`, ['Reference', `Gizmo reference ${i + 1}`], `Reference gizmo number ${i + 1}.`),
  ),
  rec(
    '/docs/getting-started',
    'long',
    ['Documentation', 'Getting started', 'Long paragraph'],
    'one two three four five six seven eight nine ten eleven twelve needle thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty twentyone twentytwo twentythree twentyfour',
  ),
];

export function fixtureIndex(records: readonly EngineRecord[] = FIXTURE_RECORDS): LocalIndexFile {
  return packRecords(records, SITE_ORIGIN);
}

/** Serves the fixture index instead of the built one. */
export async function serveFixtureIndex(page: Page, index: LocalIndexFile = fixtureIndex()): Promise<void> {
  await page.route(LOCAL_INDEX_URL, (route) =>
    route.fulfill({status: 200, contentType: 'application/json', body: JSON.stringify(index)}),
  );
}

export const modal = (page: Page) => page.locator('.DocSearch-Modal');
export const searchInput = (page: Page) => page.locator('input.DocSearch-Input');
export const searchButton = (page: Page) => page.getByRole('button', {name: 'Search', exact: true});

/** The server's `data-has-hydrated` ("false" until React has hydrated the page). */
export const isHydrated = (page: Page) => page.evaluate(() => document.documentElement.getAttribute('data-has-hydrated'));

/**
 * The page as a reader sees it at its first paint: HTML and styles, the app (main.js) held back.
 * Returns the function that lets the app through.
 */
export async function openBeforeApp(page: Page, path = '/docs/introduction'): Promise<() => Promise<void>> {
  const release = await holdApp(page);
  await page.goto(path, {waitUntil: 'commit'});
  await expect(searchButton(page)).toBeVisible();
  expect(await isHydrated(page)).toBe('false');
  return release;
}

/**
 * Holds back every script the page requests from now on (the search modal's chunk, on a page
 * that has loaded): `count()` says how many wait, `release()` lets them through.
 */
export async function holdScripts(page: Page): Promise<{count: () => number; release: () => Promise<void>}> {
  const held: Route[] = [];
  await page.route(SCRIPTS, (route) => {
    held.push(route);
  });
  return {
    count: () => held.length,
    release: async () => {
      await page.unroute(SCRIPTS);
      for (const route of held) await route.continue();
    },
  };
}
const SCRIPTS = '**/assets/js/*.js';

/** The key caps appear once React has hydrated the search bar, i.e. when shortcuts work. */
export async function waitForSearchBar(page: Page): Promise<void> {
  await expect(page.locator('.DocSearch-Button-Keys kbd')).toHaveCount(2);
}

/** Opens the modal with Ctrl+K and waits for its input. */
export async function openModal(page: Page): Promise<void> {
  await waitForSearchBar(page);
  await page.keyboard.press('Control+k');
  await expect(searchInput(page)).toBeFocused();
}

export async function search(page: Page, query: string): Promise<void> {
  await searchInput(page).fill(query);
}

/** Records every request that leaves localhost. */
export function collectForeignRequests(page: Page): Request[] {
  const foreign: Request[] = [];
  page.context().on('request', (request) => {
    const {hostname, protocol} = new URL(request.url());
    if (protocol === 'data:' || protocol === 'blob:') return;
    if (hostname !== 'localhost' && hostname !== '127.0.0.1') foreign.push(request);
  });
  return foreign;
}

/** Fails the test if any dialog (alert) opens. */
export function failOnDialog(page: Page): string[] {
  const dialogs: string[] = [];
  page.on('dialog', async (dialog) => {
    dialogs.push(dialog.message());
    await dialog.dismiss();
  });
  return dialogs;
}

export const recentKey = (indexName: string) => `__DOCSEARCH_RECENT_SEARCHES__${indexName}`;
export const favoriteKey = (indexName: string) => `__DOCSEARCH_FAVORITE_SEARCHES__${indexName}`;

/** A recent or favourite search as DocSearch stores it (a hit without highlight data). */
export function storedSearch(n: number) {
  return {
    objectID: `seeded-${n}`,
    url: `/docs/changelog#seeded-${n}`,
    type: 'lvl1',
    hierarchy: {lvl0: 'Documentation', lvl1: `Seeded search ${n}`, lvl2: null, lvl3: null, lvl4: null, lvl5: null, lvl6: null},
    content: null,
    __docsearch_parent: null,
  };
}

/** Writes stored searches and reloads, as if earlier visits had made them. */
export async function seedStoredSearches(page: Page, entries: Record<string, unknown[]>): Promise<void> {
  await page.evaluate((e) => {
    for (const [key, value] of Object.entries(e)) localStorage.setItem(key, JSON.stringify(value));
  }, entries);
  await page.reload();
  await waitForSearchBar(page);
}

/** The titles listed under a start-screen section ("Recent" or "Favorite"). */
export async function startScreenTitles(page: Page, section: 'Recent' | 'Favorite'): Promise<string[]> {
  const group = page.locator('.DocSearch-Hits').filter({has: page.locator('.DocSearch-Hit-source', {hasText: new RegExp(`^${section}$`)})});
  return group.locator('.DocSearch-Hit-title').allInnerTexts();
}
