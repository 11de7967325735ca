/**
 * Nothing is dead after the first paint (issue 15), on a throttled phone: Lighthouse's mobile
 * network (150 ms RTT, 1.6 Mbit/s) and a 4× slower CPU, applied through the DevTools protocol.
 *
 * "Before hydration" is not left to timing: the app's main script is held back until the test
 * lets it through, so every step before that runs on the server's HTML and the inline search
 * shell alone, however fast or loaded the machine is. After that the tests wait for states.
 */
import {test, expect, type Page} from '@playwright/test';
import {hydrated} from './shell-routes';
import {holdScripts, isHydrated, modal, openBeforeApp, searchButton, searchInput, serveFixtureIndex} from './search-fixtures';

const shell = (page: Page) => page.locator('.search-shell');
const shellInput = (page: Page) => page.locator('.search-shell input');
async function throttle(page: Page, cpuSlowdown = 4): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 150,
    downloadThroughput: (1.6 * 1024 * 1024) / 8,
    uploadThroughput: (750 * 1024) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', {rate: cpuSlowdown});
}

/** The page as a reader sees it at its first paint: HTML and styles, no app. */
async function openThrottledBeforeApp(page: Page, path = '/docs/introduction'): Promise<() => Promise<void>> {
  await serveFixtureIndex(page);
  await throttle(page);
  return openBeforeApp(page, path);
}

test.describe('before the app has started', () => {
  // Throttled loads of a 4× slower page: allow them the time, wait for states.
  test.describe.configure({timeout: 90_000});

  test('a click on the search button opens the search box at once; what is typed reaches the modal; one modal', async ({
    page,
  }) => {
    const release = await openThrottledBeforeApp(page);
    await searchButton(page).click();
    await expect(shellInput(page)).toBeFocused();
    await expect(shellInput(page)).toHaveAttribute('placeholder', 'Search docs');
    await page.keyboard.type('giz');
    expect(await isHydrated(page)).toBe('false');

    await release();
    // Keys typed while the app and the modal's code arrive are kept, in order.
    await page.keyboard.type('mo');
    await hydrated(page);
    await expect(searchInput(page)).toBeFocused({timeout: 30_000});
    await expect(searchInput(page)).toHaveValue('gizmo');
    await expect(page.locator('.DocSearch-Hit').first()).toBeVisible();
    await expect(modal(page)).toHaveCount(1);
    await expect(shell(page)).toHaveCount(0);
    // Typing goes on in the modal, at the caret the shell had.
    await page.keyboard.type('s');
    await expect(searchInput(page)).toHaveValue('gizmos');
  });

  test('Ctrl+K and / open the box; Escape and a click outside close it, focus back on the button', async ({page}) => {
    await openThrottledBeforeApp(page);
    await page.keyboard.press('Control+k');
    await expect(shellInput(page)).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(shell(page)).toHaveCount(0);
    await expect(searchButton(page)).toBeFocused();

    await page.locator('main').click({position: {x: 5, y: 5}});
    await page.keyboard.press('/');
    await expect(shellInput(page)).toBeFocused();
    await expect(shellInput(page)).toHaveValue('');
    await shell(page).click({position: {x: 5, y: 5}});
    await expect(shell(page)).toHaveCount(0);

    // Ctrl+K toggles, as in the modal.
    await page.keyboard.press('Control+k');
    await expect(shellInput(page)).toBeFocused();
    await page.keyboard.press('Control+k');
    await expect(shell(page)).toHaveCount(0);

    // With the search button focused a key starts the query.
    await searchButton(page).focus();
    await page.keyboard.press('g');
    await expect(shellInput(page)).toHaveValue('g');
    expect(await isHydrated(page)).toBe('false');
  });

  test('the query is at most 64 characters, in the box and in the modal', async ({page}) => {
    const release = await openThrottledBeforeApp(page);
    await page.keyboard.press('Control+k');
    await page.keyboard.type('a'.repeat(70));
    await expect(shellInput(page)).toHaveValue('a'.repeat(64));
    await release();
    await expect(searchInput(page)).toBeFocused({timeout: 30_000});
    await expect(searchInput(page)).toHaveValue('a'.repeat(64));
    await expect(searchInput(page)).toHaveAttribute('maxlength', '64');
  });

  test('a box closed before the app starts stays closed when it does', async ({page}) => {
    const release = await openThrottledBeforeApp(page);
    await searchButton(page).click();
    await page.keyboard.type('gizmo');
    await page.keyboard.press('Escape');
    await release();
    await hydrated(page);
    await page.waitForLoadState('networkidle');
    await expect(shell(page)).toHaveCount(0);
    await expect(modal(page)).toHaveCount(0);
    // And the search bar works as usual.
    await searchButton(page).click();
    await expect(searchInput(page)).toBeFocused({timeout: 30_000});
    await expect(searchInput(page)).toHaveValue('');
  });

  test('the colour toggle and the mobile menu are drawn inert until they work; the stored colour mode stays', async ({
    page,
  }) => {
    await page.goto('/docs/introduction');
    await hydrated(page);
    await page.getByRole('button', {name: /Switch between dark and light mode/}).click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    const storedTheme = () => page.evaluate(() => Object.entries(localStorage).filter(([key]) => key.startsWith('theme')));
    const stored = await storedTheme();
    expect(stored).toEqual([[expect.any(String), 'dark']]);

    await page.setViewportSize({width: 390, height: 844});
    // Each value the hydration marker takes, with how the menu button looks at that moment.
    await page.addInitScript(`(() => {
      const seen = [];
      window.__menuLooks = seen;
      new MutationObserver(() => {
        const menu = document.querySelector('.navbar__toggle');
        const html = document.documentElement;
        const marker = html.getAttribute('data-has-hydrated');
        if (menu) seen.push([marker, getComputedStyle(menu).opacity]);
      }).observe(document, {subtree: true, attributes: true, attributeFilter: ['data-has-hydrated']});
    })();`);
    const release = await openThrottledBeforeApp(page);
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    const menu = page.getByRole('button', {name: 'Toggle navigation bar'});
    await expect(menu).toHaveCSS('opacity', '0.5');
    await release();
    await hydrated(page);
    await expect(menu).toHaveCSS('opacity', '1');
    // Inert-looking for as long as the marker is not "true" (React's head manager writes "" first).
    const looks = await page.evaluate(() => (window as Window & {__menuLooks?: [string | null, string][]}).__menuLooks!);
    expect(looks.length).toBeGreaterThan(0);
    for (const [marker, opacity] of looks) expect([marker, opacity]).toEqual([marker, marker === 'true' ? '1' : '0.5']);
    await menu.click();
    await expect(page.locator('.navbar-sidebar')).toBeVisible();
    const toggle = page.locator('.navbar-sidebar').getByRole('button', {name: /Switch between dark and light mode/});
    await expect(toggle).toBeEnabled();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    expect(await storedTheme()).toEqual(stored);
  });
});

test('after hydration, a click while the modal code loads shows the box at once and hands it over', async ({page}) => {
  await serveFixtureIndex(page);
  await page.goto('/docs/introduction');
  await hydrated(page);
  await page.waitForLoadState('networkidle');
  const scripts = await holdScripts(page);
  await searchButton(page).click();
  await expect(shellInput(page)).toBeFocused();
  await page.keyboard.type('gizmo');
  await page.keyboard.press('ArrowLeft');
  await expect(modal(page)).toHaveCount(0);
  await scripts.release();
  await expect(searchInput(page)).toBeFocused();
  await expect(searchInput(page)).toHaveValue('gizmo');
  await expect(shell(page)).toHaveCount(0);
  // The caret came along: the next key lands before the last letter.
  await page.keyboard.type('X');
  await expect(searchInput(page)).toHaveValue('gizmXo');
});

test('Cancel held down while the modal takes over closes the modal too', async ({page}) => {
  // A press on the box's Cancel that the modal's mount splits in two (down on the box, up on the
  // modal) clicks nothing: the press itself has to count.
  await page.setViewportSize({width: 375, height: 740});
  await serveFixtureIndex(page);
  await page.goto('/docs/introduction');
  await hydrated(page);
  await page.waitForLoadState('networkidle');
  const scripts = await holdScripts(page);
  await page.keyboard.press('Control+k');
  await expect(shellInput(page)).toBeFocused();
  const box = await shell(page).getByRole('button', {name: 'Cancel'}).boundingBox();
  if (!box) throw new Error('no Cancel button in the search box');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await scripts.release();
  await expect(shell(page)).toHaveCount(0);
  await page.mouse.up();
  await expect(modal(page)).toHaveCount(0);
  await expect(searchButton(page)).toBeFocused();
});

test('on a slow phone the app downloads while a long page is still being parsed, never before the styles', async ({
  page,
}) => {
  test.setTimeout(120_000);
  // A slow CPU stretches the parsing and layout of the longest page after the styles' arrival:
  // the app's download belongs in that time, not after it.
  await throttle(page, 20);
  await page.goto('/docs/v2/measurement', {waitUntil: 'commit'});
  // The three times are known once the page is parsed and the app and styles have arrived: the
  // test reads them then, without waiting for the app to run on the 20× slower CPU.
  const known = await page.waitForFunction(() => {
    const resource = (pattern: RegExp) =>
      performance.getEntriesByType('resource').find((e) => pattern.test(new URL(e.name).pathname)) as PerformanceResourceTiming | undefined;
    const parsed = (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.domInteractive;
    const styles = resource(/\/assets\/css\/styles\.[0-9a-f]+\.css$/);
    const app = resource(/\/assets\/js\/main\.[0-9a-f]+\.js$/);
    return parsed && styles && app ? {parsed, stylesEnd: styles.responseEnd, appStart: app.startTime} : undefined;
  });
  const times = (await known.jsonValue())!;
  expect(times.appStart, JSON.stringify(times)).toBeGreaterThanOrEqual(times.stylesEnd);
  expect(times.appStart, JSON.stringify(times)).toBeLessThan(times.parsed);
});
