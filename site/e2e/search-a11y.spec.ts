/**
 * Accessibility of the search UI with axe, light and dark: the search button passes every rule;
 * the open modal passes colour contrast (its other findings come from DocSearch 3.9's markup:
 * header/footer landmarks, options containing links, aria-controls listing every hit list).
 */
import {test, expect} from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import {openModal, search, searchButton, serveFixtureIndex, waitForSearchBar} from './search-fixtures';

for (const theme of ['light', 'dark'] as const) {
  test(`search button and modal colours pass axe (${theme})`, async ({page}) => {
    // Two runs of axe: CPU work that a busy machine (npm test runs the theme's browser suite beside
    // this one) stretches past the default 30 s.
    test.slow();
    await serveFixtureIndex(page);
    await page.goto('/docs/introduction');
    await waitForSearchBar(page);
    await page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), theme);
    const button = await new AxeBuilder({page}).include('.DocSearch-Button').analyze();
    expect(button.violations).toEqual([]);
    // WCAG 2.5.3: the name is the visible text; the shortcut is announced from aria-keyshortcuts.
    await expect(searchButton(page)).toHaveAccessibleName('Search');
    await expect(searchButton(page)).toHaveAttribute('aria-keyshortcuts', 'Control+K');

    await openModal(page);
    await search(page, 'gizmo');
    await expect(page.locator('.DocSearch-Hit[aria-selected="true"] mark').first()).toBeVisible();
    const modal = await new AxeBuilder({page}).include('.DocSearch-Container').withRules(['color-contrast']).analyze();
    expect(modal.violations.flatMap((v) => v.nodes.map((n) => n.failureSummary))).toEqual([]);
  });
}
