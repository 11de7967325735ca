/**
 * The first page of a visit keeps its article as the server rendered it (src/server-article): its
 * MDX components never run in the browser, and its links and code-block buttons work as the
 * components would have made them work.
 */
import {test, expect, type Page} from '@playwright/test';
import {connectionInitScript, hydrated, traceRendererWalk, walkedByRenderer} from './shell-routes';

const article = (page: Page) => page.locator('article .theme-doc-markdown');

/** The article's headings, paragraphs, tables, links and code that the app's hydration walked. */
const articleWalked = (page: Page) => walkedByRenderer(article(page), 'h2, h3, p, table, td, a, pre, code');

/** Brings each code block of the article near the viewport, where it gets its buttons (src/server-article), and checks its Copy button. */
async function eachCodeBlockHasACopyButton(page: Page): Promise<void> {
  for (const block of await article(page).locator('.theme-code-block').all()) {
    await block.scrollIntoViewIfNeeded();
    await expect(block.getByRole('button', {name: 'Copy code to clipboard'})).toHaveCount(1);
  }
}

test.describe("the first page's article", () => {
  test('is not hydrated on a first visit, and is rendered by the app after a client-side navigation', async ({page}) => {
    await traceRendererWalk(page);
    await page.goto('/docs/v2/measurement');
    await hydrated(page);
    expect(await article(page).locator('h2, h3, p, table, td, a, pre, code').count()).toBeGreaterThan(300);
    expect(await articleWalked(page)).toBe(0);
    // The check sees the renderer's work where there is some: the next page is rendered in the browser.
    await page.getByRole('navigation', {name: 'Docs sidebar'}).getByRole('link', {name: 'Batteries'}).click();
    await expect(page.getByRole('heading', {level: 1})).toHaveText('Batteries');
    expect(await articleWalked(page)).toBeGreaterThan(0);
  });

  test('is hydrated whole on a page with a diagram, which is drawn', async ({page}) => {
    await traceRendererWalk(page);
    await page.goto('/docs/v2/authorization');
    await hydrated(page);
    await expect(page.locator('.docusaurus-mermaid-container svg')).toBeVisible({timeout: 15_000});
    expect(await articleWalked(page)).toBeGreaterThan(0);
  });

  test('is hydrated whole on a page whose MDX has a component with its own state, which works on a first visit', async ({page}) => {
    await traceRendererWalk(page);
    await page.goto('/docs/v1/measurement');
    await hydrated(page);
    expect(await articleWalked(page)).toBeGreaterThan(0);
    // The theme's Details component holds its state (data-collapsed) and opens and closes its body
    // itself, animated; without it the browser's own <details> would open, the state never change.
    const details = article(page).locator('details', {hasText: 'The whole response, every field'});
    const response = details.locator('pre');
    await expect(details).toHaveAttribute('data-collapsed', 'true');
    await expect(response).toBeHidden();
    await details.locator('summary').click();
    await expect(details).toHaveAttribute('data-collapsed', 'false');
    await expect(response).toBeVisible();
    await expect(response).toContainText('"wifi_ssid"');
    await details.locator('summary').click();
    await expect(details).toHaveAttribute('data-collapsed', 'true');
    await expect(response).toBeHidden();
  });

  test('links to other pages navigate in the app, and Back returns to the article', async ({page}) => {
    await page.goto('/docs/v2/measurement');
    await hydrated(page);
    await page.evaluate(() => {
      (window as Window & {samePage?: boolean}).samePage = true;
    });
    const link = article(page).locator('a[href="/docs/v2/websocket"]').first();
    await link.click();
    await expect(page).toHaveURL(/\/docs\/v2\/websocket$/);
    await expect(page.getByRole('heading', {level: 1})).toHaveText('WebSocket');
    // No document load: the app's state survived the navigation.
    expect(await page.evaluate(() => (window as Window & {samePage?: boolean}).samePage)).toBe(true);
    await page.goBack();
    await expect(page.getByRole('heading', {level: 1})).toHaveText('Measurement');
    await expect(article(page).locator('a[href="/docs/v2/websocket"]').first()).toBeVisible();
    expect(await page.evaluate(() => (window as Window & {samePage?: boolean}).samePage)).toBe(true);
  });

  test('a link clicked with Ctrl opens in a new tab and the page stays', async ({page, context}) => {
    await page.goto('/docs/v2/measurement');
    await hydrated(page);
    const opened = context.waitForEvent('page');
    await article(page).locator('a[href="/docs/v2/websocket"]').first().click({modifiers: ['Control']});
    const tab = await opened;
    await expect(tab).toHaveURL(/\/docs\/v2\/websocket$/);
    await expect(page).toHaveURL(/\/docs\/v2\/measurement$/);
  });

  test("a heading's direct link goes to the heading on the same page", async ({page}) => {
    await page.goto('/docs/v2/measurement');
    await hydrated(page);
    await page.evaluate(() => {
      (window as Window & {samePage?: boolean}).samePage = true;
    });
    const heading = article(page).locator('h2').nth(1);
    const id = await heading.getAttribute('id');
    await heading.hover();
    await heading.locator('a.hash-link').click();
    await expect(page).toHaveURL(new RegExp(`#${id}$`));
    await expect(heading).toBeInViewport();
    expect(await page.evaluate(() => (window as Window & {samePage?: boolean}).samePage)).toBe(true);
  });

  test("hovering a link to another page loads that page's route", async ({page}) => {
    await page.addInitScript(connectionInitScript({effectiveType: '4g', saveData: false}));
    await page.goto('/docs/v2/measurement');
    await hydrated(page);
    await page.waitForLoadState('networkidle');
    const requested: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/assets/js/')) requested.push(r.url());
    });
    await article(page).locator('a[href="/docs/v2/websocket"]').first().hover();
    await expect.poll(() => requested.length).toBeGreaterThan(0);
  });

  test('each code block has a Copy button that copies its lines', async ({page, context}) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/docs/v2/measurement');
    await hydrated(page);
    const blocks = article(page).locator('.theme-code-block');
    const count = await blocks.count();
    expect(count).toBeGreaterThan(1);
    await eachCodeBlockHasACopyButton(page);
    const block = article(page).locator('.theme-code-block', {has: page.locator('pre.language-http')}).first();
    await block.hover();
    await block.getByRole('button', {name: 'Copy code to clipboard'}).click();
    await expect(block.getByRole('button', {name: 'Copied'})).toBeVisible();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toMatch(/^GET \/api\/measurement HTTP\/1\.1\nHost: 192\.0\.2\.10\nAuthorization: Bearer [0-9A-F]+\nX-Api-Version: 2$/);
  });

  test.describe('on a phone', () => {
    test.use({viewport: {width: 412, height: 823}});

    test('a code block wider than the screen has a word-wrap button that wraps its lines', async ({page}) => {
      await page.goto('/docs/v2/measurement');
      await hydrated(page);
      await eachCodeBlockHasACopyButton(page);
      const wide = article(page).locator('.theme-code-block', {has: page.getByRole('button', {name: 'Toggle word wrap'})}).first();
      await expect(wide).toBeAttached();
      await wide.scrollIntoViewIfNeeded();
      const code = wide.locator('pre code');
      const scrolls = () => wide.locator('pre').evaluate((pre) => pre.scrollWidth > pre.clientWidth);
      expect(await scrolls()).toBe(true);
      await wide.getByRole('button', {name: 'Toggle word wrap'}).click();
      await expect(code).toHaveCSS('white-space', 'pre-wrap');
      expect(await scrolls()).toBe(false);
    });
  });
});
