/**
 * Work a first visit's hydration no longer does, shown on a phone's CPU (x4 slower, through the
 * DevTools protocol): there React's hydration is sliced across frames, as on a real phone.
 * - The head: react-helmet-async applied, at each frame, the head of the <Head> components met so
 *   far, so the page's own title and tags were removed and added back while it hydrated
 *   (patches/react-helmet-async).
 */
import {test, expect, type Page} from '@playwright/test';
import {hydrated} from './shell-routes';

async function slowCpu(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', {rate: 4});
}

/** Records, from the start of the page, what happens to the head's title and its page tags. */
const RECORD_HEAD = `(() => {
  const seen = {titles: [], removed: []};
  window.__head = seen;
  new MutationObserver((records) => {
    if (document.title && seen.titles[seen.titles.length - 1] !== document.title) seen.titles.push(document.title);
    for (const record of records) {
      for (const node of record.removedNodes) {
        if (node.nodeType === 1 && node.parentNode === null && node.matches('link[rel=canonical], meta[name=description], meta[property="og:title"]')) {
          seen.removed.push(node.outerHTML);
        }
      }
    }
  }).observe(document, {subtree: true, childList: true, characterData: true});
})();`;

test.describe('a first visit on a phone', () => {
  test.use({viewport: {width: 412, height: 823}});

  test("keeps the page's title and head tags in place while it hydrates", async ({page}) => {
    await slowCpu(page);
    await page.addInitScript(RECORD_HEAD);
    await page.goto('/docs/v2/measurement');
    await hydrated(page);
    const head = await page.evaluate(() => (window as Window & {__head?: {titles: string[]; removed: string[]}}).__head!);
    expect(head.titles).toEqual(['Measurement | HomeWizard Energy API']);
    expect(head.removed).toEqual([]);
    await expect(page.locator('link[rel=canonical]')).toHaveCount(1);
    await expect(page.locator('meta[name=description]')).toHaveCount(1);
  });
});
