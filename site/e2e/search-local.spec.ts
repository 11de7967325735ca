/**
 * Local search mode (no Algolia variables at build time): the modal and its index load on first
 * use, work before the modal's code has arrived, nothing leaves the origin, searching works
 * offline once loaded, an unreachable index shows the error screen, and a sharded index (a large
 * site) answers the same.
 */
import {test, expect, type Page} from '@playwright/test';
import {LOCAL_INDEX_FORMAT, LocalSearchEngine} from 'docs-search';
import {buildShards} from 'docs-search/shards';
import {
  FIXTURE_RECORDS,
  LOCAL_INDEX_URL,
  SITE_ORIGIN,
  collectForeignRequests,
  holdScripts,
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

/** The URL of the first hit the modal shows for `query`, typed on the introduction page against the site's own index. */
async function firstHit(page: Page, query: string): Promise<URL> {
  await page.goto('/docs/introduction');
  await openModal(page);
  await search(page, query);
  const first = page.locator('.DocSearch-Hit [data-href]').first();
  await expect(first).toBeVisible();
  return new URL((await first.getAttribute('data-href')) ?? '', SITE_ORIGIN);
}

test("the site's synonyms reach the built index: a word no page uses finds the page its synonym names", async ({page}) => {
  // site/search-synonyms.json makes "datagram" find "telegram"; no page says "datagram", and it is
  // no typo of any word on the pages, so only the synonyms written into the index answer it.
  expect((await firstHit(page, 'datagram')).pathname).toMatch(/^\/docs\/v[12]\/telegram\/?$/);
});

test('a misspelt word the pages never use, one letter from a single word, finds that word: "rebot the device" opens on the Reboot section', async ({page}) => {
  // `rebot` is in no page; `reboot` is one letter away and no other word is. The section headed
  // "Deciding what a device supports" holds `device` in its headings and a reboot in a table row:
  // it must not come first.
  const url = await firstHit(page, 'rebot the device');
  expect(url.pathname + url.hash).toMatch(/^\/docs\/v2\/system\/?#reboot/);
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
  const scripts = await holdScripts(page);
  await page.keyboard.press('Control+k');
  await expect.poll(scripts.count).toBeGreaterThan(0);
  await page.keyboard.type('gizmo');
  await expect(modal(page)).toHaveCount(0);
  await scripts.release();
  await expect(searchInput(page)).toBeFocused();
  await expect(searchInput(page)).toHaveValue('gizmo');
  await expect(page.locator('.DocSearch-Hit').first()).toBeVisible();
});

/** The scripts downloaded from now on whose code holds `marker` (their file names are hashes). */
function collectScriptsWith(page: Page, marker: string): string[] {
  const found: string[] = [];
  page.on('response', async (response) => {
    if (!new URL(response.url()).pathname.endsWith('.js')) return;
    const body = await response.text().catch(() => '');
    if (body.includes(marker)) found.push(response.url());
  });
  return found;
}

/** Scripts holding the sharded index's reader (docs-search's shard-loader chunk), by one of its errors. */
const collectShardReaderScripts = (page: Page) => collectScriptsWith(page, 'malformed shard');

test('a one-file index (our site) never downloads the sharded index reader', async ({page}) => {
  const readers = collectShardReaderScripts(page);
  await page.goto('/docs/introduction');
  await openModal(page);
  // The real index built into the site.
  await search(page, 'measurement');
  await expect(page.locator('.DocSearch-Hit').first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(readers).toEqual([]);
});

test('the modal and the /search page share one copy of the search engine', async ({page}) => {
  // A message of the local client (docs-search): in every script that carries the engine.
  const engines = collectScriptsWith(page, 'Unreadable local search index');
  await page.goto('/docs/introduction');
  await openModal(page);
  await search(page, 'measurement');
  await expect(page.locator('.DocSearch-Hit').first()).toBeVisible();
  await page.keyboard.press('Escape');
  // A client-side navigation to /search: its route chunk comes now, the engine must not.
  await page.evaluate(() => window.history.pushState(null, '', '/search?q=measurement'));
  await page.evaluate(() => window.dispatchEvent(new PopStateEvent('popstate')));
  await expect(page.locator('main article').first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(engines).toHaveLength(1);
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
  // Not the no-results screen DocSearch itself shows (its autocomplete-core overwrites the error
  // status): the theme's error screen takes its place and hides it (searchFailure.tsx).
  await expect(page.locator('.DocSearch-NoResults')).toBeHidden();
  await expect(page.getByText(/No results for/)).toBeHidden();
});

test('the error screen goes once the query is cleared, and a later search answers', async ({page}) => {
  let fail = true;
  await serveFixtureIndex(page);
  // Added last, so asked first: fails the fetch, then hands it to the fixture index.
  await page.route(LOCAL_INDEX_URL, (route) => (fail ? route.abort('internetdisconnected') : route.fallback()));
  await page.goto('/docs/introduction');
  await openModal(page);
  await search(page, 'gizmo');
  await expect(page.locator('.DocSearch-ErrorScreen')).toBeVisible();
  await page.getByRole('button', {name: 'Clear the query'}).click();
  await expect(page.locator('.DocSearch-ErrorScreen')).toHaveCount(0);
  await expect(page.getByText('No recent searches')).toBeVisible();
  fail = false;
  await search(page, 'gizmo');
  await expect(page.locator('.DocSearch-Hit').first()).toBeVisible();
  await expect(page.locator('.DocSearch-ErrorScreen')).toHaveCount(0);
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

test('a sharded index (a large site) answers the modal and /search the same, fetching only the files of the words typed', async ({page}) => {
  const readers = collectShardReaderScripts(page);
  const {manifest, files} = buildShards(FIXTURE_RECORDS, SITE_ORIGIN, new LocalSearchEngine([...FIXTURE_RECORDS]));
  const fetched: string[] = [];
  await page.route(LOCAL_INDEX_URL, (route) => route.fulfill({status: 200, contentType: 'application/json', body: JSON.stringify(manifest)}));
  await page.route(/\/search\/local-index\/[^/]+\.json(\?.*)?$/, (route) => {
    const name = new URL(route.request().url()).pathname.split('/').pop()!;
    fetched.push(name);
    const body = files.get(name);
    return body === undefined ? route.fulfill({status: 404}) : route.fulfill({status: 200, contentType: 'application/json', body});
  });
  await page.goto('/docs/introduction');
  await openModal(page);
  await search(page, 'gizmo');
  // the groups the one-file fixture gives (search-modal.spec.ts), at most 5 hits each
  await expect(page.locator('.DocSearch-Hit-source')).toHaveCount(4);
  const sizes = await page.locator('.DocSearch-Hits').evaluateAll((sections) =>
    sections.map((s) => [s.querySelector('.DocSearch-Hit-source')?.textContent, s.querySelectorAll('.DocSearch-Hit').length]),
  );
  expect(Object.fromEntries(sizes)).toEqual({'API v2': 5, Reference: 5, 'API v1': 2, Documentation: 1});
  await expect(page.locator('.DocSearch-Hit mark').first()).toHaveText(/gizmo/i);
  // the terms file of "gi" (the query is filled at once), then records of the hits
  expect(fetched.filter((f) => f.startsWith('t-') || f.startsWith('h-'))).toEqual(['t-6769.json']);
  expect(fetched.filter((f) => f.startsWith('r-')).length).toBeGreaterThan(0);
  // (its reader is a script of its own, loaded for a manifest only)
  await expect.poll(() => readers.length).toBe(1);
  await page.keyboard.press('Escape');
  await page.goto('/search?q=needle');
  await expect(page.locator('main article')).toHaveCount(1);
  await expect(page.locator('main article')).toContainText('needle');
});
