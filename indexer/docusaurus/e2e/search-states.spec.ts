/**
 * What a reader meets when search cannot answer, and whether every reader can use it:
 * - the development server (two-locales under `docusaurus start --locale fr`): the modal and
 *   /search say why search is not there and how to get it, in French, with no error overlay;
 * - the index or Algolia unreachable: the modal and /search show DocSearch's error screen's text
 *   in the page's language, nothing uncaught, and search again once the network is back;
 * - axe, every rule, on the open modal with hits and on /search with results, light and dark,
 *   on the classic theme's colours (latest Docusaurus), on a site with its own brand colours
 *   (the oldest Docusaurus served) and on a versioned site (/search's docs-version select).
 */
import {test, expect, type Page} from '@playwright/test';
import {AxeBuilder} from '@axe-core/playwright';
import {readFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import {DEV_SERVER_HOME, NEWEST_DOCSEARCH, OLDEST_DOCSEARCH, algoliaSiteOrigin, devServerOrigin, originOf, type FixtureSite} from './sites.ts';

const require = createRequire(import.meta.url);
const texts = (locale: string) =>
  JSON.parse(readFileSync(require.resolve(`@docusaurus/theme-translations/locales/${locale}/theme-search-algolia.json`), 'utf8')) as Record<string, string>;
const french = texts('fr');
/** English is Docusaurus's default: the messages in the source, no locale file. */
const english: Record<string, string> = {
  'theme.SearchModal.errorScreen.titleText': 'Unable to fetch results',
  'theme.SearchModal.errorScreen.helpText': 'You might want to check your network connection.',
};

/** Uncaught errors in the page, and console errors that are not a failed request's own line. */
function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !/Failed to load resource/.test(message.text())) errors.push(`console: ${message.text()}`);
  });
  return errors;
}

async function hydrated(page: Page): Promise<void> {
  await page.locator('html[data-has-hydrated="true"]').waitFor({state: 'attached', timeout: 30_000});
}

test.describe('the development server', () => {
  const devNotice = /La recherche n’est pas disponible sur le serveur de développement.*docusaurus build.*docusaurus serve/s;

  test('the modal says, in the page’s language, why search is not there and how to get it', async ({page}) => {
    const errors = pageErrors(page);
    await page.goto(`${devServerOrigin()}${DEV_SERVER_HOME}docs/intro`);
    await hydrated(page);
    await page.locator('.DocSearch-Button').click();
    const dialog = page.getByRole('dialog', {name: french['theme.SearchModal.placeholder']});
    await expect(dialog).toContainText(devNotice);
    await expect(page.locator('input.DocSearch-Input')).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(page.locator('#webpack-dev-server-client-overlay')).toHaveCount(0);
    expect(errors).toEqual([]);
  });

  test('/search says the same instead of an error overlay', async ({page}) => {
    const errors = pageErrors(page);
    await page.goto(`${devServerOrigin()}${DEV_SERVER_HOME}search?q=relev%C3%A9s`);
    await hydrated(page);
    await expect(page.locator('main')).toContainText(devNotice);
    // The overlay would come after a failed search; give it the time of one.
    await page.waitForTimeout(1_000);
    await expect(page.locator('#webpack-dev-server-client-overlay')).toHaveCount(0);
    expect(errors).toEqual([]);
  });
});

test.describe('search unreachable', () => {
  test('local index: the French modal and /search show the error screen in French, and answer once it is back', async ({page}) => {
    const errors = pageErrors(page);
    const origin = originOf('two-locales');
    await page.route('**/search/local-index.json*', (route) => route.abort('internetdisconnected'));
    await page.goto(`${origin}/docs-site/fr/docs/intro`);
    await hydrated(page);
    await page.locator('.DocSearch-Button').click();
    const input = page.locator('input.DocSearch-Input');
    await input.fill('relevés');
    await expect(page.locator('.DocSearch-Modal')).toContainText(french['theme.SearchModal.errorScreen.titleText']!);
    await expect(page.locator('.DocSearch-Modal')).toContainText(french['theme.SearchModal.errorScreen.helpText']!);
    await page.unrouteAll({behavior: 'wait'});
    await input.fill('relevé');
    await expect(page.locator('.DocSearch-Hit a[data-href^="/docs-site/fr/docs/readings"]').first()).toBeVisible();
    await expect(page.locator('.DocSearch-Modal')).not.toContainText(french['theme.SearchModal.errorScreen.titleText']!);
    await page.keyboard.press('Escape');

    await page.route('**/search/local-index.json*', (route) => route.abort('internetdisconnected'));
    await page.goto(`${origin}/docs-site/fr/search?q=lectures`);
    await hydrated(page);
    // A fresh page: its own client, so the index is asked for again, and fails.
    await expect(page.locator('main [role=alert]')).toContainText(french['theme.SearchModal.errorScreen.titleText']!);
    await expect(page.locator('main [role=alert]')).toContainText(french['theme.SearchModal.errorScreen.helpText']!);
    await page.unrouteAll({behavior: 'wait'});
    await page.locator('main input[type=search]').fill('relevés');
    await expect(page.locator('main article h2 a[href^="/docs-site/fr/docs/readings"]').first()).toBeVisible();
    await expect(page.locator('main [role=alert]')).toHaveCount(0);
    expect(errors).toEqual([]);
  });

  test('Algolia: the modal and /search show the error screen, nothing uncaught, and search again once it is back', async ({page}) => {
    const errors = pageErrors(page);
    let reachable = false;
    await page.route(/algolia\.net|algolianet\.com/, async (route) => {
      if (!reachable) return route.abort('internetdisconnected');
      const body = JSON.parse(route.request().postData() ?? '{}') as {requests?: {query?: string}[]};
      return route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({
          results: (body.requests ?? []).map((r) => ({hits: [], nbHits: 0, nbPages: 0, page: 0, hitsPerPage: 20, processingTimeMS: 1, query: r.query ?? '', params: '', exhaustiveNbHits: true, facets: {}})),
        }),
      });
    });
    await page.goto(`${algoliaSiteOrigin()}/docs/intro`);
    await hydrated(page);
    await page.locator('.DocSearch-Button').click();
    const input = page.locator('input.DocSearch-Input');
    await input.fill('setup');
    // Algolia's client tries each of its hosts before giving up.
    await expect(page.locator('.DocSearch-Modal')).toContainText(english['theme.SearchModal.errorScreen.titleText']!, {timeout: 20_000});
    reachable = true;
    await input.fill('setu');
    await expect(page.locator('.DocSearch-NoResults')).toBeVisible();
    await expect(page.locator('.DocSearch-Modal')).not.toContainText(english['theme.SearchModal.errorScreen.titleText']!);
    await page.keyboard.press('Escape');

    reachable = false;
    await page.goto(`${algoliaSiteOrigin()}/search?q=setup`);
    await hydrated(page);
    await expect(page.locator('main [role=alert]')).toContainText(english['theme.SearchModal.errorScreen.titleText']!, {timeout: 20_000});
    await expect(page.locator('main [role=alert]')).toContainText(english['theme.SearchModal.errorScreen.helpText']!);
    reachable = true;
    await page.locator('main input[type=search]').fill('setu');
    await expect(page.getByText('No results were found')).toBeVisible();
    await expect(page.locator('main [role=alert]')).toHaveCount(0);
    expect(errors).toEqual([]);
  });
});

/**
 * The theme's two fixes of DocSearch, from outside its package, on the oldest and the newest
 * DocSearch the theme accepts (install.spec.ts checks which one each project holds): the modal's
 * ARIA corrected after each render (modalSemantics.ts) and the error screen shown when the search
 * client fails (searchFailure.tsx, the wrapped search client).
 */
const DOCSEARCH_SITES: {site: FixtureSite; docsearch: string}[] = [
  {site: 'classic-ts', docsearch: NEWEST_DOCSEARCH},
  {site: 'brand', docsearch: OLDEST_DOCSEARCH},
];

for (const {site, docsearch} of DOCSEARCH_SITES) {
  test(`DocSearch ${docsearch} (${site}): the modal is the named dialog with no stray roles, the error screen shows when the index fails, and search answers once it is back`, async ({page}) => {
    const errors = pageErrors(page);
    await page.route('**/search/local-index.json*', (route) => route.abort('internetdisconnected'));
    await page.goto(`${originOf(site)}/docs/intro`);
    await hydrated(page);
    await page.locator('.DocSearch-Button').click();
    const dialog = page.getByRole('dialog', {name: 'Search docs'});
    await expect(dialog).toBeVisible();
    await expect(page.locator('.DocSearch-Modal')).toHaveAttribute('aria-modal', 'true');
    // DocSearch gives the backdrop the combobox's root props and role=button.
    for (const name of ['role', 'aria-expanded', 'aria-haspopup']) await expect(page.locator('.DocSearch-Container')).not.toHaveAttribute(name);
    const input = page.locator('input.DocSearch-Input');
    await input.fill('page');
    await expect(dialog).toContainText(english['theme.SearchModal.errorScreen.titleText']!);
    await expect(dialog).toContainText(english['theme.SearchModal.errorScreen.helpText']!);
    await page.unrouteAll({behavior: 'wait'});
    await input.fill('pages');
    await expect(page.locator('.DocSearch-Hit a[data-href^="/docs/"]').first()).toBeVisible();
    await expect(dialog).not.toContainText(english['theme.SearchModal.errorScreen.titleText']!);
    // No landmarks inside the dialog; aria-controls names only lists that exist, each list its own id.
    for (const part of ['header', 'footer']) await expect(page.locator(`.DocSearch-Modal ${part}`)).toHaveAttribute('role', 'none');
    const dangling = await page
      .locator('.DocSearch-Modal [aria-controls]')
      .evaluateAll((elements) => elements.flatMap((e) => e.getAttribute('aria-controls')!.split(/\s+/)).filter((id) => !document.getElementById(id)));
    expect(dangling).toEqual([]);
    const listIds = await page.locator('.DocSearch-Modal [role=listbox]').evaluateAll((lists) => lists.map((l) => l.id));
    expect(new Set(listIds).size).toBe(listIds.length);
    expect(errors).toEqual([]);
  });
}

/**
 * Every rule of the axe-core that @axe-core/playwright runs: experimental, deprecated and WCAG AAA
 * ones included (color-contrast-enhanced: 7:1), none left off.
 */
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const AXE_RULES = (require('axe-core') as {getRules(): {ruleId: string; tags: string[]}[]}).getRules().map((rule) => rule.ruleId);

/**
 * axe runs in the page itself (legacy mode: one `axe.run`, no second page to merge the frames'
 * partial results; these pages have no frames) and reports violations only (`resultTypes`: the
 * passing nodes come back as one each, not every node of the page): the same violations, less work.
 * `options()` replaces the options object that `withRules()` fills in: it comes first.
 */
async function violations(page: Page, include: string): Promise<string[]> {
  const results = await new AxeBuilder({page, axeSource: AXE_SOURCE})
    .setLegacyMode(true)
    .options({resultTypes: ['violations']})
    .withRules(AXE_RULES)
    .include(include)
    .analyze();
  return results.violations.map(
    (v) => `${v.id}: ${v.help}\n${v.nodes.slice(0, 4).map((n) => `    ${n.target.join(' ')}: ${n.failureSummary?.split('\n').slice(1).join(' ') ?? ''}`).join('\n')}`,
  );
}

const A11Y_SITES: {site: FixtureSite; colours: string; page: string; query: string}[] = [
  {site: 'classic-ts', colours: "the classic theme's colours", page: '/docs/intro', query: 'page'},
  {site: 'brand', colours: 'brand colours of its own', page: '/docs/intro', query: 'page'},
  // Versioned docs: /search has the docs-version select (axe select-name).
  {site: 'versioned-blog', colours: "a versioned site's /search, with its version select", page: '/docs/intro', query: 'setup'},
];

for (const {site, colours, page: path, query} of A11Y_SITES) {
  for (const mode of ['light', 'dark'] as const) {
    test(`axe: the open modal with hits and /search with results pass every rule, ${colours} (${mode})`, async ({page}) => {
      // Three runs of axe with every rule: CPU work that a busy machine (npm test runs this suite beside
      // the site's browser tests) stretches past the default 30 s.
      test.slow();
      // The colour mode, as the navbar's toggle sets it (its storage key differs between versions).
      const setMode = () => page.evaluate((chosen) => document.documentElement.setAttribute('data-theme', chosen), mode);
      await page.goto(`${originOf(site)}${path}`);
      await hydrated(page);
      await setMode();
      await page.locator('.DocSearch-Button').click();
      await page.locator('input.DocSearch-Input').fill(query);
      await expect(page.locator('.DocSearch-Hit mark').first()).toBeVisible();
      await expect(page.locator('.DocSearch-Hit[aria-selected="true"]')).toHaveCount(1);
      expect(await violations(page, '.DocSearch-Container'), 'the modal with hits').toEqual([]);
      // The selected hit moves: the next one's colours too.
      await page.keyboard.press('ArrowDown');
      expect(await violations(page, '.DocSearch-Hit[aria-selected="true"]'), 'the next hit, selected').toEqual([]);
      await page.keyboard.press('Escape');

      await page.goto(`${originOf(site)}/search?q=${query}`);
      await hydrated(page);
      await setMode();
      await expect(page.locator('main article h2 a').first()).toBeVisible();
      expect(await violations(page, 'main'), '/search with results').toEqual([]);
    });
  }
}
