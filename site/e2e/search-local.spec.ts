/**
 * Local search mode (no Algolia variables at build time): the modal and its index load on first
 * use, work before the modal's code has arrived, nothing leaves the origin, searching works
 * offline once loaded, and an unreachable index shows the error screen.
 */
import {test, expect, type Route} from '@playwright/test';
import {LOCAL_INDEX_FORMAT} from 'docs-search';
import {
  LOCAL_INDEX_URL,
  collectForeignRequests,
  modal,
  openModal,
  search,
  searchButton,
  searchInput,
  serveFixtureIndex,
  waitForSearchBar,
} from './search-fixtures';

test('no request leaves localhost during a whole search session, and no preconnect to Algolia', async ({page}) => {
  const foreign = collectForeignRequests(page);
  await page.goto('/docs/introduction');
  await waitForSearchBar(page);
  await expect(page.locator('link[rel="preconnect"], link[rel="dns-prefetch"]')).toHaveCount(0);
  await openModal(page);
  // The real index built into the site.
  await search(page, 'measurement');
  await expect(page.locator('.DocSearch-Hit').first()).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(modal(page)).toHaveCount(0);
  await page.goto('/search?q=measurement');
  await expect(page.locator('main article').first()).toBeVisible();
  expect(foreign.map((r) => r.url())).toEqual([]);
});

test('the index and the modal code are not loaded before first use', async ({page}) => {
  const requested: string[] = [];
  const indexQueries: string[] = [];
  page.on('request', (r) => {
    requested.push(new URL(r.url()).pathname);
    if (LOCAL_INDEX_URL.test(r.url())) indexQueries.push(new URL(r.url()).search);
  });
  await serveFixtureIndex(page);
  await page.goto('/docs/introduction');
  await waitForSearchBar(page);
  await page.waitForLoadState('networkidle');
  expect(requested.filter((p) => p.endsWith('/search/local-index.json'))).toEqual([]);
  const scriptsBefore = requested.filter((p) => p.endsWith('.js')).length;

  await searchButton(page).hover();
  await expect.poll(() => requested.filter((p) => p.endsWith('.js')).length).toBeGreaterThan(scriptsBefore);
  // Hovering loads the modal's code, not the index.
  expect(requested.filter((p) => p.endsWith('/search/local-index.json'))).toEqual([]);

  await searchButton(page).click();
  await search(page, 'gizmo');
  await expect(page.locator('.DocSearch-Hit').first()).toBeVisible();
  expect(requested.filter((p) => p.endsWith('/search/local-index.json'))).toHaveLength(1);
  // The URL names the index format, so a browser never answers from a cached file of another one.
  expect(indexQueries).toEqual([`?format=${LOCAL_INDEX_FORMAT}`]);
});

test('Ctrl+K pressed before the modal code has loaded opens it, keeping what was typed meanwhile', async ({page}) => {
  await serveFixtureIndex(page);
  await page.goto('/docs/introduction');
  await waitForSearchBar(page);
  await page.waitForLoadState('networkidle');
  // Hold back every script requested from now on (the modal's chunk).
  const held: Route[] = [];
  await page.route('**/assets/js/*.js', (route) => {
    held.push(route);
  });
  await page.keyboard.press('Control+k');
  await expect.poll(() => held.length).toBeGreaterThan(0);
  await page.keyboard.type('gizmo');
  await expect(modal(page)).toHaveCount(0);
  await page.unroute('**/assets/js/*.js');
  for (const route of held) await route.continue();
  await expect(searchInput(page)).toBeFocused();
  await expect(searchInput(page)).toHaveValue('gizmo');
  await expect(page.locator('.DocSearch-Hit').first()).toBeVisible();
});

test('once loaded, searching works offline', async ({page, context}) => {
  await serveFixtureIndex(page);
  await page.goto('/docs/introduction');
  await openModal(page);
  await search(page, 'gizmo');
  await expect(page.locator('.DocSearch-Hit').first()).toBeVisible();
  await page.keyboard.press('Escape');
  await context.setOffline(true);
  await openModal(page);
  await search(page, 'versions');
  await expect(page.locator('.DocSearch-Hit', {hasText: 'Gizmo versions'})).toBeVisible();
  await context.setOffline(false);
});

test('an unreachable index shows "Unable to fetch results"', async ({page}) => {
  await page.route(LOCAL_INDEX_URL, (route) => route.abort('internetdisconnected'));
  await page.goto('/docs/introduction');
  await openModal(page);
  await search(page, 'gizmo');
  const screen = page.locator('.DocSearch-ErrorScreen');
  await expect(screen.locator('.DocSearch-Title')).toHaveText('Unable to fetch results');
  await expect(screen).toContainText('You might want to check your network connection.');
  // Not the no-results screen the unpatched autocomplete-core would show.
  await expect(page.locator('.DocSearch-NoResults')).toHaveCount(0);
});

test('the modal does not credit Algolia in local mode', async ({page}) => {
  await serveFixtureIndex(page);
  await page.goto('/docs/introduction');
  await openModal(page);
  await search(page, 'gizmo');
  await expect(page.locator('.DocSearch-Hit').first()).toBeVisible();
  await expect(page.locator('.DocSearch-Commands')).toBeVisible();
  await expect(page.locator('.DocSearch-Logo')).toBeHidden();
});
