/**
 * axe with every rule (axe.ts) on what every-page.spec.ts's one visit per page does not reach:
 * /docs as readers without JavaScript get it, the open mobile menu and the open search modal (empty,
 * then with highlighted hits), in light and dark mode.
 */
import {test, expect, type Page} from '@playwright/test';
import {settle, toDark, violations} from './axe';
import {searchButton} from './search-fixtures';
import {hydrated} from './shell-routes';

/** Opens `route` once the app has hydrated, in `mode` (the navbar's toggle for dark). */
async function open(page: Page, route: string, mode: 'light' | 'dark'): Promise<void> {
  await page.goto(route);
  await hydrated(page);
  if (mode === 'dark') await toDark(page);
  else await settle(page, 'light');
}

test.describe('axe finds no violation in light and dark mode', () => {
  test.describe.configure({timeout: 180_000});

  test('/docs without JavaScript (the root page forwards at once with it)', async ({page}) => {
    await page.route('**/assets/js/**', (r) => r.abort());
    await page.goto('/docs');
    await settle(page, 'light');
    expect(await violations(page), 'light mode').toEqual([]);
    // Without JavaScript the toggle does nothing: the dark colours, as a stored choice would set them.
    await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'dark'));
    await settle(page, 'dark');
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
      // WCAG 2.5.3: the button's name is its visible text; the shortcut is announced from aria-keyshortcuts.
      await expect(searchButton(page)).toHaveAccessibleName('Search');
      await expect(searchButton(page)).toHaveAttribute('aria-keyshortcuts', 'Control+K');
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
