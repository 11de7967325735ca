/**
 * How soon a page answers a reader on a slow phone, measured in Debian's Chromium with
 * Lighthouse's mobile throttling applied through the DevTools protocol (150 ms RTT, 1.6 Mbit/s
 * down, 750 kbit/s up, CPU ×4), on a fresh profile (cold cache) per load.
 *
 * Per load, from the navigation's start:
 * - paint: first contentful paint;
 * - hydrated: React has hydrated (`data-has-hydrated="true"` on <html>);
 * - search usable: a reader clicks the search button every 100 ms from the first paint until a
 *   search input ("Search docs") has focus; the figure is the time from the paint to that focus;
 * - lost clicks: clicks of that reader that reached the page before the search box showed,
 *   minus the one that opened it (clicks with no visible answer).
 *
 * Clicks go through the DevTools protocol (Input.dispatchMouseEvent): one every 100 ms, or as
 * soon as the browser has taken the previous one when the page kept it waiting longer.
 */
import {chromium, type Browser, type CDPSession, type Page} from '@playwright/test';
import {CHROME_ARGS, CHROME_PATH} from 'site/chrome';

export interface LoadFigures {
  paintMs: number;
  hydratedMs: number;
  /** First paint → a focused search input, for a reader clicking every 100 ms from the paint. */
  searchUsableMs: number;
  lostClicks: number;
}

/** Lighthouse's mobile settings (lighthouse/core/config/constants.js, `mobileSlow4G`). */
export const MOBILE_THROTTLING = {
  latencyMs: 150,
  downloadKbps: 1638.4,
  uploadKbps: 750,
  cpuSlowdown: 4,
} as const;

const CLICK_INTERVAL_MS = 100;
const GIVE_UP_MS = 30_000;

interface PageTimes {
  paint: number | null;
  hydrated: number | null;
  searchFocus: number | null;
  searchShown: number | null;
  clicks: number[];
}

/**
 * Runs in the page before its own scripts: records the moments the figures are made of. A string,
 * not a function: tsx would wrap a function's inner functions in its own naming helper, which
 * does not exist in the page.
 */
const RECORD_TIMES = `(() => {
  const times = {paint: null, hydrated: null, searchFocus: null, searchShown: null, clicks: []};
  window.__times = times;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.name === 'first-contentful-paint' && times.paint === null) times.paint = entry.startTime;
    }
  }).observe({type: 'paint', buffered: true});
  // Focus is read from document.activeElement: a headless page without window focus fires no focusin.
  const checkFocus = () => {
    const el = document.activeElement;
    if (times.searchFocus === null && el instanceof HTMLInputElement && el.placeholder === 'Search docs') {
      times.searchFocus = performance.now();
    }
  };
  new MutationObserver(() => {
    if (times.hydrated === null && document.documentElement.getAttribute('data-has-hydrated') === 'true') {
      times.hydrated = performance.now();
    }
    if (times.searchShown === null && document.querySelector('.search-shell, .DocSearch-Modal')) {
      times.searchShown = performance.now();
    }
    checkFocus();
  }).observe(document, {subtree: true, childList: true, attributes: true, attributeFilter: ['data-has-hydrated']});
  document.addEventListener('focusin', checkFocus, true);
  window.addEventListener('click', () => times.clicks.push(performance.now()), true);
  // After the page's own click handlers.
  window.addEventListener('click', checkFocus);
})();`;

/** Lighthouse's mobile network and CPU on a page, through the DevTools protocol. */
export async function throttle(cdp: CDPSession): Promise<void> {
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: MOBILE_THROTTLING.latencyMs,
    downloadThroughput: (MOBILE_THROTTLING.downloadKbps * 1024) / 8,
    uploadThroughput: (MOBILE_THROTTLING.uploadKbps * 1024) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', {rate: MOBILE_THROTTLING.cpuSlowdown});
}

const readTimes = (page: Page) => page.evaluate(() => (window as unknown as {__times: PageTimes}).__times);

async function until(page: Page, done: (t: PageTimes) => boolean, what: string): Promise<PageTimes> {
  const start = Date.now();
  for (;;) {
    const times = await readTimes(page).catch(() => null);
    if (times && done(times)) return times;
    if (Date.now() - start > GIVE_UP_MS) {
      throw new Error(`${what} did not happen within ${GIVE_UP_MS / 1000} s (page times: ${JSON.stringify(times)})`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Where the search button is, from an unthrottled load: the reader's taps need no lookup. */
async function searchButtonCentre(browser: Browser, url: string): Promise<{x: number; y: number}> {
  const context = await browser.newContext({viewport: VIEWPORT});
  try {
    const page = await context.newPage();
    await page.goto(url);
    const box = await page.locator('.DocSearch-Button').first().boundingBox();
    if (!box) throw new Error(`${url}: no visible search button`);
    return {x: box.x + box.width / 2, y: box.y + box.height / 2};
  } finally {
    await context.close();
  }
}

/** A mid-range phone's screen. */
const VIEWPORT = {width: 412, height: 823};

async function oneLoad(browser: Browser, url: string, {x, y}: {x: number; y: number}): Promise<LoadFigures> {
  // A fresh context is a cold cache.
  const context = await browser.newContext({viewport: VIEWPORT});
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await throttle(cdp);
    await page.addInitScript(RECORD_TIMES);
    // The browser reports the first paint as a lifecycle event, without waiting for the page's
    // main thread (a script evaluated in the page would wait behind its long tasks).
    await cdp.send('Page.enable');
    await cdp.send('Page.setLifecycleEventsEnabled', {enabled: true});
    const painted = new Promise<void>((resolve) => {
      cdp.on('Page.lifecycleEvent', (event: {name: string}) => {
        if (event.name === 'firstContentfulPaint') resolve();
      });
    });
    await page.goto(url, {waitUntil: 'commit'});
    await painted;
    let stop = false;
    const reader = (async () => {
      while (!stop) {
        const next = Date.now() + CLICK_INTERVAL_MS;
        await cdp.send('Input.dispatchMouseEvent', {type: 'mousePressed', x, y, button: 'left', clickCount: 1});
        await cdp.send('Input.dispatchMouseEvent', {type: 'mouseReleased', x, y, button: 'left', clickCount: 1});
        await new Promise((r) => setTimeout(r, Math.max(0, next - Date.now())));
      }
    })().catch(() => {});
    let times: PageTimes;
    try {
      times = await until(page, (t) => t.searchFocus !== null, 'a focused search input');
    } finally {
      stop = true;
      await reader;
    }
    times = await until(page, (t) => t.hydrated !== null, 'hydration');
    const shown = times.searchShown ?? times.searchFocus!;
    return {
      paintMs: times.paint!,
      hydratedMs: times.hydrated!,
      searchUsableMs: times.searchFocus! - times.paint!,
      lostClicks: Math.max(0, times.clicks.filter((t) => t <= shown).length - 1),
    };
  } finally {
    await context.close();
  }
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export interface MedianFigures extends LoadFigures {
  runs: number;
  maxLostClicks: number;
}

/** Median of each figure over `runs` throttled loads of `url`. */
export async function measureInteractivity(
  url: string,
  runs: number,
  log: (line: string) => void = () => {},
): Promise<MedianFigures> {
  const browser = await chromium.launch({executablePath: CHROME_PATH, args: CHROME_ARGS});
  try {
    const centre = await searchButtonCentre(browser, url);
    const all: LoadFigures[] = [];
    for (let i = 0; i < runs; i++) {
      const figures = await oneLoad(browser, url, centre);
      log(
        `  ${new URL(url).pathname} load ${i + 1}/${runs}: paint ${Math.round(figures.paintMs)} ms, hydrated ${Math.round(figures.hydratedMs)} ms, ` +
          `search usable ${Math.round(figures.searchUsableMs)} ms after paint, ${figures.lostClicks} lost click(s)`,
      );
      all.push(figures);
    }
    const pick = (f: (r: LoadFigures) => number) => median(all.map(f));
    return {
      runs,
      paintMs: pick((r) => r.paintMs),
      hydratedMs: pick((r) => r.hydratedMs),
      searchUsableMs: pick((r) => r.searchUsableMs),
      lostClicks: pick((r) => r.lostClicks),
      maxLostClicks: Math.max(...all.map((r) => r.lostClicks)),
    };
  } finally {
    await browser.close();
  }
}
