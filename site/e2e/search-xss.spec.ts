/**
 * A record whose text contains `<img src=x onerror=alert(1)>` (escaped, as the extractor stores
 * it) shows as text in hits, snippets, recent searches, favourites and on /search, and nothing
 * executes: no dialog opens and no <img> element is created.
 */
import {test, expect} from '@playwright/test';
import {XSS_TEXT, failOnDialog, modal, openModal, search, serveFixtureIndex, startScreenTitles, waitForSearchBar} from './search-fixtures';

test('the sample shows as text in hits, snippets, recent searches and favourites', async ({page}) => {
  const dialogs = failOnDialog(page);
  await serveFixtureIndex(page);
  await page.goto('/docs/introduction');
  await waitForSearchBar(page);
  await openModal(page);
  await search(page, 'onerror');
  const heading = page
    .locator('.DocSearch-Hit')
    .filter({has: page.locator('.DocSearch-Hit-title', {hasText: `Escaping ${XSS_TEXT}`})});
  await expect(heading).toBeVisible();
  // The content hit's snippet carries the sample too.
  await expect(page.locator('.DocSearch-Hit-title', {hasText: 'onerror sample'})).toBeVisible();
  await expect(page.locator('.DocSearch-Hit-title mark', {hasText: 'onerror'}).first()).toBeVisible();
  await expect(modal(page).locator('img')).toHaveCount(0);

  await heading.click();
  await expect(modal(page)).toHaveCount(0);
  await openModal(page);
  await expect.poll(() => startScreenTitles(page, 'Recent')).toEqual([`Escaping ${XSS_TEXT}`]);
  await page.getByRole('button', {name: 'Save this search'}).click();
  await expect.poll(() => startScreenTitles(page, 'Favorite')).toEqual([`Escaping ${XSS_TEXT}`]);
  await expect(modal(page).locator('img')).toHaveCount(0);

  await page.reload();
  await waitForSearchBar(page);
  await openModal(page);
  await expect.poll(() => startScreenTitles(page, 'Favorite')).toEqual([`Escaping ${XSS_TEXT}`]);
  await expect(modal(page).locator('img')).toHaveCount(0);
  expect(dialogs).toEqual([]);
});

test('the sample shows as text on the /search page', async ({page}) => {
  const dialogs = failOnDialog(page);
  await serveFixtureIndex(page);
  await page.goto('/search?q=onerror');
  const results = page.locator('main article');
  await expect(results.first()).toBeVisible();
  await expect(page.locator('main')).toContainText(XSS_TEXT);
  await expect(page.locator('main article img')).toHaveCount(0);
  expect(dialogs).toEqual([]);
});
