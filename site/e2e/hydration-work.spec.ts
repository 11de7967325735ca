/**
 * Work that stock Docusaurus's first-visit hydration does and this site's skips, shown on a phone's CPU (x4 slower, through the
 * DevTools protocol): there React's hydration is spread across many time slices (its scheduler
 * yields every 5 ms), as on a real phone.
 * - The sidebar and the table of contents beside the article, which a phone's screen never shows
 *   and Docusaurus removes right after hydrating them (src/hidden-on-phone).
 * - The buttons of code blocks far below the first screen (src/server-article).
 */
import {test, expect, type Page} from '@playwright/test';
import {hydrated, traceRendererWalk, walkedByRenderer, WALK_TRACE} from './shell-routes';

/**
 * Slows the page's CPU 4×; returns what gives it its own speed back. Chromium's throttling keeps a
 * core busy for the time it adds, so the tests give the speed back once what they measure is over.
 */
async function slowCpu(page: Page): Promise<() => Promise<void>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', {rate: 4});
  return async () => {
    await cdp.send('Emulation.setCPUThrottlingRate', {rate: 1});
  };
}

/**
 * Counts, from the start of the page, the elements that `selector` finds when the page has
 * hydrated (Docusaurus's marker turns "true"): in the whole page, or inside the last element
 * `inLast` finds, if there are two or more of those (-1 otherwise). `countAtHydration(page)` reads
 * the count once hydrated.
 */
async function countWhenHydrated(page: Page, selector: string, inLast?: string): Promise<void> {
  await page.addInitScript(
    ([query, scope]) => {
      const w = window as Window & {__countAtHydration?: number};
      const count = () => {
        if (!scope) return document.querySelectorAll(query).length;
        const scopes = document.querySelectorAll(scope);
        return scopes.length > 1 ? scopes[scopes.length - 1]!.querySelectorAll(query).length : -1;
      };
      new MutationObserver((_, observer) => {
        const html = document.documentElement;
        if (html.getAttribute('data-has-hydrated') !== 'true') return;
        w.__countAtHydration = count();
        observer.disconnect();
      }).observe(document, {subtree: true, attributes: true, attributeFilter: ['data-has-hydrated']});
    },
    [selector, inLast ?? ''] as const,
  );
}
const countAtHydration = (page: Page) => page.evaluate(() => (window as Window & {__countAtHydration?: number}).__countAtHydration);

test.describe('a first visit on a phone', () => {
  test.use({viewport: {width: 412, height: 823}});

  test("has the page's title and head tags once it has hydrated", async ({page}) => {
    await slowCpu(page);
    await page.goto('/docs/v2/measurement');
    await hydrated(page);
    await expect(page).toHaveTitle('Measurement | HomeWizard Energy API');
    await expect(page.locator('link[rel=canonical]')).toHaveCount(1);
    await expect(page.locator('meta[name=description]')).toHaveCount(1);
  });

  test('does not hydrate the sidebar and table of contents that the screen hides', async ({page}) => {
    const fullSpeed = await slowCpu(page);
    // Docusaurus removes both right after hydration: look at them as they are removed.
    await page.addInitScript(WALK_TRACE);
    await page.addInitScript(`(() => {
      const found = {sidebarLinks: -1, tocLinks: -1};
      window.__hidden = found;
      const walked = (root) => Array.from(root.querySelectorAll('a')).filter((a) => a.__walked).length;
      new MutationObserver((records) => {
        for (const record of records) {
          for (const node of record.removedNodes) {
            if (node.nodeType !== 1) continue;
            const sidebar = node.matches('.menu') ? node : node.querySelector('nav.menu');
            if (sidebar && found.sidebarLinks < 0) found.sidebarLinks = walked(sidebar);
            const toc = node.matches('.theme-doc-toc-desktop') ? node : node.querySelector('.theme-doc-toc-desktop');
            if (toc && found.tocLinks < 0) found.tocLinks = walked(toc);
          }
        }
      }).observe(document, {subtree: true, childList: true});
    })();`);
    await page.goto('/docs/v2/measurement');
    await hydrated(page);
    await expect(page.locator('.theme-doc-sidebar-container nav.menu')).toHaveCount(0);
    await expect(page.locator('.theme-doc-toc-desktop')).toHaveCount(0);
    const found = await page.evaluate(() => (window as Window & {__hidden?: {sidebarLinks: number; tocLinks: number}}).__hidden!);
    expect(found).toEqual({sidebarLinks: 0, tocLinks: 0});
    // The count could see the renderer's work: its trace was attached.
    expect(await page.evaluate(() => (window as Window & {__walkTrace?: string}).__walkTrace)).toBeTruthy();
    // The phone's own sidebar (the menu) and table of contents work.
    await fullSpeed();
    await page.getByRole('button', {name: /toggle navigation bar/i}).click();
    await page.locator('.navbar-sidebar').getByRole('link', {name: 'Batteries'}).click();
    await expect(page.getByRole('heading', {level: 1})).toHaveText('Batteries');
    await page.getByRole('button', {name: 'On this page'}).click();
    await expect(page.locator('.theme-doc-toc-mobile a').first()).toBeVisible();
  });
});

test.describe('the mobile menu on a phone', () => {
  test.use({viewport: {width: 412, height: 823}});

  test('opens with the docs sidebar and goes back to the main menu', async ({page}) => {
    await page.goto('/docs/v2/measurement');
    await hydrated(page);
    await page.getByRole('button', {name: /toggle navigation bar/i}).click();
    const menu = page.locator('.navbar-sidebar');
    await expect(menu.getByRole('link', {name: 'Batteries'})).toBeInViewport();
    await menu.getByRole('button', {name: /Back to main menu/}).click();
    await expect(menu.locator('a[href="https://www.homewizard.com"]')).toBeInViewport();
  });
});

test('code blocks far below the first screen get their buttons as the reader scrolls to them', async ({page}) => {
  await page.setViewportSize({width: 412, height: 823});
  const fullSpeed = await slowCpu(page);
  // The buttons of the last code block, thousands of pixels down.
  await countWhenHydrated(page, 'button', 'article .theme-code-block');
  await page.goto('/docs/v2/measurement');
  await hydrated(page);
  expect(await countAtHydration(page)).toBe(0);
  await fullSpeed();
  // The last block, thousands of pixels down, has none yet.
  const last = page.locator('article .theme-code-block').last();
  await expect(last.getByRole('button', {name: 'Copy code to clipboard'})).toHaveCount(0);
  await last.scrollIntoViewIfNeeded();
  await expect(last.getByRole('button', {name: 'Copy code to clipboard'})).toHaveCount(1);
});

test('a wide screen hydrates the sidebar and table of contents, which work', async ({page}) => {
  await page.setViewportSize({width: 1280, height: 800});
  await traceRendererWalk(page);
  await page.goto('/docs/v2/measurement');
  await hydrated(page);
  const sidebar = page.getByRole('navigation', {name: 'Docs sidebar'});
  expect(await walkedByRenderer(sidebar, 'a')).toBeGreaterThan(10);
  await page.evaluate(() => {
    (window as Window & {samePage?: boolean}).samePage = true;
  });
  await sidebar.getByRole('link', {name: 'Batteries'}).click();
  await expect(page.getByRole('heading', {level: 1})).toHaveText('Batteries');
  expect(await page.evaluate(() => (window as Window & {samePage?: boolean}).samePage)).toBe(true);
  await expect(page.locator('.theme-doc-toc-desktop a').first()).toBeVisible();
});

test('the back-to-top button shows once the reader scrolls back up, and takes them to the top', async ({page}) => {
  // theme-common's useScrollPosition, stock: the button follows the reader's scrolling.
  await page.setViewportSize({width: 412, height: 823});
  await page.goto('/docs/v2/measurement');
  await hydrated(page);
  const button = page.getByRole('button', {name: 'Scroll back to top'});
  await expect(button).toBeHidden();
  await page.mouse.wheel(0, 3000);
  await page.waitForFunction(() => window.scrollY > 2000);
  await expect(button).toBeHidden();
  await page.mouse.wheel(0, -300);
  await expect(button).toBeVisible();
  await button.click();
  await page.waitForFunction(() => window.scrollY === 0);
});
