/**
 * No hydration mismatch: every page of the build, in light and dark mode, at a desktop's and a
 * phone's width, hydrates without an error or recoverable error reported by React and without an
 * attribute that differs from what React rendered (e2e/hydration-report.ts says what production
 * React reports and how). Any console error or uncaught exception on the way fails too.
 *
 * The last two tests show the check failing on a page made to mismatch: the server's HTML is
 * changed on its way to the browser (a text, an attribute), as a component that renders
 * differently on the server and in the browser would change it.
 * HYDRATION_MISMATCH=<route> makes the same change to that route in the all-pages tests, which then
 * fail (a one-off check of the check: `HYDRATION_MISMATCH=/docs/v1/api npx playwright test e2e/hydration.spec.ts`).
 */
import {test, expect, type Browser, type BrowserContext, type Page, type Route} from '@playwright/test';
import {classify, HYDRATION_WATCH, type Finding, type Report} from './hydration-report';
import {builtRoutes, hydrated} from './shell-routes';

/** A path with no page: the not-found page. */
const NOT_FOUND = '/no-such-page';
/** Every page of the build, and the not-found page. */
const ROUTES = [...builtRoutes(), NOT_FOUND];
/** What Chromium logs for the not-found page's own 404 response: expected there, nowhere else. */
const NOT_FOUND_RESPONSE = 'Failed to load resource: the server responded with a status of 404 (Not Found)';

const WIDTHS = {desktop: {width: 1280, height: 800}, phone: {width: 390, height: 844}} as const;

/** Pages loaded at once in one test (the machine has two cores; two tests run side by side). */
const PARALLEL_PAGES = 3;

/** The navbar's title, the same on every page: the text the mismatch tests change. */
const NAVBAR_TITLE = '<b class="navbar__title text--truncate">HomeWizard Energy API</b>';

/** Serves the page's HTML with `change` applied (the server's markup made to differ from the app's). */
async function serveChanged(target: Page | BrowserContext, route: string, change: (html: string) => string): Promise<void> {
  await target.route(
    (url) => url.pathname === route,
    async (r: Route) => {
      const response = await r.fetch();
      const html = await response.text();
      const changed = change(html);
      if (changed === html) throw new Error(`the change found nothing to change in ${route}`);
      await r.fulfill({response, body: changed});
    },
  );
}

const textMismatch = (html: string) => html.replace(NAVBAR_TITLE, NAVBAR_TITLE.replace('>HomeWizard', '>Server-side HomeWizard'));

/** Loads `route` in a new page of `context` and returns what it reported, judged. */
async function load(context: BrowserContext, route: string): Promise<Finding[]> {
  const page = await context.newPage();
  const reports: Report[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    if (route === NOT_FOUND && message.text() === NOT_FOUND_RESPONSE && message.location().url.endsWith(NOT_FOUND)) return;
    reports.push({source: 'console', text: message.text()});
  });
  page.on('pageerror', (error) => reports.push({source: 'pageerror', text: `${error.name}: ${error.message}`}));
  if (process.env.HYDRATION_MISMATCH === route) await serveChanged(page, route, textMismatch);
  try {
    await page.goto(route);
    await hydrated(page);
    // Effects after the hydration's commit, and any commit they cause: React runs them in tasks of
    // its own, and the browser calls an idle callback once no task is waiting. A page kept busy
    // (a background page of the context may get no idle period) is read after 5 s at the latest.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestIdleCallback(resolve, {timeout: 5000}))));
    const watched = await page.evaluate(() => {
      const w = window as Window & {__hydrationWatch?: boolean; __hydrationReports?: Report[]};
      return {attached: w.__hydrationWatch === true, reports: w.__hydrationReports ?? []};
    });
    // The attribute check must have seen React, or it would pass on anything.
    if (!watched.attached) reports.push({source: 'attribute', text: 'React never called the DevTools hook: the attribute check saw nothing'});
    reports.push(...watched.reports);
  } finally {
    await page.close();
  }
  return classify(reports);
}

/** Loads every route, PARALLEL_PAGES at a time; returns "route: finding" lines. */
async function loadAll(context: BrowserContext, routes: readonly string[]): Promise<string[]> {
  const queue = [...routes];
  const found: string[] = [];
  const worker = async () => {
    for (let route = queue.shift(); route !== undefined; route = queue.shift()) {
      for (const finding of await load(context, route)) found.push(`${route}: ${finding.summary}`);
    }
  };
  await Promise.all(Array.from({length: PARALLEL_PAGES}, worker));
  return found.sort();
}

/** A context whose reader chose `mode` (stored by the colour toggle, as a reader's choice is). */
async function readerContext(browser: Browser, width: keyof typeof WIDTHS, mode: 'light' | 'dark'): Promise<BrowserContext> {
  const context = await browser.newContext({viewport: WIDTHS[width]});
  await context.addInitScript(HYDRATION_WATCH);
  if (mode === 'dark') {
    const page = await context.newPage();
    // The toggle is in the navbar at a desktop's width (in the menu on a phone); the choice is stored for the context.
    await page.setViewportSize(WIDTHS.desktop);
    await page.goto('/docs/introduction');
    await hydrated(page);
    await page.getByRole('button', {name: /Switch between dark and light mode/}).click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await page.close();
  }
  return context;
}

test.describe('every page hydrates without a mismatch', () => {
  test.describe.configure({timeout: 240_000});

  for (const width of Object.keys(WIDTHS) as (keyof typeof WIDTHS)[]) {
    for (const mode of ['light', 'dark'] as const) {
      test(`${mode} mode, ${width} width (${ROUTES.length} pages)`, async ({browser}) => {
        expect(ROUTES.length).toBeGreaterThan(20);
        const context = await readerContext(browser, width, mode);
        try {
          // The pages open in the reader's mode.
          const page = await context.newPage();
          await page.goto('/');
          await expect(page.locator('html')).toHaveAttribute('data-theme', mode);
          await page.close();
          expect(await loadAll(context, ROUTES)).toEqual([]);
        } finally {
          await context.close();
        }
      });
    }
  }
});

test.describe('the check fails on a page made to mismatch', () => {
  test("a text that differs: production React's error #418, reported through Docusaurus's onRecoverableError", async ({browser}) => {
    const context = await browser.newContext();
    await context.addInitScript(HYDRATION_WATCH);
    await serveChanged(context, '/docs/introduction', textMismatch);
    const findings = await load(context, '/docs/introduction');
    await context.close();
    expect(findings.filter((f) => f.hydration).map((f) => f.code)).toContain(418);
    expect(findings.some((f) => f.source === 'console' && f.text.includes('onRecoverableError'))).toBe(true);
  });

  test('an attribute that differs, which production React does not report: the DevTools-hook check does', async ({browser}) => {
    const context = await browser.newContext();
    await context.addInitScript(HYDRATION_WATCH);
    // The navbar's "API v1" link, as the build writes it (minified HTML, unquoted attribute).
    const link = 'class="navbar__item navbar__link" href=/docs/category/api-v1>';
    await serveChanged(context, '/docs/introduction', (html) => html.replace(link, link.replace('api-v1>', 'api-v1-server>')));
    const findings = await load(context, '/docs/introduction');
    await context.close();
    expect(findings.filter((f) => f.source !== 'attribute')).toEqual([]);
    expect(findings.map((f) => f.summary)).toEqual([
      expect.stringMatching(/^attribute mismatch: a\..* href: the page has "\/docs\/category\/api-v1-server", React rendered "\/docs\/category\/api-v1"$/),
    ]);
  });
});
