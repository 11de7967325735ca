import {test, expect, type Page} from '@playwright/test';
import {existsSync} from 'node:fs';
import path from 'node:path';
import {holdApp, hydrated} from './shell-routes';

const REPO_EDIT = 'https://github.com/homewizard-api-docs/homewizard-api-docs/edit/main/site/docs/';

test('"Skip to main content" is the first stop and moves focus to the main content', async ({page}) => {
  await page.goto('/docs/v1/measurement');
  await hydrated(page);
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', {name: 'Skip to main content'});
  await expect(skip).toBeFocused();
  await page.keyboard.press('Enter');
  const focusedTag = await page.evaluate(() => document.activeElement?.tagName.toLowerCase());
  expect(focusedTag).toBe('main');
  // The next Tab lands inside the main content, not in the navbar.
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => Boolean(document.activeElement?.closest('main')))).toBe(true);
});

test.describe('colour mode', () => {
  test.use({colorScheme: 'dark'});

  test('defaults to light even when the system prefers dark', async ({page}) => {
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  });

  test('the toggle switches to dark and the choice survives a reload and a new page', async ({page}) => {
    await page.goto('/');
    await hydrated(page);
    const toggle = page.getByRole('button', {name: /Switch between dark and light mode/});
    await expect(toggle).toHaveAccessibleName(/currently light mode/);
    await toggle.click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await page.goto('/docs/introduction');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await hydrated(page);
    await page.getByRole('button', {name: /currently dark mode/}).click();
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  });
});

test.describe('mobile menu', () => {
  test('at 996 px the navbar is a hamburger; a sidebar submenu has "Back to main menu"', async ({page}) => {
    await page.setViewportSize({width: 996, height: 800});
    await page.goto('/docs/v2/measurement');
    await hydrated(page);
    const hamburger = page.getByRole('button', {name: 'Toggle navigation bar'});
    await expect(hamburger).toBeVisible();
    await expect(page.getByRole('navigation', {name: 'Docs sidebar'})).toBeHidden();
    await hamburger.click();
    const menu = page.locator('.navbar-sidebar');
    // On a docs page the menu opens on the docs sidebar (the secondary menu).
    const back = menu.getByRole('button', {name: /Back to main menu/});
    const docsItem = menu.locator('.menu__link--active', {hasText: 'Measurement'});
    const companyLink = menu.locator('a[href="https://www.homewizard.com"]');
    await expect(back).toBeInViewport();
    await expect(docsItem).toBeInViewport();
    await expect(companyLink).not.toBeInViewport();
    await back.click();
    // The main menu (the navbar's items) slides in, the docs sidebar out.
    await expect(companyLink).toBeInViewport();
    await expect(docsItem).not.toBeInViewport();
  });

  test('the open menu closes when the viewport becomes wide again', async ({page}) => {
    await page.setViewportSize({width: 600, height: 800});
    await page.goto('/');
    await hydrated(page);
    await page.getByRole('button', {name: 'Toggle navigation bar'}).click();
    await expect(page.locator('.navbar-sidebar')).toBeVisible();
    await page.setViewportSize({width: 1280, height: 800});
    await expect(page.locator('.navbar-sidebar')).toBeHidden();
    await expect(page.getByRole('button', {name: 'Toggle navigation bar'})).toBeHidden();
    await page.setViewportSize({width: 600, height: 800});
    // Narrow again: the menu stays closed until the reader opens it.
    await expect(page.locator('.navbar-sidebar')).toBeHidden();
  });

  test('above 996 px there is no hamburger and the docs sidebar shows', async ({page}) => {
    await page.setViewportSize({width: 997, height: 800});
    await page.goto('/docs/v2/measurement');
    await expect(page.getByRole('button', {name: 'Toggle navigation bar'})).toBeHidden();
    await expect(page.getByRole('navigation', {name: 'Docs sidebar'})).toBeVisible();
  });
});

test.describe('code blocks', () => {
  for (const language of ['http', 'json']) {
    test(`${language} code gets syntax token spans`, async ({page}) => {
      await page.goto('/');
      const block = page.locator(`pre.language-${language}`).first();
      await expect(block).toBeVisible();
      // Prism emits one span per token; without the grammar everything is a "plain" token.
      const kinds = await block
        .locator('span.token')
        .evaluateAll((spans) => [...new Set(spans.flatMap((s) => Array.from(s.classList)))]);
      const meaningful = kinds.filter((k) => !['token', 'plain', 'token-line'].includes(k));
      expect(meaningful.length, `token kinds: ${kinds.join(' ')}`).toBeGreaterThan(1);
    });
  }
});

test('a link focused before hydration keeps the focus: hydration moves no element of the page', async ({page}) => {
  // Hold the app's script so that the reader's focus comes first.
  const release = await holdApp(page);
  await page.goto('/docs/introduction', {waitUntil: 'commit'});
  const link = page.locator('footer a', {hasText: 'Changelog'});
  await link.waitFor({state: 'attached'});
  await link.focus();
  await link.evaluate((a) => {
    (a as HTMLElement & {serverNode?: boolean}).serverNode = true;
  });
  await release();
  await hydrated(page);
  await expect(link).toBeFocused();
  expect(await link.evaluate((a) => (a as HTMLElement & {serverNode?: boolean}).serverNode)).toBe(true);
});

test.describe('code blocks load no highlighter on a first visit', () => {
  const tokenColor = (page: Page) =>
    page.locator('pre.language-json .token.property').first().evaluate((e) => getComputedStyle(e).color);

  /** Prism's tokenizer hook name: in any script that carries Prism, and in nothing of ours. */
  const PRISM_MARKER = 'before-tokenize';

  // The docs article kept as the server's markup, the home page's body (hydrated by React) and an
  // article hydrated whole (it holds a diagram).
  for (const route of ['/docs/v2/measurement', '/', '/docs/v2/authorization']) {
    test(`${route}: the page arrives highlighted; hydration keeps the same nodes and loads no Prism`, async ({page}) => {
      const bodies: Promise<string>[] = [];
      // Scripts the page runs (not the links' prefetches, whose bodies the browser may drop), until
      // the page is idle: a script that arrives after that is not read (its body would be read
      // after the test has ended).
      let reading = true;
      page.on('response', (r) => {
        if (reading && r.url().endsWith('.js') && r.request().resourceType() === 'script') bodies.push(r.text());
      });
      // Hold the app's script until the server's code block is marked, so hydration comes after.
      const release = await holdApp(page);
      // Deferred scripts hold back DOMContentLoaded: wait for the parsed block instead.
      await page.goto(route, {waitUntil: 'commit'});
      const block = page.locator('pre[class*="language-"] code').first();
      await block.waitFor({state: 'attached'});
      await block.evaluate((code) => {
        (code as HTMLElement & {serverNode?: boolean}).serverNode = true;
      });
      const before = await block.innerHTML();
      await release();
      await hydrated(page);
      await page.waitForLoadState('networkidle');
      // The same <code> element and lines, untouched: not re-rendered by the browser.
      expect(await block.evaluate((code) => (code as HTMLElement & {serverNode?: boolean}).serverNode)).toBe(true);
      expect(await block.innerHTML()).toBe(before);
      expect(await block.locator('.token:not(.plain)').count()).toBeGreaterThan(0);
      reading = false;
      const scripts = await Promise.all(bodies);
      expect(scripts.length).toBeGreaterThan(1);
      expect(scripts.filter((body) => body.includes(PRISM_MARKER))).toEqual([]);
    });
  }

  test('code colours follow the colour mode', async ({page}) => {
    await page.goto('/docs/v2/measurement');
    await hydrated(page);
    const light = await tokenColor(page);
    await page.getByRole('button', {name: /dark mode|light mode|system mode/i}).click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    const dark = await tokenColor(page);
    expect(dark).not.toBe(light);
    // The colours are the configured Prism themes' (property: oceanicNext dark, lightened for 7:1 contrast in site-config.ts; the light theme has none, so plain).
    expect(dark).toBe('rgb(147, 190, 224)');
    expect(light).toBe('rgb(0, 0, 0)');
  });

  test("after a client-side navigation the new page's code gets highlighted", async ({page}) => {
    await page.goto('/docs/introduction');
    await hydrated(page);
    const prism = page.waitForResponse(async (r) => r.url().endsWith('.js') && (await r.text()).includes(PRISM_MARKER));
    await page.getByRole('navigation', {name: 'Docs sidebar'}).getByRole('link', {name: 'Authorization'}).click();
    await expect(page.getByRole('heading', {level: 1})).toHaveText(/Authorization/);
    await prism;
    const block = page.locator('pre.language-bash').first();
    await expect(block.locator('.token.function, .token.builtin, .token.string').first()).toBeVisible();
  });
});

test.describe('announcement bar', () => {
  const text = (page: Page) => page.getByText('API v2 now covers');
  /** Docusaurus suffixes its storage keys with a per-site namespace: find them by prefix. */
  const storageKey = (page: Page, prefix: string) =>
    page.evaluate((p) => Object.keys(localStorage).find((k) => k.startsWith(p)) ?? '', prefix);

  test('can be dismissed, the dismissal is stored and survives a reload', async ({page}) => {
    await page.goto('/');
    await hydrated(page);
    await expect(text(page)).toBeVisible();
    await page.getByRole('button', {name: 'Close'}).click();
    await expect(text(page)).toBeHidden();
    await expect.poll(() => storageKey(page, 'docusaurus.announcement.dismiss')).not.toBe('');
    const dismissKey = await storageKey(page, 'docusaurus.announcement.dismiss');
    expect(await page.evaluate((k) => localStorage.getItem(k), dismissKey)).toBe('true');
    await page.reload();
    await hydrated(page);
    await expect(text(page)).toBeHidden();
    await page.goto('/docs/introduction');
    await expect(text(page)).toBeHidden();
  });

  test('shows again when its id changes (a dismissal of an older bar is stored)', async ({page}) => {
    await page.goto('/');
    await hydrated(page);
    // The bar's provider writes its keys in an effect after hydration: wait for them.
    await expect.poll(() => storageKey(page, 'docusaurus.announcement.id')).not.toBe('');
    await expect.poll(() => storageKey(page, 'docusaurus.announcement.dismiss')).not.toBe('');
    const idKey = await storageKey(page, 'docusaurus.announcement.id');
    const dismissKey = await storageKey(page, 'docusaurus.announcement.dismiss');
    // A reader who dismissed an earlier announcement.
    await page.evaluate(
      ([i, d]) => {
        localStorage.setItem(i, 'an-older-announcement');
        localStorage.setItem(d, 'true');
      },
      [idKey, dismissKey],
    );
    await page.reload();
    await hydrated(page);
    await expect(text(page)).toBeVisible();
    expect(await page.evaluate((k) => localStorage.getItem(k), dismissKey)).toBe('false');
    expect(await page.evaluate((k) => localStorage.getItem(k), idKey)).toBe('api-v2-batteries-2026');
  });
});

test('footer has the groups Docs, Community and About us with their links', async ({page}) => {
  await page.goto('/');
  const footer = page.getByRole('contentinfo');
  const group = (title: string) => footer.locator('.footer__col').filter({has: page.getByText(title, {exact: true})});
  await expect(group('Docs').getByRole('link', {name: 'Introduction'})).toHaveAttribute('href', '/docs/introduction');
  await expect(group('Docs').getByRole('link', {name: 'Changelog'})).toHaveAttribute('href', '/docs/changelog');
  await expect(group('Docs').getByRole('link', {name: /Source repository/})).toHaveAttribute(
    'href',
    /^https:\/\/github\.com\//,
  );
  const social = group('Community').getByRole('link');
  expect(await social.count()).toBeGreaterThanOrEqual(2);
  for (const href of await social.evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''))) {
    expect(href).toMatch(/^https:\/\//);
  }
  await expect(group('About us').getByRole('link', {name: /HomeWizard/})).toHaveAttribute(
    'href',
    'https://www.homewizard.com',
  );
  await expect(group('About us').getByRole('link', {name: /Support helpdesk/})).toHaveAttribute(
    'href',
    /helpdesk/,
  );
});

test('the navbar links to the company site on the right', async ({page}) => {
  await page.goto('/');
  const right = page.locator('.navbar__items--right');
  await expect(right.getByRole('link', {name: /HomeWizard/})).toHaveAttribute('href', 'https://www.homewizard.com');
});

test('the keywords meta names the five device families', async ({page}) => {
  await page.goto('/docs/introduction');
  const keywords = (await page.locator('meta[name="keywords"]').getAttribute('content')) ?? '';
  for (const family of ['P1 meter', 'kWh meter', 'plug-in battery', 'water meter', 'energy socket']) {
    expect(keywords).toContain(family);
  }
});

test('edit links point to the main branch of the source repository', async ({page}) => {
  await page.goto('/docs/v2/measurement');
  // The link names the page's real source file in the repository (the v2 pages are MDX).
  const source = 'v2/measurement.mdx';
  expect(existsSync(path.join(__dirname, '..', 'docs', source))).toBe(true);
  await expect(page.getByRole('link', {name: 'Edit this page'})).toHaveAttribute('href', `${REPO_EDIT}${source}`);
});

test('the document is English, left to right, with the site title', async ({page}) => {
  await page.goto('/docs/introduction');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
  await expect(page).toHaveTitle(/HomeWizard Energy API$/);
});

test('the docs sidebar cannot be hidden and its categories stay open', async ({page}) => {
  await page.goto('/docs/v1/measurement');
  await expect(page.getByRole('button', {name: 'Collapse sidebar', exact: true})).toHaveCount(0);
  await expect(page.locator('.theme-doc-sidebar-container')).toBeVisible();
  const sidebar = page.getByRole('navigation', {name: 'Docs sidebar'});
  await expect(sidebar.getByRole('link', {name: 'Authorization'})).toBeVisible();
  await sidebar.getByRole('link', {name: 'Authorization'}).click();
  await expect(page).toHaveURL(/\/docs\/v2\/authorization$/);
  // Opening a page of API v2 does not fold API v1 away.
  await expect(sidebar.getByRole('link', {name: 'Measurement'}).first()).toBeVisible();
});
