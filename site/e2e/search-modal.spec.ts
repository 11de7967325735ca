/**
 * The DocSearch modal's behaviours of spec section 2, in local mode, answered from a crafted
 * index (search-fixtures.ts) so every count and text is known.
 */
import {test, expect} from '@playwright/test';
import {
  REPO_URL,
  modal,
  openModal,
  search,
  searchButton,
  searchInput,
  serveFixtureIndex,
  waitForSearchBar,
} from './search-fixtures';

test.beforeEach(async ({page}) => {
  await serveFixtureIndex(page);
  await page.goto('/docs/introduction');
  await waitForSearchBar(page);
});

test.describe('opening and closing', () => {
  test('Ctrl+K opens the modal and Ctrl+K closes it again', async ({page}) => {
    await page.keyboard.press('Control+k');
    await expect(searchInput(page)).toBeFocused();
    await page.keyboard.press('Control+k');
    await expect(modal(page)).toHaveCount(0);
  });

  test('Meta+K (Cmd+K) opens the modal', async ({page}) => {
    await page.keyboard.press('Meta+k');
    await expect(searchInput(page)).toBeFocused();
  });

  test('/ opens the modal when the reader is not typing in a field', async ({page}) => {
    await page.locator('main').click({position: {x: 5, y: 5}});
    await page.keyboard.press('/');
    await expect(searchInput(page)).toBeFocused();
    await expect(searchInput(page)).toHaveValue('');
  });

  test('/ typed in a field stays in the field and does not open the modal', async ({page}) => {
    await page.goto('/search');
    await waitForSearchBar(page);
    const field = page.getByRole('searchbox', {name: 'Search'});
    await field.fill('v2');
    await field.press('/');
    await field.press('x');
    await expect(field).toHaveValue('v2/x');
    await expect(modal(page)).toHaveCount(0);
  });

  test('Escape closes the modal and gives focus back to the search button', async ({page}) => {
    await openModal(page);
    await page.keyboard.press('Escape');
    await expect(modal(page)).toHaveCount(0);
    await expect(searchButton(page)).toBeFocused();
  });

  test('Ctrl+K pressed right after Escape opens the modal again', async ({page}) => {
    await openModal(page);
    // The two keys within a frame: the shortcut must see the modal closed by the first.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+k');
    await expect(searchInput(page)).toBeFocused();
    await expect(modal(page)).toHaveCount(1);
  });

  test('a click outside the modal closes it', async ({page}) => {
    await openModal(page);
    await page.locator('.DocSearch-Container').click({position: {x: 5, y: 5}});
    await expect(modal(page)).toHaveCount(0);
  });

  test('clicking the search button opens the modal', async ({page}) => {
    await searchButton(page).click();
    await expect(searchInput(page)).toBeFocused();
  });

  test('with the search button focused any key starts the query, except Ctrl+F', async ({page}) => {
    await searchButton(page).focus();
    await page.keyboard.press('Control+f');
    await page.keyboard.press('g');
    await expect(searchInput(page)).toBeFocused();
    // Ctrl+F did not count as input: the query is the one key typed after it.
    await expect(searchInput(page)).toHaveValue('g');
  });
});

test.describe('search box', () => {
  test('placeholder "Search docs", at most 64 characters', async ({page}) => {
    await openModal(page);
    await expect(searchInput(page)).toHaveAttribute('placeholder', 'Search docs');
    await expect(searchInput(page)).toHaveAttribute('maxlength', '64');
    await page.keyboard.type('x'.repeat(70));
    await expect(searchInput(page)).toHaveValue('x'.repeat(64));
  });

  test('"Clear the query" empties the input', async ({page}) => {
    await openModal(page);
    await search(page, 'gizmo');
    await expect(page.locator('.DocSearch-Hit').first()).toBeVisible();
    await page.getByRole('button', {name: 'Clear the query'}).click();
    await expect(searchInput(page)).toHaveValue('');
    await expect(page.locator('.DocSearch-Hit')).toHaveCount(0);
  });

  test('"Cancel" closes the modal on a phone-sized screen', async ({page}) => {
    await page.setViewportSize({width: 375, height: 740});
    await page.keyboard.press('Control+k');
    // The modal's own Cancel: the search shell, with a Cancel of its own, may still be there for
    // a frame while the modal takes over from it.
    const cancel = modal(page).getByRole('button', {name: 'Cancel'});
    await expect(cancel).toBeVisible();
    await cancel.click();
    await expect(modal(page)).toHaveCount(0);
  });

  test('empty query without history shows "No recent searches"', async ({page}) => {
    await openModal(page);
    await expect(page.locator('.DocSearch-StartScreen')).toHaveText('No recent searches');
  });
});

test.describe('hits', () => {
  test('hits are grouped by their top-level title, at most 5 per group', async ({page}) => {
    await openModal(page);
    await search(page, 'gizmo');
    await expect(page.locator('.DocSearch-Hit-source')).toHaveCount(4);
    const sizes = await page.locator('.DocSearch-Hits').evaluateAll((sections) =>
      sections.map((s) => [s.querySelector('.DocSearch-Hit-source')?.textContent, s.querySelectorAll('.DocSearch-Hit').length]),
    );
    expect(Object.fromEntries(sizes)).toEqual({'API v2': 5, Reference: 5, 'API v1': 2, Documentation: 1});
  });

  test('arrow keys move the selection between hits', async ({page}) => {
    await openModal(page);
    await search(page, 'gizmo');
    const options = page.locator('.DocSearch-Hit');
    await expect(options.nth(0)).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('ArrowDown');
    await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true');
    await expect(options.nth(0)).toHaveAttribute('aria-selected', 'false');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true');
  });

  test('Enter opens the selected hit', async ({page}) => {
    await openModal(page);
    await search(page, 'gizmo versions');
    await expect(page.locator('.DocSearch-Hit').first()).toContainText('Gizmo versions');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/docs\/versioning#gizmo-doc$/);
    await expect(modal(page)).toHaveCount(0);
  });

  test('Ctrl+Enter opens the hit in a new tab', async ({page, context}) => {
    await openModal(page);
    await search(page, 'gizmo versions');
    await expect(page.locator('.DocSearch-Hit').first()).toContainText('Gizmo versions');
    const opened = context.waitForEvent('page');
    await page.keyboard.press('Control+Enter');
    const tab = await opened;
    await tab.waitForLoadState();
    expect(tab.url()).toMatch(/\/docs\/versioning#gizmo-doc$/);
    expect(page.url()).toMatch(/\/docs\/introduction$/);
  });

  test('Shift+Enter opens the hit in a new window', async ({page, context}) => {
    await openModal(page);
    await search(page, 'gizmo versions');
    await expect(page.locator('.DocSearch-Hit').first()).toContainText('Gizmo versions');
    const opened = context.waitForEvent('page');
    await page.keyboard.press('Shift+Enter');
    const win = await opened;
    await win.waitForLoadState();
    expect(win.url()).toMatch(/\/docs\/versioning#gizmo-doc$/);
    expect(page.url()).toMatch(/\/docs\/introduction$/);
  });

  test('snippets are 10 words long', async ({page}) => {
    await openModal(page);
    await search(page, 'needle');
    const snippet = page.locator('.DocSearch-Hit-title').first();
    await expect(snippet).toContainText('needle');
    const words = (await snippet.innerText()).replace(/…/g, ' ').trim().split(/\s+/);
    expect(words).toHaveLength(10);
  });

  test('snippets are 5 words long on a screen up to 768 px wide', async ({page}) => {
    await page.setViewportSize({width: 768, height: 900});
    await page.reload();
    await waitForSearchBar(page);
    await openModal(page);
    await search(page, 'needle');
    const snippet = page.locator('.DocSearch-Hit-title').first();
    await expect(snippet).toContainText('needle');
    const words = (await snippet.innerText()).replace(/…/g, ' ').trim().split(/\s+/);
    expect(words).toHaveLength(5);
  });
});

test.describe('no results', () => {
  test('shows the query, up to 3 suggestions and a "Let us know" link to a new issue', async ({page}) => {
    await openModal(page);
    // A query with 4 groups first: DocSearch suggests group titles it has seen.
    await search(page, 'gizmo');
    await expect(page.locator('.DocSearch-Hit-source')).toHaveCount(4);
    await search(page, 'qqqzzz');
    const screen = page.locator('.DocSearch-NoResults');
    await expect(screen.locator('.DocSearch-Title')).toHaveText('No results for "qqqzzz"');
    await expect(screen).toContainText('Try searching for');
    const suggestions = screen.locator('.DocSearch-NoResults-Prefill-List button');
    await expect(suggestions).toHaveCount(3);
    await expect(screen).toContainText('Believe this query should return results?');
    const letUsKnow = screen.getByRole('link', {name: 'Let us know'});
    const href = await letUsKnow.getAttribute('href');
    expect(href).toMatch(new RegExp(`^${REPO_URL.replace(/[.]/g, '\\.')}/issues/new\\?`));
    expect(new URL(href!).searchParams.get('title')).toContain('qqqzzz');
    await expect(letUsKnow).toHaveAttribute('target', '_blank');
    // A suggestion becomes the query.
    const first = (await suggestions.first().innerText()).trim();
    await suggestions.first().click();
    // DocSearch fills the suggestion in lower case, followed by a space.
    await expect(searchInput(page)).toHaveValue(`${first.toLowerCase()} `);
  });
});
