import {test, expect, type Page} from '@playwright/test';
import {SPEC_ROUTES, hydrated, BASE_HOSTS} from './shell-routes';

type Visit = {consoleErrors: string[]; foreignRequests: string[]; fonts: string[]};

/** Loads a route, scrolls to its end (lazy content) and records what the page did. */
async function visit(page: Page, route: string): Promise<Visit> {
  const seen: Visit = {consoleErrors: [], foreignRequests: [], fonts: []};
  page.on('console', (m) => {
    if (m.type() === 'error') seen.consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => seen.consoleErrors.push(e.message));
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (['http:', 'https:', 'ws:', 'wss:'].includes(url.protocol) && !BASE_HOSTS.includes(url.hostname)) {
      seen.foreignRequests.push(r.url());
    }
    if (r.resourceType() === 'font') seen.fonts.push(r.url());
  });
  await page.goto(route);
  await hydrated(page);
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await page.waitForLoadState('networkidle');
  return seen;
}

for (const route of SPEC_ROUTES) {
  test(`${route}: no console error, no request to another host, no web font, sized images with alt`, async ({
    page,
  }) => {
    const seen = await visit(page, route);
    expect(seen.consoleErrors, 'console errors').toEqual([]);
    expect(seen.foreignRequests, 'requests to other hosts').toEqual([]);
    expect(seen.fonts, 'web fonts').toEqual([]);
    const images = await page.locator('img').evaluateAll((imgs) =>
      imgs.map((img) => ({
        src: img.getAttribute('src'),
        alt: img.getAttribute('alt'),
        width: img.getAttribute('width'),
        height: img.getAttribute('height'),
      })),
    );
    expect(images.length, 'the navbar logo at least').toBeGreaterThan(0);
    for (const img of images) {
      expect(img.alt, `alt of ${img.src}`).not.toBeNull();
      expect(Number(img.width), `width of ${img.src}`).toBeGreaterThan(0);
      expect(Number(img.height), `height of ${img.src}`).toBeGreaterThan(0);
    }
  });
}

test('the not-found page has no console error other than its own 404', async ({page}) => {
  const seen = await visit(page, '/no-such-page');
  expect(seen.consoleErrors.filter((e) => !/404 \(Not Found\)/.test(e))).toEqual([]);
  expect(seen.foreignRequests).toEqual([]);
});
