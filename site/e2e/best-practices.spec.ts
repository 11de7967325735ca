/**
 * Every page in light mode at a desktop's width, loaded once for all these checks: it hydrates
 * without a mismatch (page-visit.ts, hydration-report.ts; the other modes and widths are in
 * hydration.spec.ts), logs no console error, requests nothing from another host and no web font,
 * and its images have an alt and a size. The page is scrolled to its end first, so that what loads
 * on the way counts too.
 */
import {test, expect} from '@playwright/test';
import {HYDRATION_WATCH} from './hydration-report';
import {NOT_FOUND, WIDTHS, serveChanged, textMismatch, visit} from './page-visit';
import {SPEC_ROUTES} from './shell-routes';

for (const route of [...SPEC_ROUTES, NOT_FOUND]) {
  test(`${route}: hydrates without a mismatch; no console error, no request to another host, no web font, sized images with alt`, async ({page}) => {
    await page.setViewportSize(WIDTHS.desktop);
    await page.addInitScript(HYDRATION_WATCH);
    // HYDRATION_MISMATCH=<route>: this route's server HTML made to differ, to see the check fail.
    const prepare = process.env.HYDRATION_MISMATCH === route ? () => serveChanged(page, route, textMismatch) : undefined;
    const seen = await visit(page, route, {toEnd: true, prepare});
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
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
  });
}
