/**
 * axe-core as the browser tests run it: every rule, in the page itself, violations only
 * (a11y.spec.ts, every-page.spec.ts).
 */
import {readFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import {expect, type Page} from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';

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
export const axeBuilder = (page: Page) =>
  // `options()` replaces the options object that `withRules()` fills in: it must come first.
  new AxeBuilder({page, axeSource: AXE_SOURCE}).setLegacyMode(true).options({resultTypes: ['violations']}).withRules(ALL_RULES);

export async function violations(page: Page, exclude: string[] = []): Promise<string[]> {
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

export async function settle(page: Page, mode: 'light' | 'dark'): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('data-theme', mode);
  // Colour transitions start with the next style update (two frames on); contrast is measured once they have all ended.
  await page.evaluate(async () => {
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    await Promise.all(document.getAnimations().filter((a) => a instanceof CSSTransition).map((a) => a.finished.catch(() => undefined)));
  });
}

/** The pages with Mermaid diagrams (```mermaid in site/docs). */
export const DIAGRAM_ROUTES = ['/docs/discovery', '/docs/v2/authorization', '/docs/v2/websocket'];

/** Diagrams render after hydration, from a lazy chunk: axe checks them drawn, not their placeholder. */
export async function diagramsDrawn(page: Page, route: string): Promise<void> {
  if (DIAGRAM_ROUTES.includes(route)) {
    await expect(page.locator('.docusaurus-mermaid-container svg').first()).toBeVisible({timeout: 15_000});
  }
}

/** Switches to dark mode with the navbar's toggle, as a reader does, and waits for the colours. */
export async function toDark(page: Page): Promise<void> {
  await toggleTo(page, 'dark');
}

/** Clicks the navbar's colour toggle (a desktop's width) and waits for `mode`'s colours. */
export async function toggleTo(page: Page, mode: 'light' | 'dark'): Promise<void> {
  await page.getByRole('button', {name: /Switch between dark and light mode/}).click();
  await settle(page, mode);
}
