/**
 * The early search box answers from the first paint (issue 27): before the app has started, what
 * the reader types shows hits in the modal's look, from the same client, in the modal's order and
 * grouping; arrows and Enter work; when the app arrives the modal shows the same query and hits
 * with the selection kept; a failed or slow index download shows the modal's error screen texts.
 *
 * "Before the app" is not left to timing: the app's main script is held back until the test lets
 * it through (as shell-first-input.spec.ts does).
 */
import {test, expect, type Locator, type Page, type Route} from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import {hydrated} from './shell-routes';
import {LOCAL_INDEX_URL, fixtureIndex, isHydrated, modal, openBeforeApp, searchButton, searchInput, serveFixtureIndex} from './search-fixtures';

const shell = (page: Page) => page.locator('.search-shell');
const shellInput = (page: Page) => page.locator('.search-shell input');
interface Shown {
  group: string;
  title: string;
  path: string;
  href: string;
  child: boolean;
}

/** The hits under `root` as a reader sees them: group, title and path (with their marks), link. */
function shownHits(root: Locator): Promise<{hits: Shown[]; selected: number}> {
  return root.evaluate((el) => {
    const hits: Shown[] = [];
    let selected = -1;
    for (const section of Array.from(el.querySelectorAll('section.DocSearch-Hits'))) {
      const group = section.querySelector('.DocSearch-Hit-source')?.textContent ?? '';
      for (const item of Array.from(section.querySelectorAll('li.DocSearch-Hit'))) {
        if (item.getAttribute('aria-selected') === 'true') selected = hits.length;
        hits.push({
          group,
          title: item.querySelector('.DocSearch-Hit-title')?.innerHTML ?? '',
          path: item.querySelector('.DocSearch-Hit-path')?.innerHTML ?? '',
          href: item.querySelector('[data-href]')?.getAttribute('data-href') ?? '',
          child: item.classList.contains('DocSearch-Hit--Child'),
        });
      }
    }
    return {hits, selected};
  });
}

/** Types `query` into the box (replacing its text) and waits for the box's answer to it. */
async function askBox(page: Page, query: string): Promise<{hits: Shown[]; selected: number}> {
  await shellInput(page).fill(query);
  await expect(page.locator('.search-shell__dropdown')).toHaveAttribute('data-query', query);
  return shownHits(shell(page));
}

test.describe('before the app has started', () => {
  test.describe.configure({timeout: 60_000});

  test('typed text shows hits; the modal takes over with the same query, hits and selection', async ({page}) => {
    await serveFixtureIndex(page);
    const indexRequests: string[] = [];
    page.context().on('request', (request) => {
      if (LOCAL_INDEX_URL.test(request.url())) indexRequests.push(request.url());
    });
    const release = await openBeforeApp(page);
    await searchButton(page).click();
    await expect(shellInput(page)).toBeFocused();
    await page.keyboard.type('gizmo');
    await expect(page.locator('.search-shell__dropdown')).toHaveAttribute('data-query', 'gizmo');
    // The fixture's 19 "gizmo" hits in 4 groups, at most 5 a group: as the modal lists them.
    const box = await shownHits(shell(page));
    expect(box.hits.length).toBe(5 + 2 + 1 + 5);
    expect([...new Set(box.hits.map((h) => h.group))].sort()).toEqual(['API v1', 'API v2', 'Documentation', 'Reference']);
    expect(box.hits[0]!.title).toMatch(/<mark>gizmo<\/mark>/i);
    expect(box.selected).toBe(0);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect(shell(page).locator('li[aria-selected="true"]')).toHaveAttribute('data-index', '3');
    expect(await isHydrated(page)).toBe('false');

    await release();
    await hydrated(page);
    await expect(searchInput(page)).toBeFocused({timeout: 30_000});
    await expect(searchInput(page)).toHaveValue('gizmo');
    await expect(shell(page)).toHaveCount(0);
    await expect(modal(page)).toHaveCount(1);
    const shown = await shownHits(modal(page));
    expect(shown.hits).toEqual(box.hits);
    expect(shown.selected).toBe(3);
    // The index was downloaded once (by the box's worker): the modal answered from the box's client.
    expect(indexRequests).toEqual([expect.stringMatching(LOCAL_INDEX_URL)]);
  });

  test('Enter opens the selected hit; a click on a hit opens it too', async ({page}) => {
    await serveFixtureIndex(page);
    await openBeforeApp(page);
    await page.keyboard.press('Control+k');
    await page.keyboard.type('gizmo');
    await expect(shell(page).locator('li[aria-selected="true"]')).toHaveAttribute('data-index', '0');
    await page.keyboard.press('ArrowDown');
    const href = await shell(page).locator('li[aria-selected="true"] [data-href]').getAttribute('data-href');
    expect(href).toBe('/docs/v2/batteries#gizmo-1');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/docs\/v2\/batteries#gizmo-1$/);
    await expect(page.getByRole('heading', {level: 1})).toBeVisible();
    await expect(shell(page)).toHaveCount(0);

    await openBeforeApp(page);
    await page.keyboard.press('Control+k');
    await page.keyboard.type('needle');
    await shell(page).locator('li.DocSearch-Hit a').first().click();
    await expect(page).toHaveURL(/\/docs\/getting-started#long$/);
  });

  test('the box and the modal show the same hits for the same queries (the built index)', async ({page}) => {
    const queries = ['measurement', 'power', 'token', 'batt', 'wifi strength', 'websocket', 'p1 meter', 'gas', 'zzzqqq'];
    const release = await openBeforeApp(page, '/docs/v2/measurement');
    await searchButton(page).click();
    const inBox: Record<string, Shown[]> = {};
    for (const query of queries) inBox[query] = (await askBox(page, query)).hits;
    expect(inBox.measurement!.length).toBeGreaterThan(3);
    expect(inBox.zzzqqq).toEqual([]);
    await expect(shell(page).locator('.DocSearch-NoResults')).toContainText('zzzqqq');

    await release();
    await hydrated(page);
    await expect(searchInput(page)).toHaveValue('zzzqqq', {timeout: 30_000});
    await expect(shell(page)).toHaveCount(0);
    for (const query of queries) {
      await searchInput(page).fill(query);
      await expect.poll(async () => (await shownHits(modal(page))).hits, {message: `the modal's hits for "${query}"`}).toEqual(inBox[query]);
    }
  });

  test('a failed index download shows the modal error screen texts, never a blank box', async ({page}) => {
    await page.route(LOCAL_INDEX_URL, (route) => route.abort('failed'));
    await openBeforeApp(page);
    await searchButton(page).click();
    await page.keyboard.type('gizmo');
    const error = shell(page).locator('.DocSearch-ErrorScreen');
    await expect(error).toContainText('Unable to fetch results');
    await expect(error).toContainText('You might want to check your network connection.');
  });

  test('a slow index download shows the loading text, then the error screen texts, then the hits', async ({page}) => {
    let held: Route | undefined;
    await page.route(LOCAL_INDEX_URL, (route) => {
      held = route;
    });
    await openBeforeApp(page);
    await searchButton(page).click();
    await expect(shell(page).getByRole('status')).toHaveText('Loading search…');
    await page.keyboard.type('gizmo');
    await expect(shell(page).getByRole('status')).toHaveText('Loading search…');
    // Still downloading after 6 s: the reader is told, as the modal tells a failed download.
    await expect(shell(page).locator('.DocSearch-ErrorScreen')).toContainText('Unable to fetch results', {timeout: 10_000});
    await expect.poll(() => held !== undefined).toBe(true);
    await held!.fulfill({status: 200, contentType: 'application/json', body: JSON.stringify(fixtureIndex())});
    await expect(shell(page).locator('li.DocSearch-Hit').first()).toBeVisible();
    await expect(shell(page).locator('.DocSearch-ErrorScreen')).toHaveCount(0);
  });

  for (const theme of ['light', 'dark'] as const) {
    test(`the box with hits passes axe, every rule (${theme}); its options hold no link, as the modal's`, async ({page}) => {
      await serveFixtureIndex(page);
      await openBeforeApp(page);
      await page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), theme);
      await page.keyboard.press('Control+k');
      await page.keyboard.type('gizmo');
      await expect(shell(page).locator('li[aria-selected="true"] mark').first()).toBeVisible();
      // nested-interactive included: an option's content is no link (the hit opens by a click on it).
      await expect(shell(page).locator('li[role=option] a[href]')).toHaveCount(0);
      const results = await new AxeBuilder({page}).include('.search-shell').analyze();
      expect(results.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.failureSummary}`))).toEqual([]);
    });
  }
});
