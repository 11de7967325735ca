/**
 * The browser every test gets (site/chrome.cjs through playwright.config.ts): Chromium keeps only
 * the last `--disable-features` of its command line, so the one chrome.cjs passes must hold every
 * feature Playwright switches off in its own (this fails when an upgrade of Playwright adds one);
 * and the address bar's popup, which Chromium builds in a renderer of its own for every window
 * Playwright opens, must not be built (this fails when an upgrade of Chromium renames its features);
 * and site isolation, which chrome.cjs's TEST_ARGS switch off, must be off.
 */
import {test, expect} from '@playwright/test';
import {OMNIBOX_POPUP_FEATURES} from '../chrome.cjs';

/** The feature lists of every `--disable-features` switch on the browser's command line, in order. */
async function disabledFeatureLists(page: import('@playwright/test').Page): Promise<string[][]> {
  await page.goto('chrome://version');
  const commandLine = (await page.locator('#command_line').textContent()) ?? '';
  return commandLine
    .split(/\s+/)
    .filter((arg) => arg.startsWith('--disable-features='))
    .map((arg) => arg.slice('--disable-features='.length).split(','));
}

test('the last --disable-features keeps every feature Playwright switches off', async ({page}) => {
  const lists = await disabledFeatureLists(page);
  // Playwright's own, then chrome.cjs's: if there were one, Playwright's would be all that applies.
  expect(lists.length).toBeGreaterThanOrEqual(2);
  const effective = new Set(lists.at(-1));
  const dropped = lists.slice(0, -1).flat().filter((feature) => !effective.has(feature));
  expect(dropped, 'features Playwright disables that site/chrome.cjs no longer repeats').toEqual([]);
  expect([...effective]).toEqual(expect.arrayContaining(OMNIBOX_POPUP_FEATURES));
});

test("no window builds the address bar's popup", async ({browser}) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.setContent('<p>a page in a window of its own</p>');
  const session = await browser.newBrowserCDPSession();
  const {targetInfos} = (await session.send('Target.getTargets', {filter: [{}]})) as {targetInfos: {type: string; url: string}[]};
  expect(targetInfos.some((target) => target.url.includes('about:blank') || target.type === 'page')).toBe(true);
  expect(targetInfos.filter((target) => target.url.startsWith('chrome://omnibox-popup')).map((target) => target.url)).toEqual([]);
  await session.detach();
  await context.close();
});

test('site isolation is off in the browser the tests get', async ({page}) => {
  // chrome://process-internals states the browser's process model on its Site Isolation tab.
  await page.goto('chrome://process-internals/#site-isolation');
  await expect(page.getByText(/^Site Isolation mode:/)).toHaveText('Site Isolation mode: Disabled');
});
