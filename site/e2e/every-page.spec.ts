/**
 * Every page of the spec's table and the not-found page, loaded once (light mode, a desktop's
 * width) for every check that reads a page:
 * - it hydrates without a mismatch (page-visit.ts, hydration-report.ts; dark mode and a phone's
 *   width are in hydration.spec.ts);
 * - no console error or uncaught exception, no request to another host, no web font, images with
 *   an alt and a size (the page scrolled to its end first, so that what loads on the way counts);
 * - axe finds no violation with every rule (axe.ts), in light mode and, after the navbar's toggle,
 *   in dark mode.
 * /docs forwards to the introduction once the app runs: its own page, the one readers without
 * JavaScript get, is checked by axe in a11y.spec.ts.
 */
import {test, expect} from '@playwright/test';
import {diagramsDrawn, settle, toDark, violations} from './axe';
import {HYDRATION_WATCH} from './hydration-report';
import {NOT_FOUND, WIDTHS, visit} from './page-visit';
import {SPEC_ROUTES} from './shell-routes';

/** A route whose page is another's once the app runs. */
const FORWARDS = ['/docs'];

test.describe('every page, loaded once', () => {
  // axe walks every node of long reference pages twice (light and dark): allow it the time.
  test.describe.configure({timeout: 180_000});

  for (const route of [...SPEC_ROUTES, NOT_FOUND]) {
    test(`${route}: hydrates without a mismatch; no console error, no request to another host, no web font, sized images with alt; axe in light and dark mode`, async ({
      page,
    }) => {
      await page.setViewportSize(WIDTHS.desktop);
      await page.addInitScript(HYDRATION_WATCH);
      const seen = await visit(page, route, {toEnd: true});
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
      // axe reads the page as it opens: scrolled to its end, a tall table of contents slides under
      // the sticky navbar, whose buttons then count as the links' neighbours.
      await page.evaluate(() => window.scrollTo(0, 0));
      await settle(page, 'light');
      await diagramsDrawn(page, route);
      expect(await violations(page), 'light mode').toEqual([]);
      await toDark(page);
      expect(await violations(page), 'dark mode').toEqual([]);
    });
  }
});
