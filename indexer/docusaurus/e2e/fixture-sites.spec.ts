/**
 * The theme installed from its tarball into real Docusaurus 3 sites (fixtures.setup.ts): each is
 * searched in Chromium from the modal and the /search page. A page is found by a heading word
 * and by the same word with a typo; the modal answers from the page's locale and docs version
 * (plus pages outside the docs); hit links keep the site's baseUrl and trailingSlash; and no
 * request leaves the site's host.
 */
import {test, expect, type Page} from '@playwright/test';
import {readFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import {algoliaSiteOrigin, originOf, type FixtureSite} from './sites.ts';

const require = createRequire(import.meta.url);
const frenchTexts = JSON.parse(
  readFileSync(require.resolve('@docusaurus/theme-translations/locales/fr/theme-search-algolia.json'), 'utf8'),
) as Record<string, string>;

/** Every request the page makes goes to its own origin (checked at the end of each test). */
function ownHostOnly(page: Page, site: FixtureSite): () => void {
  const foreign: string[] = [];
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(`${originOf(site)}/`) && !/^(data|blob):/.test(url)) foreign.push(url);
  });
  return () => expect(foreign, 'requests to another host').toEqual([]);
}

async function visit(page: Page, site: FixtureSite, path: string): Promise<void> {
  await page.goto(`${originOf(site)}${path}`);
  await page.locator('html[data-has-hydrated="true"]').waitFor({state: 'attached'});
}

/** Opens the modal, types `query`, and returns the hit links' paths (with their #anchors). */
async function searchModal(page: Page, query: string): Promise<string[]> {
  await page.locator('.DocSearch-Button').click();
  const input = page.locator('input.DocSearch-Input');
  await input.fill(query);
  await expect(page.locator('.DocSearch-Hit, .DocSearch-NoResults').first()).toBeVisible();
  const hrefs = await page.locator('.DocSearch-Hit a').evaluateAll((links) => links.map((a) => a.getAttribute('data-href') ?? ''));
  return hrefs;
}

const pathOf = (href: string) => href.replace(/#.*$/, '');

/** The /search page's result links for `query`. */
async function searchPage(page: Page, site: FixtureSite, searchPath: string, query: string): Promise<string[]> {
  await visit(page, site, `${searchPath}?q=${encodeURIComponent(query)}`);
  const results = page.locator('main article h2 a');
  await expect(results.first().or(page.getByText(/No results were found|Aucun résultat trouvé/))).toBeVisible();
  return results.evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
}

test.describe('versioned docs and a blog (baseUrl /, trailingSlash undefined)', () => {
  const site = 'versioned-blog';

  test('a heading word finds its page, and so does the word with a typo', async ({page}) => {
    const check = ownHostOnly(page, site);
    await visit(page, site, '/docs/intro');
    expect((await searchModal(page, 'setup')).map(pathOf)).toContain('/docs/guide/setup');
    await page.locator('input.DocSearch-Input').fill('setpu');
    await expect(page.locator('.DocSearch-Hit a[data-href^="/docs/guide/setup"]').first()).toBeVisible();
    check();
  });

  test('on a page of version 1.0 the modal answers from 1.0; on the current version from the current one', async ({page}) => {
    const check = ownHostOnly(page, site);
    await visit(page, site, '/docs/1.0/intro');
    const old = (await searchModal(page, 'introduction')).map(pathOf);
    expect(old).toContain('/docs/1.0/intro');
    expect(old.filter((p) => p.startsWith('/docs/') && !p.startsWith('/docs/1.0/'))).toEqual([]);
    await page.keyboard.press('Escape');

    await visit(page, site, '/docs/intro');
    const current = (await searchModal(page, 'introduction')).map(pathOf);
    expect(current).toContain('/docs/intro');
    expect(current.filter((p) => p.startsWith('/docs/1.0/'))).toEqual([]);
    // "legacy" is only in version 1.0.
    await page.locator('input.DocSearch-Input').fill('legacy');
    await expect(page.locator('.DocSearch-NoResults')).toBeVisible();
    check();
  });

  test('/search has the version filter and answers from the chosen version', async ({page}) => {
    const check = ownHostOnly(page, site);
    expect(await searchPage(page, site, '/search', 'legacy')).toEqual([]);
    // The select, named for assistive technology (axe select-name), set to 1.0: the page searches
    // again and shows 1.0's page (waited for: the "No results" of the current version shows until then).
    await page.getByRole('combobox', {name: 'Docs version'}).selectOption('1.0');
    await expect(page.locator('main article h2 a[href^="/docs/1.0/intro"]').first()).toBeVisible();
    check();
  });
});

test.describe('two locales (baseUrl /docs-site/, trailingSlash false)', () => {
  const site = 'two-locales';

  test('a heading word and a typo find the English page, under the baseUrl', async ({page}) => {
    const check = ownHostOnly(page, site);
    await visit(page, site, '/docs-site/docs/intro');
    expect((await searchModal(page, 'readings')).map(pathOf)).toContain('/docs-site/docs/readings');
    await page.locator('input.DocSearch-Input').fill('readngs');
    await expect(page.locator('.DocSearch-Hit a[data-href^="/docs-site/docs/readings"]').first()).toBeVisible();
    check();
  });

  test('on a French page the modal is in French and answers from French pages only', async ({page}) => {
    const check = ownHostOnly(page, site);
    await visit(page, site, '/docs-site/fr/docs/intro');
    await page.locator('.DocSearch-Button').click();
    const input = page.locator('input.DocSearch-Input');
    await expect(input).toHaveAttribute('placeholder', frenchTexts['theme.SearchModal.placeholder']!);
    await input.fill('relevés');
    await expect(page.locator('.DocSearch-Hit a[data-href^="/docs-site/fr/docs/readings"]').first()).toBeVisible();
    // The English page's heading word: no English page answers on a French page.
    await input.fill('readings');
    await expect(page.locator('.DocSearch-NoResults')).toBeVisible();
    await expect(page.locator('.DocSearch-NoResults')).toContainText(frenchTexts['theme.SearchModal.noResultsScreen.noResultsText']!);
    check();
  });

  test('before the app, the early box of a French page speaks French and answers from French pages', async ({page}) => {
    const check = ownHostOnly(page, site);
    // The app's main script and the index are held back: the box is on its own, then loading.
    let releaseApp: () => void = () => {};
    const app = new Promise<void>((resolve) => (releaseApp = resolve));
    await page.route(/\/assets\/js\/main\.[0-9a-f]+\.js$/, async (route) => {
      await app;
      await route.continue();
    });
    let releaseIndex: () => void = () => {};
    const index = new Promise<void>((resolve) => (releaseIndex = resolve));
    await page.route(/\/search\/local-index\.json/, async (route) => {
      await index;
      await route.continue();
    });
    await page.goto(`${originOf(site)}/docs-site/fr/docs/intro`, {waitUntil: 'commit'});
    await page.locator('.DocSearch-Button').click();
    const box = page.locator('.search-shell');
    await expect(box.locator('input')).toHaveAttribute('placeholder', frenchTexts['theme.SearchModal.placeholder']!);
    await expect(box.getByRole('status')).toHaveText('Chargement de la recherche…');
    await page.keyboard.type('relevés');
    releaseIndex();
    await expect(box.locator('.DocSearch-Hit a[data-href^="/docs-site/fr/docs/readings"]').first()).toBeVisible();
    expect(await box.locator('.DocSearch-Hit a').evaluateAll((links) => links.map((a) => a.getAttribute('data-href')))).toEqual(
      expect.arrayContaining([expect.stringMatching(/^\/docs-site\/fr\//)]),
    );
    await box.locator('input').fill('readings');
    await expect(box.locator('.DocSearch-NoResults')).toContainText(frenchTexts['theme.SearchModal.noResultsScreen.noResultsText']!);
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-has-hydrated'))).not.toBe('true');
    releaseApp();
    await expect(page.locator('input.DocSearch-Input')).toHaveValue('readings', {timeout: 30_000});
    await expect(page.locator('.DocSearch-Modal .DocSearch-NoResults')).toBeVisible();
    check();
  });

  test('/search of each locale answers from its own pages', async ({page}) => {
    const check = ownHostOnly(page, site);
    expect((await searchPage(page, site, '/docs-site/fr/search', 'relevés')).map(pathOf)).toContain('/docs-site/fr/docs/readings');
    expect((await searchPage(page, site, '/docs-site/search', 'readings')).map(pathOf)).toContain('/docs-site/docs/readings');
    expect(await searchPage(page, site, '/docs-site/search', 'relevés')).toEqual([]);
    check();
  });
});

test.describe('docs at the site root (trailingSlash true)', () => {
  const site = 'docs-root';

  test('a heading word and a typo find the page; links end with a slash', async ({page}) => {
    const check = ownHostOnly(page, site);
    await visit(page, site, '/');
    expect((await searchModal(page, 'endpoints')).map(pathOf)).toContain('/reference/endpoints/');
    await page.locator('input.DocSearch-Input').fill('endpoitns');
    await expect(page.locator('.DocSearch-Hit a[data-href^="/reference/endpoints/"]').first()).toBeVisible();
    check();
  });

  test('/search/ answers with links that end with a slash', async ({page}) => {
    const check = ownHostOnly(page, site);
    expect((await searchPage(page, site, '/search/', 'endpoints')).map(pathOf)).toContain('/reference/endpoints/');
    check();
  });
});

test.describe('a fresh classic TypeScript site with the one line', () => {
  const site = 'classic-ts';

  test('docs and blog pages are found by a heading word and by a typo', async ({page}) => {
    const check = ownHostOnly(page, site);
    await visit(page, site, '/');
    expect((await searchModal(page, 'standalone')).map(pathOf)).toContain('/docs/tutorial-basics/create-a-page');
    await page.locator('input.DocSearch-Input').fill('standlone');
    await expect(page.locator('.DocSearch-Hit a[data-href^="/docs/tutorial-basics/create-a-page"]').first()).toBeVisible();
    await page.locator('input.DocSearch-Input').fill('hummingbirds');
    await expect(page.locator('.DocSearch-Hit a[data-href^="/blog/welcome"]').first()).toBeVisible();
    check();
  });

  test('/search answers, and the early search box opens before the app starts', async ({page}) => {
    const check = ownHostOnly(page, site);
    expect((await searchPage(page, site, '/search', 'generate')).map(pathOf)).toContain('/docs/intro');
    // Scripts held back (so the stock template's deferred scripts keep the page loading): the box
    // inlined in the head still opens on Ctrl+K.
    await page.route('**/assets/js/**', () => undefined);
    await page.goto(`${originOf(site)}/docs/intro`, {waitUntil: 'commit'});
    await expect(page.locator('.DocSearch-Button')).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'false');
    await page.keyboard.press('Control+k');
    await expect(page.getByRole('dialog', {name: 'Search docs'}).locator('input[name=q]')).toBeFocused();
    await page.unrouteAll({behavior: 'ignoreErrors'});
    check();
  });
});

test.describe('Algolia mode (themeConfig.algolia with credentials, the classic preset adds the stock search theme)', () => {
  /** Answers every Algolia search with no hits, keeping the facet filters each request sent. */
  async function fakeAlgolia(page: Page): Promise<unknown[]> {
    const filters: unknown[] = [];
    await page.route(/algolia\.net|algolianet\.com/, async (route) => {
      const body = JSON.parse(route.request().postData() ?? '{}') as {requests?: {facetFilters?: unknown; params?: string}[]};
      for (const request of body.requests ?? []) filters.push(request.facetFilters ?? request.params ?? null);
      await route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({results: (body.requests ?? []).map(() => ({hits: [], nbHits: 0, nbPages: 0, page: 0, hitsPerPage: 20, processingTimeMS: 1, query: '', params: '', exhaustiveNbHits: true, facets: {}}))}),
      });
    });
    return filters;
  }

  test("the modal queries Algolia with the page's version and locale as facet filters", async ({page}) => {
    const filters = await fakeAlgolia(page);
    await page.goto(`${algoliaSiteOrigin()}/docs/1.0/intro`);
    await page.locator('html[data-has-hydrated="true"]').waitFor({state: 'attached'});
    await page.locator('.DocSearch-Button').click();
    await page.locator('input.DocSearch-Input').fill('legacy');
    await expect(page.locator('.DocSearch-NoResults')).toBeVisible();
    expect(filters.at(-1)).toEqual(['language:en', ['docusaurus_tag:default', 'docusaurus_tag:docs-default-1.0']]);
    // The local index is still written, but Algolia mode never fetches it.
    const local = await page.evaluate(() => performance.getEntriesByType('resource').filter((e) => e.name.includes('local-index')).length);
    expect(local).toBe(0);
  });

  test('options: the index written beside it leaves out the pages plugin (indexPages: false) and ignored paths (blog/tags)', async ({request}) => {
    const response = await request.get(`${algoliaSiteOrigin()}/search/local-index.json`);
    expect(response.ok()).toBe(true);
    const pages = ((await response.json()) as {pages: [string, ...unknown[]][]}).pages.map(([p]) => p);
    expect(pages).toContain('/docs/guide/setup');
    expect(pages).toContain('/blog/archive');
    expect(pages.filter((p) => p === '/' || p === '/about' || p.startsWith('/blog/tags'))).toEqual([]);
  });
});
