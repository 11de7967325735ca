/**
 * Algolia mode (site/build-algolia, built with ALGOLIA_APP_ID=TESTAPP,
 * ALGOLIA_SEARCH_API_KEY=search-key, ALGOLIA_INDEX_NAME=test): the modal sends the spec's
 * section 7 request, renders the answer, shows the error screen when every host fails, and the
 * /search page queries Algolia too. Algolia's hosts are intercepted: nothing reaches the network.
 */
import {test, expect, type Page, type Request} from '@playwright/test';
import {LocalSearchEngine, answerQuery, parseParamString, type QueryParams} from 'docs-search';
import {ALGOLIA_BASE_URL} from '../playwright.config';
import {fixtureIndex, modal, openModal, search, waitForSearchBar} from './search-fixtures';

test.use({baseURL: ALGOLIA_BASE_URL});

const ALGOLIA_HOST = /^https:\/\/TESTAPP(-dsn\.algolia\.net|-\d\.algolianet\.com)\//i;
const engine = LocalSearchEngine.fromIndexFile(fixtureIndex());

interface Intercepted {
  queries: Request[];
  insightsScripts: string[];
  other: string[];
}

/**
 * Answers Algolia's multi-query endpoint from the fixture records (Algolia's response shape),
 * or aborts every Algolia request when `fail` is set; the insights script gets an empty body.
 */
async function interceptAlgolia(page: Page, {fail = false} = {}): Promise<Intercepted> {
  const seen: Intercepted = {queries: [], insightsScripts: [], other: []};
  await page.context().route(
    (url) => !['localhost', '127.0.0.1'].includes(url.hostname),
    async (route) => {
      const request = route.request();
      const url = request.url();
      if (ALGOLIA_HOST.test(url)) {
        seen.queries.push(request);
        if (fail) return route.abort('connectionrefused');
        const body = JSON.parse(request.postData() ?? '{}') as {requests: ({indexName: string; params?: string} & QueryParams)[]};
        const results = body.requests.map(({indexName, params, ...rest}) =>
          answerQuery(engine, indexName, {...rest, ...(typeof params === 'string' ? parseParamString(params) : {})}),
        );
        return route.fulfill({status: 200, contentType: 'application/json', body: JSON.stringify({results})});
      }
      if (/search-insights/.test(url)) {
        seen.insightsScripts.push(url);
        return route.fulfill({status: 200, contentType: 'text/javascript', body: ''});
      }
      seen.other.push(url);
      return route.abort();
    },
  );
  return seen;
}

test('the modal sends the spec request to Algolia and renders the answer', async ({page}) => {
  const seen = await interceptAlgolia(page);
  await page.goto('/docs/introduction');
  await expect(page.locator('link[rel="preconnect"][href="https://TESTAPP-dsn.algolia.net"]')).toHaveCount(1);
  await openModal(page);
  await search(page, 'gizmo');
  await expect(page.locator('.DocSearch-Hit-source')).toHaveCount(4);
  await expect(page.locator('.DocSearch-Hit').first()).toContainText(/gizmo/i);
  await expect(page.locator('.DocSearch-Logo')).toBeVisible();

  const request = seen.queries.at(-1)!;
  expect(request.method()).toBe('POST');
  const url = new URL(request.url());
  expect(url.pathname).toBe('/1/indexes/*/queries');
  expect(url.searchParams.get('x-algolia-application-id')).toBe('TESTAPP');
  expect(url.searchParams.get('x-algolia-api-key')).toBe('search-key');
  const {requests} = JSON.parse(request.postData()!) as {requests: Record<string, unknown>[]};
  expect(requests).toHaveLength(1);
  expect(requests[0]).toEqual({
    query: 'gizmo',
    indexName: 'test',
    attributesToRetrieve: [
      'hierarchy.lvl0',
      'hierarchy.lvl1',
      'hierarchy.lvl2',
      'hierarchy.lvl3',
      'hierarchy.lvl4',
      'hierarchy.lvl5',
      'hierarchy.lvl6',
      'content',
      'type',
      'url',
    ],
    attributesToSnippet: [
      'hierarchy.lvl1:10',
      'hierarchy.lvl2:10',
      'hierarchy.lvl3:10',
      'hierarchy.lvl4:10',
      'hierarchy.lvl5:10',
      'hierarchy.lvl6:10',
      'content:10',
    ],
    snippetEllipsisText: '…',
    highlightPreTag: '<mark>',
    highlightPostTag: '</mark>',
    hitsPerPage: 20,
    clickAnalytics: true,
    // Contextual search.
    facetFilters: ['language:en', ['docusaurus_tag:default', 'docusaurus_tag:docs-default-current']],
  });
  // Insights on: DocSearch loads search-insights (intercepted here).
  await expect.poll(() => seen.insightsScripts.length).toBeGreaterThan(0);
  expect(seen.other).toEqual([]);
});

test('on a screen up to 768 px wide the request asks for 5-word snippets', async ({page}) => {
  await page.setViewportSize({width: 768, height: 900});
  const seen = await interceptAlgolia(page);
  await page.goto('/docs/introduction');
  await openModal(page);
  await search(page, 'gizmo');
  await expect(page.locator('.DocSearch-Hit').first()).toBeVisible();
  const {requests} = JSON.parse(seen.queries.at(-1)!.postData()!) as {requests: {attributesToSnippet: string[]}[]};
  expect(requests[0]!.attributesToSnippet).toContain('content:5');
});

test('when every Algolia host fails the modal shows "Unable to fetch results"', async ({page}) => {
  const seen = await interceptAlgolia(page, {fail: true});
  await page.goto('/docs/introduction');
  await openModal(page);
  await search(page, 'gizmo');
  const screen = page.locator('.DocSearch-ErrorScreen');
  await expect(screen.locator('.DocSearch-Title')).toHaveText('Unable to fetch results');
  await expect(screen).toContainText('You might want to check your network connection.');
  // Not the no-results screen DocSearch itself shows (its autocomplete-core overwrites the error
  // status): the theme's error screen takes its place and hides it (searchFailure.tsx).
  await expect(modal(page).locator('.DocSearch-NoResults')).toBeHidden();
  await expect(page.getByText(/No results for/)).toBeHidden();
  // The client tried more than one host before giving up.
  expect(new Set(seen.queries.map((r) => new URL(r.url()).hostname)).size).toBeGreaterThan(1);
});

test('the /search page queries Algolia and shows the results', async ({page}) => {
  const seen = await interceptAlgolia(page);
  await page.goto('/search?q=gizmo');
  await waitForSearchBar(page);
  await expect(page.locator('main article')).toHaveCount(15);
  const url = new URL(seen.queries.at(-1)!.url());
  expect(url.searchParams.get('x-algolia-api-key')).toBe('search-key');
  await expect(page.getByRole('link', {name: 'Powered by Algolia'})).toBeVisible();
});
