/**
 * No hydration mismatch: every page of the build hydrates without an error or recoverable error
 * reported by React and without an attribute that differs from what React rendered
 * (e2e/hydration-report.ts says what production React reports and how). Any console error or
 * uncaught exception on the way fails too.
 *
 * Colour mode and width are two factors of two values each: every page hydrates once, in dark mode
 * at a phone's width (every-page.spec.ts, which loads each page once for all its checks); the
 * three other pairs (light at a desktop's width, dark at a desktop's, light at a phone's) are
 * here, on SAMPLED_ROUTES, pages that hold every kind of component the docs use between them.
 * What a mode or a width changes before hydration (the colour toggle, the sidebar and table of
 * contents a phone hides, code blocks' and diagrams' colours) is drawn by shared components, not
 * by one page's prose.
 *
 * The last two tests show the check failing on a page made to mismatch: the server's HTML is
 * changed on its way to the browser (a text, an attribute), as a component that renders
 * differently on the server and in the browser would change it.
 * HYDRATION_MISMATCH=<route> makes the same change to that route wherever it is visited, so that
 * its test in every-page.spec.ts fails, and a pass here that samples it (a one-off check of the
 * check: `HYDRATION_MISMATCH=/docs/v1/measurement npx playwright test e2e/hydration.spec.ts e2e/every-page.spec.ts`).
 */
import {test, expect, type BrowserContext} from '@playwright/test';
import {HYDRATION_WATCH, type Finding} from './hydration-report';
import {NOT_FOUND, readerContext, serveChanged, textMismatch, visit, type Mode, type Width} from './page-visit';
import {builtRoutes} from './shell-routes';

/** Every page of the build, and the not-found page. */
const ROUTES = [...builtRoutes(), NOT_FOUND];

/**
 * One page of each kind: the home page, the search page, a generated category index, a page of
 * prose, a v1 reference page (field tables, examples, downloads, collapsed details, every
 * admonition kind but tip and info), a v2 page with a sequence diagram and code in five languages,
 * the page with tip and info admonitions, and the not-found page.
 */
const SAMPLED_ROUTES = ['/', '/search', '/docs/category/api-v2', '/docs/introduction', '/docs/v1/measurement', '/docs/v2/websocket', '/docs/versioning', NOT_FOUND];

/** Pages loaded at once in one test (the machine has two cores; two tests run side by side). */
const PARALLEL_PAGES = 3;

/** Loads `route` in a new page of `context` and returns what it reported, judged. */
async function load(context: BrowserContext, route: string): Promise<Finding[]> {
  const page = await context.newPage();
  try {
    return (await visit(page, route)).findings;
  } finally {
    await page.close();
  }
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

/** The pairs of colour mode and width that every-page.spec.ts (dark, phone) leaves to SAMPLED_ROUTES. */
const PASSES: {mode: Mode; width: Width}[] = [
  {mode: 'light', width: 'desktop'},
  {mode: 'dark', width: 'desktop'},
  {mode: 'light', width: 'phone'},
];

test.describe('pages hydrate without a mismatch', () => {
  test.describe.configure({timeout: 240_000});

  test('the sampled pages are pages of the build', () => {
    expect(ROUTES.length).toBeGreaterThan(20);
    expect(SAMPLED_ROUTES.filter((route) => !ROUTES.includes(route))).toEqual([]);
  });

  for (const {mode, width} of PASSES) {
    test(`${mode} mode, ${width} width: one page of each kind (${SAMPLED_ROUTES.length})`, async ({browser}) => {
      const context = await readerContext(browser, width, mode);
      try {
        // The pages open in the reader's mode.
        const page = await context.newPage();
        await page.goto('/');
        await expect(page.locator('html')).toHaveAttribute('data-theme', mode);
        await page.close();
        expect(await loadAll(context, SAMPLED_ROUTES)).toEqual([]);
      } finally {
        await context.close();
      }
    });
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
