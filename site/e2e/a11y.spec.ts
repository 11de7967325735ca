import {readFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import {test, expect, type Page} from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import {SPEC_ROUTES, hydrated} from './shell-routes';

/**
 * Every rule of axe-core, experimental ones included, from the axe-core this package depends on.
 * @axe-core/playwright bundles an older axe-core of its own, where `label-content-name-mismatch`
 * (WCAG 2.5.3) is still experimental, and a run limited to WCAG tags skips experimental rules:
 * that is how the search button's name once passed here while readers' tools reported it.
 * The WCAG AAA rules run too (tag wcag2aaa: enhanced 7:1 contrast, identical links with the same
 * purpose, meta refresh without exceptions), though axe leaves them off by default: the site's
 * colours (src/css, the code themes in site-config.ts, the search's) are chosen for 7:1.
 * Left out: the rules axe marks deprecated (duplicate-id, duplicate-id-active: WCAG 2.2 made
 * 4.1.1 Parsing obsolete), which flag the ids Mermaid repeats inside its sequence diagrams' actor
 * symbols. duplicate-id-aria, which matters to readers, runs.
 */
const load = createRequire(__filename);
const AXE_SOURCE = readFileSync(load.resolve('axe-core/axe.min.js'), 'utf8');
const ALL_RULES = (load('axe-core') as {getRules(): {ruleId: string; tags: string[]}[]})
  .getRules()
  .filter((rule) => !rule.tags.includes('deprecated'))
  .map((rule) => rule.ruleId);

/**
 * axe runs in the page itself (legacy mode: one `axe.run`, no second page to merge the frames'
 * partial results; the site's pages have no frames) and reports violations only (`resultTypes`:
 * passes and the rest come back as one node each, not the 2.8 MB that every passing node of a
 * reference page makes): 3 to 4 s a run on /docs/v2/websocket instead of 22 s, the same violations.
 */
const axeBuilder = (page: Page) =>
  // `options()` replaces the options object that `withRules()` fills in: it must come first.
  new AxeBuilder({page, axeSource: AXE_SOURCE}).setLegacyMode(true).options({resultTypes: ['violations']}).withRules(ALL_RULES);

async function violations(page: Page, exclude: string[] = []): Promise<string[]> {
  let builder = axeBuilder(page);
  for (const selector of exclude) builder = builder.exclude(selector);
  const results = await builder.analyze();
  return results.violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help}\n` +
      v.nodes
        .slice(0, 5)
        .map((n) => `    ${n.target.join(' ')}: ${n.failureSummary?.split('\n').slice(1).join(' ') ?? ''}`)
        .join('\n'),
  );
}

async function settle(page: Page, mode: 'light' | 'dark'): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('data-theme', mode);
  // Colour transitions start with the next style update (two frames on); contrast is measured once they have all ended.
  await page.evaluate(async () => {
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    await Promise.all(document.getAnimations().filter((a) => a instanceof CSSTransition).map((a) => a.finished.catch(() => undefined)));
  });
}

async function toDark(page: Page, route: string): Promise<void> {
  if (route === '/docs') await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'dark'));
  else await page.getByRole('button', {name: /Switch between dark and light mode/}).click();
  await settle(page, 'dark');
}

async function open(page: Page, route: string, mode: 'light' | 'dark'): Promise<void> {
  if (route === '/docs') {
    // With JavaScript the root page forwards at once; check the page readers without it get.
    await page.route('**/assets/js/**', (r) => r.abort());
    await page.goto(route);
    if (mode === 'dark') await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'dark'));
  } else {
    await page.goto(route);
    await hydrated(page);
    if (mode === 'dark') await page.getByRole('button', {name: /Switch between dark and light mode/}).click();
  }
  await settle(page, mode);
  // Diagrams render after hydration, from a lazy chunk: check them drawn, not their placeholder.
  if (DIAGRAM_ROUTES.includes(route)) {
    await expect(page.locator('.docusaurus-mermaid-container svg').first()).toBeVisible({timeout: 15_000});
  }
}

/** The pages with Mermaid diagrams (```mermaid in site/docs). */
const DIAGRAM_ROUTES = ['/docs/discovery', '/docs/v2/authorization', '/docs/v2/websocket'];

test.describe('axe finds no violation in light and dark mode', () => {
  // axe walks every node of long reference pages twice (light and dark): allow it the time.
  test.describe.configure({timeout: 180_000});

  for (const route of SPEC_ROUTES) {
    test(route, async ({page}) => {
      await open(page, route, 'light');
      expect(await violations(page), 'light mode').toEqual([]);
      await toDark(page, route);
      expect(await violations(page), 'dark mode').toEqual([]);
    });
  }

  test('the not-found page', async ({page}) => {
    await open(page, '/no-such-page', 'light');
    expect(await violations(page), 'light mode').toEqual([]);
    await toDark(page, '/no-such-page');
    expect(await violations(page), 'dark mode').toEqual([]);
  });

  test('the mobile menu, open', async ({page}) => {
    await open(page, '/docs/v1/measurement', 'light');
    await page.setViewportSize({width: 390, height: 844});
    await page.getByRole('button', {name: 'Toggle navigation bar'}).click();
    await expect(page.locator('.navbar-sidebar')).toBeVisible();
    expect(await violations(page), 'light mode').toEqual([]);
    // The colour toggle sits in the open mobile menu.
    await page.locator('.navbar-sidebar').getByRole('button', {name: /Switch between dark and light mode/}).click();
    await settle(page, 'dark');
    expect(await violations(page), 'dark mode').toEqual([]);
  });

  for (const mode of ['light', 'dark'] as const) {
    test(`the search modal, open (${mode})`, async ({page}) => {
      await open(page, '/docs/introduction', mode);
      await page.keyboard.press('Control+k');
      await expect(page.locator('.DocSearch-Modal')).toBeVisible();
      await expect(page.getByPlaceholder('Search docs')).toBeFocused();
      expect(await violations(page)).toEqual([]);
      await page.keyboard.type('token');
      await expect(page.locator('.DocSearch-Hit').first()).toBeVisible();
      // Every rule, nested-interactive included: a hit's option holds no link (the theme's hit
      // component opens it on a click, a middle or modified click in a new tab).
      expect(await violations(page), 'with hits').toEqual([]);
    });
  }
});
