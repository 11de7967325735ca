/**
 * The document's head after a client navigation is the head the server wrote for that page: the
 * browser build applies `<Head>` with src/head-client (react-helmet-async's browser half), the
 * server renders with the package. Each step clicks a link (or goes back) and compares, once the
 * head has settled, the title, the <html> and <body> attributes and every head tag the pages'
 * <Head> manage (`data-rh`) with the HTML the server sends for the same address.
 */
import {test, expect, type Page} from '@playwright/test';
import {hydrated} from './shell-routes';

interface HeadSnapshot {
  title: string;
  html: string[];
  body: string[];
  tags: string[];
}

/** The head of `document`, or of the HTML the server sends for `url` (parsed, no script run). */
function snapshot(page: Page, url?: string): Promise<HeadSnapshot> {
  return page.evaluate(async (address) => {
    const doc = address ? new DOMParser().parseFromString(await (await fetch(address)).text(), 'text/html') : document;
    const attributes = (element: Element, skip: string[] = []) =>
      [...element.attributes]
        .filter((a) => !skip.includes(a.name))
        .map((a) => `${a.name}=${a.value}`)
        .sort();
    // Structured data compared as data: the server's copy has its keys in another order.
    const sorted = (value: unknown): unknown =>
      Array.isArray(value) ? value.map(sorted) : value && typeof value === 'object' ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, sorted(v)])) : value;
    const content = (e: Element) => (e.getAttribute('type') === 'application/ld+json' ? JSON.stringify(sorted(JSON.parse(e.textContent ?? 'null'))) : (e.textContent ?? ''));
    return {
      title: doc.title,
      // Attributes other code sets (colour mode, hydration marker, keyboard navigation) are not the head's.
      html: attributes(doc.documentElement, ['data-theme', 'data-theme-choice', 'data-has-hydrated', 'data-rh', 'style', 'data-announcement-bar-initially-dismissed']),
      body: attributes(doc.body, ['data-rh', 'class', 'style']),
      // Core's base-URL check (BaseUrlIssueBanner) is a script of the server's home page only, by design.
      tags: [...doc.head.querySelectorAll('[data-rh]:not(title)')]
        .filter((e) => !e.textContent?.includes('insertBanner'))
        .map((e) => `${e.tagName.toLowerCase()} ${attributes(e).join(' ')} ${content(e)}`)
        .sort(),
    };
  }, url);
}

async function expectServedHead(page: Page): Promise<void> {
  const expected = await snapshot(page, page.url());
  expect(expected.tags.length).toBeGreaterThan(10);
  await expect.poll(() => snapshot(page)).toEqual(expected);
}

test('after each client navigation the head is the one the server writes for the page', async ({page}) => {
  await page.goto('/docs/introduction');
  await hydrated(page);
  await expectServedHead(page);

  await page.locator('footer').getByRole('link', {name: 'Changelog'}).click();
  await expect(page).toHaveURL(/\/docs\/changelog$/);
  await expect(page.getByRole('heading', {level: 1})).toBeVisible();
  await expectServedHead(page);

  await page.getByRole('navigation', {name: 'Main'}).getByRole('link', {name: 'API v2'}).click();
  await expect(page).toHaveURL(/\/docs\/category\/api-v2$/);
  await expectServedHead(page);

  await page.getByRole('navigation', {name: 'Main'}).getByRole('link', {name: /HomeWizard Energy API home/}).first().click();
  await expect(page).toHaveURL(/\/$/);
  await expectServedHead(page);

  await page.goBack();
  await expect(page).toHaveURL(/\/docs\/category\/api-v2$/);
  await expectServedHead(page);

  await page.goto('/search?q=battery');
  await hydrated(page);
  await page.locator('footer').getByRole('link', {name: 'Introduction'}).click();
  await expect(page).toHaveURL(/\/docs\/introduction$/);
  await expectServedHead(page);
});
