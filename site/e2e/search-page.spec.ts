/**
 * The /search?q= page in local mode: results with highlighted matches, more results as the
 * reader scrolls (pages of 15), and no Algolia credit since Algolia is not used.
 */
import {test, expect} from '@playwright/test';
import {serveFixtureIndex} from './search-fixtures';

test('shows highlighted results and loads the next page for a long list', async ({page}) => {
  await serveFixtureIndex(page);
  await page.goto('/search?q=gizmo');
  await expect(page.getByRole('heading', {level: 1})).toHaveText('Search results for "gizmo"');
  const results = page.locator('main article');
  await expect(results).toHaveCount(15);
  await expect(page.getByText('19 documents found')).toBeVisible();
  await expect(results.first().locator('.search-result-match').first()).toHaveText(/gizmo/i);
  await page.getByText('Fetching new results...').scrollIntoViewIfNeeded();
  await page.mouse.wheel(0, 5000);
  await expect(results).toHaveCount(19);
});

test('a query with no match says so', async ({page}) => {
  await serveFixtureIndex(page);
  await page.goto('/search?q=qqqzzz');
  await expect(page.getByText('No results were found')).toBeVisible();
});

test('does not credit Algolia in local mode', async ({page}) => {
  await serveFixtureIndex(page);
  await page.goto('/search?q=gizmo');
  await expect(page.locator('main article').first()).toBeVisible();
  await expect(page.getByRole('link', {name: 'Powered by Algolia'})).toBeHidden();
});

test('a query longer than 512 characters shows results or "No results", never a blank area', async ({page}) => {
  await serveFixtureIndex(page);
  // Matches, then filler past the 512-byte limit: the search runs on the first 512 bytes.
  await page.goto(`/search?q=${encodeURIComponent(`gizmo ${'x'.repeat(600)}`)}`);
  await expect(page.getByText(/^\d+ documents? found$/).or(page.getByText('No results were found'))).toBeVisible();
  await expect(page.getByRole('searchbox', {name: 'Search'})).toHaveValue(`gizmo ${'x'.repeat(506)}`);
  await page.goto(`/search?q=${'é'.repeat(700)}`);
  await expect(page.getByText('No results were found')).toBeVisible();
  await expect(page.getByRole('searchbox', {name: 'Search'})).toHaveValue('é'.repeat(256));
});
