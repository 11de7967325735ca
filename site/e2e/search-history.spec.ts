/**
 * Recent and favourite searches (spec sections 2 and 8): shown with an empty query, kept in
 * localStorage per index, 7 recent (4 when favourites exist) and 10 favourites.
 */
import {test, expect} from '@playwright/test';
import {
  LOCAL_INDEX_NAME,
  favoriteKey,
  modal,
  openModal,
  recentKey,
  search,
  searchInput,
  seedStoredSearches,
  serveFixtureIndex,
  startScreenTitles,
  storedSearch,
  waitForSearchBar,
} from './search-fixtures';

test.beforeEach(async ({page}) => {
  await serveFixtureIndex(page);
  await page.goto('/docs/introduction');
  await waitForSearchBar(page);
});

/** Searches, opens the first hit with Enter and waits for the modal to close. */
async function openHit(page: import('@playwright/test').Page, query: string, title: string) {
  await openModal(page);
  await search(page, query);
  await expect(page.locator('.DocSearch-Hit').first()).toContainText(title);
  await page.keyboard.press('Enter');
  await expect(modal(page)).toHaveCount(0);
}

test('an opened hit appears under Recent, stored under the index name', async ({page}) => {
  await openHit(page, 'gizmo versions', 'Gizmo versions');
  await expect(page).toHaveURL(/\/docs\/versioning#gizmo-doc$/);
  await openModal(page);
  await expect(page.locator('.DocSearch-Hit-source').first()).toHaveText('Recent');
  await expect.poll(() => startScreenTitles(page, 'Recent')).toEqual(['Gizmo versions']);
  const stored = await page.evaluate((key) => localStorage.getItem(key), recentKey(LOCAL_INDEX_NAME));
  expect(JSON.parse(stored ?? '[]')).toEqual([expect.objectContaining({objectID: expect.any(String), url: '/docs/versioning#gizmo-doc'})]);
});

test('"Save this search" moves a recent search to Favorite', async ({page}) => {
  await openHit(page, 'gizmo versions', 'Gizmo versions');
  await openModal(page);
  await page.getByRole('button', {name: 'Save this search'}).click();
  await expect(page.locator('.DocSearch-Hit-source').first()).toHaveText('Favorite');
  await expect.poll(() => startScreenTitles(page, 'Favorite')).toEqual(['Gizmo versions']);
  await expect.poll(() => startScreenTitles(page, 'Recent')).toEqual([]);
  const stored = await page.evaluate((key) => localStorage.getItem(key), favoriteKey(LOCAL_INDEX_NAME));
  expect(JSON.parse(stored ?? '[]')).toHaveLength(1);
  // Still there after a reload.
  await page.reload();
  await openModal(page);
  await expect.poll(() => startScreenTitles(page, 'Favorite')).toEqual(['Gizmo versions']);
});

test('at most 7 recent searches are kept: the oldest goes', async ({page}) => {
  const seeded = [1, 2, 3, 4, 5, 6, 7].map(storedSearch);
  await seedStoredSearches(page, {[recentKey(LOCAL_INDEX_NAME)]: seeded});
  await openModal(page);
  await expect.poll(() => startScreenTitles(page, 'Recent')).toHaveLength(7);
  await page.keyboard.press('Escape');
  await openHit(page, 'gizmo versions', 'Gizmo versions');
  await openModal(page);
  await expect.poll(() => startScreenTitles(page, 'Recent')).toEqual([
    'Gizmo versions',
    ...[1, 2, 3, 4, 5, 6].map((n) => `Seeded search ${n}`),
  ]);
});

test('with favourites, at most 4 recent searches are kept', async ({page}) => {
  await seedStoredSearches(page, {
    [favoriteKey(LOCAL_INDEX_NAME)]: [storedSearch(100)],
    [recentKey(LOCAL_INDEX_NAME)]: [1, 2, 3, 4].map(storedSearch),
  });
  await openHit(page, 'gizmo versions', 'Gizmo versions');
  await openModal(page);
  await expect.poll(() => startScreenTitles(page, 'Recent')).toEqual(['Gizmo versions', 'Seeded search 1', 'Seeded search 2', 'Seeded search 3']);
  await expect.poll(() => startScreenTitles(page, 'Favorite')).toEqual(['Seeded search 100']);
});

test('at most 10 favourites are kept', async ({page}) => {
  await seedStoredSearches(page, {
    [favoriteKey(LOCAL_INDEX_NAME)]: Array.from({length: 10}, (_, i) => storedSearch(100 + i)),
  });
  await openHit(page, 'gizmo versions', 'Gizmo versions');
  await openModal(page);
  await expect.poll(() => startScreenTitles(page, 'Recent')).toEqual(['Gizmo versions']);
  await expect.poll(async () => (await startScreenTitles(page, 'Favorite')).length).toBe(10);
  await page.locator('.DocSearch-Hit', {hasText: 'Gizmo versions'}).getByRole('button', {name: 'Save this search'}).click();
  await expect.poll(async () => (await startScreenTitles(page, 'Favorite'))[0]).toBe('Gizmo versions');
  const favourites = await startScreenTitles(page, 'Favorite');
  expect(favourites).toHaveLength(10);
  expect(favourites).not.toContain('Seeded search 109');
});

test('searches stored for another index are not shown', async ({page}) => {
  await seedStoredSearches(page, {
    [recentKey('another-index')]: [storedSearch(1)],
    [favoriteKey('another-index')]: [storedSearch(2)],
  });
  await openModal(page);
  await expect(page.locator('.DocSearch-StartScreen')).toHaveText('No recent searches');
  await expect(searchInput(page)).toHaveValue('');
});
