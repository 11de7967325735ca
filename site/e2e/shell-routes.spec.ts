import {readFileSync} from 'node:fs';
import path from 'node:path';
import {test, expect} from '@playwright/test';
import {SPEC_ROUTES, NOINDEX_ROUTES, V1_PAGES, V2_PAGES, builtRoutes} from './shell-routes';

const BUILD = path.resolve(__dirname, '../build');

function sitemapRoutes(): string[] {
  const xml = readFileSync(path.join(BUILD, 'sitemap.xml'), 'utf8');
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname);
}

const sorted = (list: readonly string[]) => [...new Set(list)].sort();

test.describe('routes are exactly the spec table', () => {
  test('the build writes a page for every route of the table and for nothing else', () => {
    expect(sorted(builtRoutes())).toEqual(sorted(SPEC_ROUTES));
  });

  test('the sitemap lists every indexable route of the table and nothing else', () => {
    expect(sorted(sitemapRoutes())).toEqual(sorted(SPEC_ROUTES.filter((r) => !NOINDEX_ROUTES.includes(r))));
  });

  for (const route of SPEC_ROUTES) {
    test(`${route} answers 200`, async ({request}) => {
      const response = await request.get(route);
      expect(response.status()).toBe(200);
    });
  }
});

test.describe('unknown paths show the not-found page', () => {
  for (const route of ['/blog', '/markdown-page', '/docs/tags', '/docs/next', '/docs/v3/measurement', '/nope']) {
    test(`${route} on first load`, async ({page}) => {
      const response = await page.goto(route);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole('heading', {level: 1, name: 'Page Not Found'})).toBeVisible();
    });
  }

  test('an unknown docs path reached by client-side navigation', async ({page}) => {
    await page.goto('/docs/introduction');
    await page.evaluate(() => {
      window.history.pushState({}, '', '/docs/no-such-page');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await expect(page.getByRole('heading', {level: 1, name: 'Page Not Found'})).toBeVisible();
  });
});

test.describe('/docs', () => {
  test('sends the reader to the introduction, replacing the history entry', async ({page}) => {
    await page.goto('/');
    await page.goto('/docs');
    await expect(page).toHaveURL(/\/docs\/introduction$/);
    await expect(page.getByRole('heading', {level: 1})).toHaveText('Introduction');
    await page.goBack();
    await expect(page).toHaveURL(/\/$/);
  });

  test('with a trailing slash it does the same', async ({page}) => {
    await page.goto('/docs/');
    await expect(page).toHaveURL(/\/docs\/introduction$/);
    await expect(page.getByRole('heading', {level: 1})).toHaveText('Introduction');
  });

  test.describe('without JavaScript', () => {
    test.use({javaScriptEnabled: false});

    test('shows the documentation root with the sidebar and a link to the introduction', async ({page}) => {
      await page.goto('/docs');
      await expect(page.getByRole('heading', {level: 1})).toHaveText('Documentation');
      const sidebar = page.getByRole('navigation', {name: 'Docs sidebar'});
      await expect(sidebar.getByRole('link', {name: 'Introduction', exact: true})).toBeVisible();
      await expect(sidebar.getByRole('link', {name: 'API v2', exact: true})).toBeVisible();
      await page.getByRole('link', {name: 'Start with the introduction'}).click();
      await expect(page).toHaveURL(/\/docs\/introduction$/);
    });

    test('is marked noindex so search and crawlers skip it', async ({page}) => {
      await page.goto('/docs');
      await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
    });
  });
});

test.describe('generated category indexes list every page of their version', () => {
  for (const [slug, pages, version] of [
    ['api-v1', V1_PAGES, 'v1'],
    ['api-v2', V2_PAGES, 'v2'],
  ] as const) {
    test(`/docs/category/${slug}`, async ({page}) => {
      await page.goto(`/docs/category/${slug}`);
      const hrefs = await page
        .locator('article a[href^="/docs/"]')
        .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
      expect(sorted(hrefs.filter((h): h is string => h !== null))).toEqual(
        sorted(pages.map((p) => `/docs/${version}/${p}`)),
      );
    });
  }
});
