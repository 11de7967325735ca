import {test, expect, type Page, type Route} from '@playwright/test';
import {connectionInitScript, hydrated} from './shell-routes';

/**
 * Route chunks are found by what they contain, not by their hashed names: every JS asset except
 * the runtime and main.js that carries the marker belongs to the route under test.
 */
const fulfillJs = (route: Route, body: string) =>
  route.fulfill({status: 200, contentType: 'application/javascript', body});

type ChunkHandler = (route: Route, body: string) => Promise<void>;

async function onRouteChunks(page: Page, marker: string, handler: ChunkHandler): Promise<void> {
  await page.route(/\/assets\/js\/(?!main\.|runtime~main\.)[^/]+\.js$/, async (route) => {
    let body: string;
    try {
      body = await (await route.fetch()).text();
    } catch {
      return; // the page closed while this request was in flight (end of test)
    }
    if (body.includes(marker)) {
      await handler(route, body);
    } else {
      await fulfillJs(route, body);
    }
  });
}

/** Records whether the nprogress bar was ever inserted into the page. */
async function watchProgressBar(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as {sawProgressBar: boolean};
    w.sawProgressBar = false;
    new MutationObserver(() => {
      if (document.getElementById('nprogress')) w.sawProgressBar = true;
    }).observe(document, {childList: true, subtree: true});
  });
}
const sawProgressBar = (page: Page) =>
  page.evaluate(() => (window as unknown as {sawProgressBar: boolean}).sawProgressBar);

const API_V1_MARKER = '"permalink":"/docs/category/api-v1"';

test.describe('lazy pages', () => {
  test('while a route chunk loads the current page stays, the progress bar shows, then the page arrives', async ({
    page,
  }) => {
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let requested = false;
    await watchProgressBar(page);
    await onRouteChunks(page, API_V1_MARKER, async (route, body) => {
      requested = true;
      await released;
      await fulfillJs(route, body);
    });
    await page.goto('/');
    await hydrated(page);
    await page.locator('.navbar').getByRole('link', {name: 'API v1', exact: true}).click();
    // The chunk is held back: the home page stays and the progress bar appears (after its delay).
    await expect(page.locator('#nprogress')).toBeAttached();
    // The handler runs once the test has fetched the chunk itself, which can finish after the bar appears.
    await expect.poll(() => requested).toBe(true);
    await expect(page.getByRole('heading', {level: 1})).toHaveText('HomeWizard Energy local API');
    release();
    await expect(page.getByRole('heading', {level: 1})).toHaveText('API v1');
    await expect(page).toHaveURL(/\/docs\/category\/api-v1$/);
    await expect(page.locator('#nprogress')).not.toBeAttached();
  });

  test('if a route chunk fails to load, the page reloads at the new address and shows the page', async ({
    page,
  }) => {
    // The route's chunks fail (as after a deployment replaced them) until the page reloads.
    const documents: string[] = [];
    let failures = 0;
    await onRouteChunks(page, API_V1_MARKER, async (route, body) => {
      if (documents.length <= 1) {
        failures += 1;
        await route.abort('failed');
      } else {
        await fulfillJs(route, body);
      }
    });
    page.on('request', (r) => {
      if (r.resourceType() === 'document') documents.push(new URL(r.url()).pathname);
    });
    await page.goto('/');
    await hydrated(page);
    await page.locator('.navbar').getByRole('link', {name: 'API v1', exact: true}).click();
    await expect(page.getByRole('heading', {level: 1})).toHaveText('API v1');
    expect(failures).toBeGreaterThan(0);
    // A full page load of the new address, not a client-side render.
    expect(documents).toEqual(['/', '/docs/category/api-v1']);
    await hydrated(page);
  });
});

test.describe('progress bar', () => {
  /**
   * Every script the page asks for is answered `delayMs` late, and every script asked for once
   * `hold()` has been called waits until `release()`: a navigation then stays pending for as long
   * as the test needs, on a link as slow as it likes.
   */
  async function slowScripts(page: Page, delayMs: number) {
    let held = false;
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/js\/[^/]+\.js$/, async (route) => {
      if (held) await released;
      else await new Promise((resolve) => setTimeout(resolve, delayMs));
      try {
        await route.continue();
      } catch {
        // the page closed while the script was held (end of test)
      }
    });
    return {hold: () => void (held = true), release: () => release()};
  }

  test('shows 200 ms into a navigation that is still loading, on a slow network too', async ({page}) => {
    const scripts = await slowScripts(page, 1500);
    // The page's clock runs as usual until the test pauses it: then the bar's 200 ms pass only
    // when the test says, however busy the machine is.
    await page.clock.install();
    await page.goto('/');
    await hydrated(page);
    const now = await page.evaluate(() => Date.now());
    await page.clock.pauseAt(now + 1000);
    scripts.hold();
    await page.locator('.navbar').getByRole('link', {name: 'API v1', exact: true}).click();
    await page.clock.runFor(199);
    await expect(page.locator('#nprogress')).toHaveCount(0);
    await page.clock.runFor(1);
    // Visible while the navigation is pending: no script (not even one of the bar's own) has arrived.
    await expect(page.locator('#nprogress .bar')).toBeVisible();
    await expect(page.getByRole('heading', {level: 1})).toHaveText('HomeWizard Energy local API');
    scripts.release();
    await expect(page.getByRole('heading', {level: 1})).toHaveText('API v1');
    await page.clock.resume();
    await expect(page.locator('#nprogress')).toHaveCount(0);
  });

  test('does not show when the next page is already loaded (fast navigation)', async ({page}) => {
    await watchProgressBar(page);
    await page.clock.install();
    await page.goto('/');
    await hydrated(page);
    const link = page.locator('.navbar').getByRole('link', {name: 'API v1', exact: true});
    // The route's chunks are in (what hovering the link starts) once Docusaurus's preload resolves.
    await page.evaluate(async () => {
      await window.docusaurus.preload('/docs/category/api-v1');
    });
    // The clock stands still from the click until the page has arrived, then runs well past the
    // bar's 200 ms: the page arrived first, so the bar never comes.
    const now = await page.evaluate(() => Date.now());
    await page.clock.pauseAt(now + 1000);
    await link.click();
    await expect(page.getByRole('heading', {level: 1})).toHaveText('API v1');
    await page.clock.runFor(1000);
    expect(await sawProgressBar(page)).toBe(false);
  });
});

test("the app's scripts run only once the page is parsed and a frame is rendered, then it hydrates", async ({page}) => {
  await page.addInitScript(() => {
    const w = window as unknown as {firstFrame: number; scriptsAdded: {at: number; pageParsed: boolean}[]};
    w.scriptsAdded = [];
    // The first rendering opportunity of the page (animation frames run just before a frame is drawn).
    requestAnimationFrame(() => (w.firstFrame = performance.now()));
    // Scripts run when their <script> element is added: the download itself may start earlier,
    // as a preload (see the test of the download in shell-first-input.spec.ts). The page is
    // parsed when its last part, the footer, is in the document.
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of Array.from(record.addedNodes)) {
          if (node instanceof HTMLScriptElement && /\/assets\/js\/(runtime~)?main\.[0-9a-f]+\.js$/.test(node.src)) {
            w.scriptsAdded.push({at: performance.now(), pageParsed: document.querySelector('#__docusaurus footer') !== null});
          }
        }
      }
    }).observe(document, {childList: true, subtree: true});
  });
  await page.goto('/docs/v2/measurement');
  await hydrated(page);
  const timing = await page.evaluate(() => {
    const w = window as unknown as {firstFrame: number; scriptsAdded: {at: number; pageParsed: boolean}[]};
    return {firstFrame: w.firstFrame, scripts: w.scriptsAdded};
  });
  expect(timing.scripts).toHaveLength(2);
  for (const added of timing.scripts) {
    expect(added.pageParsed).toBe(true);
    expect(added.at).toBeGreaterThan(timing.firstFrame);
  }
  // Hydrated: a client-side control works.
  await page.getByRole('button', {name: /dark mode|light mode|system mode/i}).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
});

test("a page's route chunks are in its script list: hydrating it adds no other script", async ({page}) => {
  // The scripts in the document when the page has hydrated (webpack adds a <script> for each chunk
  // it needs that no script of the page already loads).
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (document.documentElement.getAttribute('data-has-hydrated') !== 'true') return;
      (window as unknown as {scriptsAtHydration: string[]}).scriptsAtHydration = Array.from(
        document.querySelectorAll<HTMLScriptElement>('script[src*="/assets/js/"]'),
        (script) => new URL(script.src).pathname,
      );
      observer.disconnect();
    }).observe(document, {subtree: true, attributes: true, attributeFilter: ['data-has-hydrated']});
  });
  const html = await (await page.request.get('/docs/v2/measurement')).text();
  const listed = JSON.parse(/\((\["\/assets\/js\/runtime~main\.[^)]*\])\)/.exec(html)![1]!) as string[];
  expect(listed.length).toBeGreaterThan(2);
  await page.goto('/docs/v2/measurement');
  await hydrated(page);
  const atHydration = await page.evaluate(() => (window as unknown as {scriptsAtHydration: string[]}).scriptsAtHydration);
  expect(atHydration.filter((src) => !listed.includes(src))).toEqual([]);
});

test.describe('route preloading', () => {
  /** The footer's Changelog link on the hydrated home page, and the JS requests made from then on. */
  async function changelogLinkAfterLoad(page: Page) {
    await page.goto('/');
    await hydrated(page);
    await page.waitForLoadState('networkidle');
    const requested: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/assets/js/')) requested.push(r.url());
    });
    return {link: page.getByRole('contentinfo').getByRole('link', {name: 'Changelog'}), requested};
  }

  /**
   * The scripts and prefetch links in the page. Docusaurus adds a route's <script> (preload) or
   * <link rel=prefetch> elements in the same task as the event that asks for them, so a count read
   * after that event has been handled sees whether anything was asked for.
   */
  const loadingElements = (page: Page) =>
    page.evaluate(() => document.querySelectorAll('script[src*="/assets/js/"], link[rel=prefetch]').length);

  /** Resolves once an IntersectionObserver created now has seen `selector` in view (the Link's own observers are called before it). */
  const seenInView = (page: Page, selector: string) =>
    page.evaluate(
      (query) =>
        new Promise<void>((resolve) => {
          const observer = new IntersectionObserver((entries) => {
            if (entries.some((e) => e.isIntersecting)) {
              observer.disconnect();
              resolve();
            }
          });
          observer.observe(document.querySelector(query)!);
        }),
      selector,
    );

  test('on a normal connection hovering a link loads its route', async ({page}) => {
    await page.addInitScript(connectionInitScript({effectiveType: '4g', saveData: false}));
    const {link, requested} = await changelogLinkAfterLoad(page);
    await link.hover();
    await expect.poll(() => requested.length).toBeGreaterThan(0);
  });

  test('on a touch screen touching a link loads its route', async ({browser}) => {
    const context = await browser.newContext({hasTouch: true, isMobile: true, viewport: {width: 412, height: 823}});
    const page = await context.newPage();
    await page.addInitScript(connectionInitScript({effectiveType: '4g', saveData: false}));
    const {link, requested} = await changelogLinkAfterLoad(page);
    await link.scrollIntoViewIfNeeded();
    // A touch that starts on the link (the tap's click is what navigates, not tested here).
    await link.dispatchEvent('touchstart', {touches: [], changedTouches: [], targetTouches: []});
    await expect.poll(() => requested.length).toBeGreaterThan(0);
    await context.close();
  });

  test('on a normal connection a link that comes into view loads nothing: its route loads when it is hovered', async ({page}) => {
    await page.addInitScript(connectionInitScript({effectiveType: '4g', saveData: false}));
    const {link, requested} = await changelogLinkAfterLoad(page);
    const before = await loadingElements(page);
    // In view: an observer made now is called after any the page made for the link, so by then
    // a prefetch would have been asked for.
    const inView = seenInView(page, 'footer a[href="/docs/changelog"]');
    await link.scrollIntoViewIfNeeded();
    await inView;
    expect(await loadingElements(page)).toBe(before);
    expect(requested).toEqual([]);
    await link.hover();
    await expect.poll(() => requested.length).toBeGreaterThan(0);
  });

  for (const connection of [
    {effectiveType: '2g', saveData: false},
    {effectiveType: 'slow-2g', saveData: false},
    {effectiveType: '4g', saveData: true},
  ]) {
    test(`not on ${connection.saveData ? 'save-data' : connection.effectiveType} connections`, async ({page}) => {
      await page.addInitScript(connectionInitScript(connection));
      const {link, requested} = await changelogLinkAfterLoad(page);
      const before = await loadingElements(page);
      // In view (the Link's observer has been called) and hovered: neither prefetches nor preloads.
      const inView = seenInView(page, 'footer a[href="/docs/changelog"]');
      await link.scrollIntoViewIfNeeded();
      await inView;
      await link.hover();
      expect(await loadingElements(page)).toBe(before);
      expect(requested).toEqual([]);
      // The link still works: the route loads on click.
      await link.click();
      await expect(page.getByRole('heading', {level: 1})).toHaveText('Changelog');
    });
  }
});

test('a page that crashes shows "This page crashed." with "Try again"', async ({page}) => {
  // Corrupt the category page's props so its component throws while rendering.
  await onRouteChunks(page, API_V1_MARKER, async (route, body) => {
    await fulfillJs(route, body.replace('"categoryGeneratedIndex":{', '"categoryGeneratedIndex":null,"was":{'));
  });
  await page.goto('/');
  await hydrated(page);
  await page.locator('.navbar').getByRole('link', {name: 'API v1', exact: true}).click();
  await expect(page.getByRole('heading', {level: 1, name: 'This page crashed.'})).toBeVisible();
  const tryAgain = page.getByRole('button', {name: 'Try again'});
  await expect(tryAgain).toBeVisible();
  // The navbar and footer survive: only the page content is replaced.
  await expect(page.getByRole('contentinfo')).toBeVisible();
  await tryAgain.click();
  await expect(page.getByRole('heading', {level: 1, name: 'This page crashed.'})).toBeVisible();
});
