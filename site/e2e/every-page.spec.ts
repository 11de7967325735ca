/**
 * Every page of the spec's table and the not-found page, loaded once for every check that reads
 * a page, by a reader on a phone who chose dark mode (hydration.spec.ts crosses the other colour
 * modes and widths with one page of each kind):
 * - it hydrates without a mismatch (page-visit.ts, hydration-report.ts);
 * - no console error or uncaught exception, no request to another host, no web font, images with
 *   an alt and a size (the page scrolled to its end first, so that what loads on the way counts);
 * - then, the window widened to a desktop's, axe finds no violation with every rule (axe.ts), in
 *   dark mode and, after the navbar's toggle, in light mode.
 * /docs forwards to the introduction once the app runs: its own page, the one readers without
 * JavaScript get, is checked by axe in a11y.spec.ts.
 */
import {test as base, expect} from '@playwright/test';
import {diagramsDrawn, settle, toggleTo, violations} from './axe';
import {HYDRATION_WATCH} from './hydration-report';
import {NOT_FOUND, WIDTHS, darkChoice, visit, type Stored} from './page-visit';
import {SPEC_ROUTES} from './shell-routes';

/** The dark-mode choice is made once per worker (a page of its own) and stored in each test's context. */
const test = base.extend<object, {darkStored: Stored}>({
  darkStored: [async ({browser}, use, worker) => use(await darkChoice(browser, worker.project.use.baseURL)), {scope: 'worker'}],
});

/** A route whose page is another's once the app runs. */
const FORWARDS = ['/docs'];

test.describe('every page, loaded once', () => {
  // axe walks every node of long reference pages twice (dark and light): allow it the time.
  test.describe.configure({timeout: 180_000});
  test.use({viewport: WIDTHS.phone, storageState: async ({darkStored}, use) => use(darkStored)});

  for (const route of [...SPEC_ROUTES, NOT_FOUND]) {
    test(`${route}: hydrates without a mismatch (dark mode, a phone's width); no console error, no request to another host, no web font, sized images with alt; axe in dark and light mode`, async ({
      page,
    }) => {
      await page.addInitScript(HYDRATION_WATCH);
      const seen = await visit(page, route, {toEnd: true});
      await expect(page.locator('html'), "the reader's stored choice").toHaveAttribute('data-theme', 'dark');
      expect(seen.findings.map((f) => f.summary), 'hydration, console errors and uncaught exceptions').toEqual([]);
      expect(seen.foreignRequests, 'requests to other hosts').toEqual([]);
      expect(seen.fonts, 'web fonts').toEqual([]);
      const images = await page.locator('img').evaluateAll((imgs) =>
        imgs.map((img) => ({
          src: img.getAttribute('src'),
          alt: img.getAttribute('alt'),
          width: img.getAttribute('width'),
          height: img.getAttribute('height'),
        })),
      );
      expect(images.length, 'the navbar logo at least').toBeGreaterThan(0);
      for (const img of images) {
        expect(img.alt, `alt of ${img.src}`).not.toBeNull();
        expect(Number(img.width), `width of ${img.src}`).toBeGreaterThan(0);
        expect(Number(img.height), `height of ${img.src}`).toBeGreaterThan(0);
      }
      if (FORWARDS.includes(route)) return;
      // axe reads the page at a desktop's width (sidebar and table of contents drawn beside the
      // text), as it opens: scrolled to its end, a tall table of contents slides under the sticky
      // navbar, whose buttons then count as the links' neighbours. The widened window's render
      // is committed by the time the browser is next idle.
      await page.setViewportSize(WIDTHS.desktop);
      await page.evaluate(() => {
        window.scrollTo(0, 0);
        return new Promise((resolve) => requestAnimationFrame(() => requestIdleCallback(resolve, {timeout: 5000})));
      });
      if (route.startsWith('/docs/')) await expect(page.locator('.theme-doc-sidebar-menu'), "the desktop's sidebar").toBeVisible();
      await settle(page, 'dark');
      await diagramsDrawn(page, route);
      expect(await violations(page), 'dark mode').toEqual([]);
      await toggleTo(page, 'light');
      expect(await violations(page), 'light mode').toEqual([]);
    });
  }
});
