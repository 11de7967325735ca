/**
 * A page whose heading and code sample contain `<img src=x onerror=alert(1)>` shows it as text
 * in hits, snippets, recent searches, favourites and on /search, and nothing executes: no
 * dialog opens and no <img> element is created. The index is made by the indexer's own
 * extractor from a built page with that sample added, and served in place of the built index
 * (no page is added to the site).
 */
import {test, expect, type Page} from '@playwright/test';
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {extractPage} from 'docs-indexer/extract';
import {packRecords, type SearchRecord as EngineRecord} from 'docs-search';
import {LOCAL_INDEX_URL, SITE_ORIGIN, XSS_TEXT, failOnDialog, modal, openModal, search, startScreenTitles, waitForSearchBar} from './search-fixtures';

const PAGE_PATH = '/docs/v2/error-handling';
const SAMPLE_HTML =
  '<h2 class="anchor" id="escaping">Escaping &lt;img src=x onerror=alert(1)&gt;</h2>' +
  '<h2 class="anchor" id="code-sample">Code sample</h2>' +
  '<p>The onerror sample <code>&lt;img src=x onerror=alert(1)&gt;</code> is shown as text.</p>';

function xssIndex() {
  const built = readFileSync(path.join(__dirname, '..', 'build', `${PAGE_PATH}.html`), 'utf8');
  const html = built.replace(/(class="?theme-doc-markdown markdown"?>)/, `$1${SAMPLE_HTML}`);
  expect(html).not.toBe(built);
  const records = extractPage(html, {url: `${SITE_ORIGIN}${PAGE_PATH}`});
  return packRecords(records as unknown as EngineRecord[], SITE_ORIGIN);
}

async function serveFixtureIndex(page: Page) {
  const index = xssIndex();
  await page.route(LOCAL_INDEX_URL, (route) =>
    route.fulfill({status: 200, contentType: 'application/json', body: JSON.stringify(index)}),
  );
}

test('the sample shows as text in hits, snippets, recent searches and favourites', async ({page}) => {
  const dialogs = failOnDialog(page);
  await serveFixtureIndex(page);
  await page.goto('/docs/introduction');
  await waitForSearchBar(page);
  await openModal(page);
  await search(page, 'onerror');
  // The paragraph's snippet shows the sample as text, with the match highlighted.
  const paragraph = page.locator('.DocSearch-Hit', {hasText: `The onerror sample ${XSS_TEXT} is shown`});
  await expect(paragraph.locator('.DocSearch-Hit-title mark', {hasText: 'onerror'}).first()).toBeVisible();
  await expect(paragraph.locator('.DocSearch-Hit-title')).toContainText(XSS_TEXT);
  await expect(modal(page).locator('img')).toHaveCount(0);

  await search(page, 'escaping');
  const heading = page
    .locator('.DocSearch-Hit')
    .filter({has: page.locator('.DocSearch-Hit-title', {hasText: `Escaping ${XSS_TEXT}`})});
  await expect(heading).toBeVisible();
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
