/**
 * How soon a page answers a reader on a slow phone, measured in Debian's Chromium with
 * Lighthouse's mobile throttling applied through the DevTools protocol (150 ms RTT, 1.6 Mbit/s
 * down, 750 kbit/s up, CPU ×4), on a fresh profile (cold cache) per load.
 *
 * Per load, from the navigation's start:
 * - paint: first contentful paint;
 * - hydrated: the app has hydrated the page (`data-has-hydrated="true"` on <html>, which
 *   Docusaurus sets in an effect of its root once React has hydrated it);
 * - search usable: a reader clicks the search button every 100 ms from the first paint until a
 *   search input ("Search docs") has focus; the figure is the time from the paint to that focus;
 * - lost clicks: clicks of that reader that reached the page before the search box showed,
 *   minus the one that opened it (clicks with no visible answer);
 * - first result: once the field has focus the reader types a 7-letter word (SEARCH_WORD), a key
 *   every 80 ms; the time from the paint to the first search hit shown (in the early box or the
 *   modal), and to the first hit shown for the whole word;
 * - lost keys: letters of the word missing from the field once the page has answered (the field
 *   must hold the whole word), and how late the page took the slowest key.
 *
 * Clicks go through the DevTools protocol (Input.dispatchMouseEvent): one every 100 ms, or as
 * soon as the browser has taken the previous one when the page kept it waiting longer (a reader
 * who sees nothing happen taps again). Keys go through the same protocol (Input.dispatchKeyEvent)
 * on their own schedule, as a person types: key i is sent at i × 80 ms after the first, without
 * waiting for the page to have taken key i - 1 (KEYS_HOW says so in the bench's output).
 */
import {chromium, type Browser, type CDPSession, type Page} from '@playwright/test';
import {CHROME_ARGS, CHROME_PATH} from 'site/chrome';
import {rotated} from './lighthouse.ts';

export interface LoadFigures {
  paintMs: number;
  hydratedMs: number;
  /** First paint → a focused search input, for a reader clicking every 100 ms from the paint. */
  searchUsableMs: number;
  lostClicks: number;
  /** First paint → the first hit shown, for a reader who types SEARCH_WORD once the field has focus. */
  firstResultMs: number;
  /** First paint → the first hit shown for the whole of SEARCH_WORD. */
  wordResultMs: number;
  /** From the first key sent to the page taking (keydown) the last one. */
  typingMs: number;
  /** The longest wait of a key between being sent and the page's keydown for it. */
  keyLagMs: number;
  /** Letters of SEARCH_WORD the field did not get (0: the field holds the whole word). */
  lostKeys: number;
}

/** The reader's word: 7 letters, in the docs' words (the v2 batteries page, the measurement fields). */
export const SEARCH_WORD = 'battery';
const KEY_INTERVAL_MS = 80;
/** How the bench sends the reader's keys, for its output. */
export const KEYS_HOW =
  `keys: "${SEARCH_WORD}" sent through the DevTools protocol (Input.dispatchKeyEvent), one every ${KEY_INTERVAL_MS} ms on the reader's own clock, ` +
  'each without waiting for the page to take the one before; taps: one every 100 ms from the first paint until the field has focus, ' +
  'each once the browser has taken the one before';

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
  firstHit: number | null;
  wordHit: number | null;
  clicks: number[];
  /** performance.now() of each keydown the page took. */
  keys: number[];
}

/**
 * Runs in the page before its own scripts: records the moments the figures are made of. A string,
 * not a function: tsx would wrap a function's inner functions in its own naming helper, which
 * does not exist in the page.
 */
const RECORD_TIMES = `(() => {
  const times = {paint: null, hydrated: null, searchFocus: null, searchShown: null, firstHit: null, wordHit: null, clicks: [], keys: []};
  const word = '__SEARCH_WORD__';
  // A hit in the early box or the modal; for the whole word: the box's answer to it, or the modal
  // with the word in its field.
  const checkHits = () => {
    if (times.firstHit === null && document.querySelector('.search-shell .DocSearch-Hit, .DocSearch-Modal .DocSearch-Hit')) {
      times.firstHit = performance.now();
    }
    if (times.wordHit === null) {
      const box = document.querySelector('.search-shell__dropdown[data-query="' + word + '"] .DocSearch-Hit');
      const input = document.querySelector('.DocSearch-Modal input.DocSearch-Input');
      const modal = input && input.value === word && document.querySelector('.DocSearch-Modal .DocSearch-Hit');
      if (box || modal) times.wordHit = performance.now();
    }
  };
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
    const html = document.documentElement;
    if (times.hydrated === null && html.getAttribute('data-has-hydrated') === 'true') {
      times.hydrated = performance.now();
    }
    if (times.searchShown === null && document.querySelector('.search-shell, .DocSearch-Modal')) {
      times.searchShown = performance.now();
    }
    checkFocus();
    checkHits();
  }).observe(document, {subtree: true, childList: true, attributes: true, attributeFilter: ['data-has-hydrated']});
  document.addEventListener('focusin', checkFocus, true);
  window.addEventListener('click', () => times.clicks.push(performance.now()), true);
  window.addEventListener('keydown', () => times.keys.push(performance.now()), true);
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

export const searchFieldFocused = (page: Page) =>
  page
    .evaluate(() => {
      const el = document.activeElement;
      return el instanceof HTMLInputElement && el.placeholder === 'Search docs';
    })
    .catch(() => false);

/** Where the search button is, from an unthrottled load: the reader's taps need no lookup. */
export async function searchButtonCentre(browser: Browser, url: string): Promise<{x: number; y: number}> {
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
export const VIEWPORT = {width: 412, height: 823};

async function oneLoad(browser: Browser, url: string, {x, y}: {x: number; y: number}): Promise<LoadFigures> {
  // A fresh context is a cold cache.
  const context = await browser.newContext({viewport: VIEWPORT});
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await throttle(cdp);
    await page.addInitScript(RECORD_TIMES.replace('__SEARCH_WORD__', SEARCH_WORD));
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
    // A tap that reached the page just after the field opened may have taken the focus from it
    // (DocSearch's modal blurs its input on a press in its result area, where the search button
    // was): the reader taps the field itself, then types at once, into whichever field has the
    // focus (the box hands its text and the keys to come to the modal).
    for (let tries = 0; !(await searchFieldFocused(page)); tries++) {
      if (tries > 10) throw new Error('the search field lost its focus and did not get it back');
      const field = await page.locator('.search-shell input, input.DocSearch-Input').first().boundingBox().catch(() => null);
      const at = field ? {x: field.x + Math.min(40, field.width / 2), y: field.y + field.height / 2} : {x, y};
      await cdp.send('Input.dispatchMouseEvent', {type: 'mousePressed', ...at, button: 'left', clickCount: 1});
      await cdp.send('Input.dispatchMouseEvent', {type: 'mouseReleased', ...at, button: 'left', clickCount: 1});
      const until = Date.now() + 2000;
      while (Date.now() < until && !(await searchFieldFocused(page))) await new Promise((r) => setTimeout(r, 50));
    }
    const sent = await typeOnSchedule(cdp, SEARCH_WORD);
    const timeOrigin = await page.evaluate(() => performance.timeOrigin);
    let lostKeys = 0;
    try {
      times = await until(page, (t) => t.wordHit !== null && t.hydrated !== null, `hits for "${SEARCH_WORD}" and hydration`);
    } catch (error) {
      // A lost key leaves the field without the whole word, whose hits then never show.
      const value = await fieldValue(page);
      if (value === SEARCH_WORD) throw error;
      lostKeys = lettersMissing(SEARCH_WORD, value);
      times = await until(page, (t) => t.hydrated !== null, 'hydration');
      times.wordHit ??= NaN;
      times.firstHit ??= NaN;
    }
    const value = await fieldValue(page);
    if (!lostKeys && value !== SEARCH_WORD) lostKeys = lettersMissing(SEARCH_WORD, value);
    // The page's keydowns are on its own clock: performance.timeOrigin puts them on the epoch's.
    const taken = times.keys.slice(-SEARCH_WORD.length).map((t) => timeOrigin + t);
    const keyLagMs = Math.max(0, ...taken.map((t, i) => t - (sent[i] ?? t)));
    const typingMs = (taken.at(-1) ?? NaN) - sent[0]!;
    const shown = times.searchShown ?? times.searchFocus!;
    return {
      paintMs: times.paint!,
      hydratedMs: times.hydrated!,
      searchUsableMs: times.searchFocus! - times.paint!,
      lostClicks: Math.max(0, times.clicks.filter((t) => t <= shown).length - 1),
      firstResultMs: times.firstHit! - times.paint!,
      wordResultMs: times.wordHit! - times.paint!,
      typingMs,
      keyLagMs,
      lostKeys,
    };
  } finally {
    await context.close();
  }
}

/** The text of the focused search field (the early box's or the modal's). */
const fieldValue = (page: Page) =>
  page
    .evaluate(() => {
      const el = document.activeElement;
      const field = el instanceof HTMLInputElement ? el : document.querySelector<HTMLInputElement>('input.DocSearch-Input, .search-shell input');
      return field?.value ?? '';
    })
    .catch(() => '');

/** How many letters of `word` are not in `value`, in order (a key lost anywhere counts once). */
function lettersMissing(word: string, value: string): number {
  let j = 0;
  for (const c of value) if (c === word[j]) j++;
  return word.length - j;
}

/** What Input.dispatchKeyEvent needs for a lower-case letter. */
function keyEvent(type: 'keyDown' | 'keyUp', letter: string) {
  const code = letter.toUpperCase().charCodeAt(0);
  return {
    type,
    key: letter,
    code: `Key${letter.toUpperCase()}`,
    windowsVirtualKeyCode: code,
    nativeVirtualKeyCode: code,
    ...(type === 'keyDown' ? {text: letter, unmodifiedText: letter} : {}),
  };
}

/**
 * Types `word` as a person does: key i at i × KEY_INTERVAL_MS after the first, by the reader's
 * clock, whether or not the page has taken the keys before it (the protocol's replies are only
 * awaited at the end). Returns when each key was sent (epoch ms).
 */
async function typeOnSchedule(cdp: CDPSession, word: string): Promise<number[]> {
  const start = Date.now();
  const sent: number[] = [];
  const replies: Promise<unknown>[] = [];
  for (const [i, letter] of [...word].entries()) {
    const wait = start + i * KEY_INTERVAL_MS - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    sent.push(Date.now());
    replies.push(cdp.send('Input.dispatchKeyEvent', keyEvent('keyDown', letter)));
    replies.push(cdp.send('Input.dispatchKeyEvent', keyEvent('keyUp', letter)));
  }
  await Promise.all(replies);
  return sent;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export interface MedianFigures extends LoadFigures {
  runs: number;
  maxLostClicks: number;
  maxLostKeys: number;
}

const FIGURES = ['paintMs', 'hydratedMs', 'searchUsableMs', 'lostClicks', 'firstResultMs', 'wordResultMs', 'typingMs', 'keyLagMs', 'lostKeys'] as const;

function medians(all: LoadFigures[]): MedianFigures {
  const out = {
    runs: all.length,
    maxLostClicks: Math.max(...all.map((r) => r.lostClicks)),
    maxLostKeys: Math.max(...all.map((r) => r.lostKeys)),
  } as MedianFigures;
  for (const key of FIGURES) out[key] = median(all.map((r) => r[key]));
  return out;
}

/**
 * Median of each figure over `runs` throttled loads of each URL (one per build), interleaved:
 * load i of every build before load i + 1 of any, so a busy moment of the machine falls on all.
 */
export async function measureInteractivity(
  urls: Record<string, string>,
  runs: number,
  log: (line: string) => void = () => {},
): Promise<Record<string, MedianFigures>> {
  const browser = await chromium.launch({executablePath: CHROME_PATH, args: CHROME_ARGS});
  try {
    const names = Object.keys(urls);
    const centres = new Map<string, {x: number; y: number}>();
    for (const name of names) centres.set(name, await searchButtonCentre(browser, urls[name]!));
    const all = new Map<string, LoadFigures[]>(names.map((name) => [name, []]));
    for (let i = 0; i < runs; i++) {
      for (const name of names) {
        const url = urls[name]!;
        const f = await oneLoad(browser, url, centres.get(name)!);
        log(
          `  ${name} ${new URL(url).pathname} load ${i + 1}/${runs}: paint ${Math.round(f.paintMs)} ms, hydrated ${Math.round(f.hydratedMs)} ms, ` +
            `focused field ${Math.round(f.searchUsableMs)} ms after paint, ${f.lostClicks} lost click(s), first result ${Math.round(f.firstResultMs)} ms, ` +
            `"${SEARCH_WORD}" answered ${Math.round(f.wordResultMs)} ms after paint (keys taken over ${Math.round(f.typingMs)} ms, ` +
            `slowest key taken ${Math.round(f.keyLagMs)} ms after it was sent, ${f.lostKeys} key(s) lost)`,
        );
        all.get(name)!.push(f);
      }
    }
    return Object.fromEntries(names.map((name) => [name, medians(all.get(name)!)]));
  } finally {
    await browser.close();
  }
}

/** First paint and hydration of one throttled cold load (no reader): what the override bench needs. */
/**
 * Work the page does up to hydration and in the 3 s after it, counted, not timed: figures that
 * stay the same on a busy machine, beside the hydration time that does not. From Chrome's own
 * counters (CDP `Performance.getMetrics`: layouts, style recalculations, DOM nodes, and script
 * time, which is CPU time and moves with the machine less than wall time), the requests the page
 * made, and React's commits and the fibers they mounted (by hydration, and by 3 s after it), counted through React's DevTools hook
 * (production react-dom calls it at each commit; a page without React reports 0).
 */
export interface HydrationWork {
  layouts: number;
  styleRecalcs: number;
  nodes: number;
  scriptMs: number;
  requests: number;
  commits: number;
  /** Fibers mounted by the moment the page has hydrated, and by 3 s after it. */
  fibersAtHydration: number;
  fibersMounted: number;
}

const COUNT_COMMITS = `(() => {
  const work = {commits: 0, fibersMounted: 0, fibersAtHydration: null};
  window.__benchWork = work;
  new MutationObserver(() => {
    if (work.fibersAtHydration === null && document.documentElement.getAttribute('data-has-hydrated') === 'true') {
      work.fibersAtHydration = work.fibersMounted;
    }
  }).observe(document, {subtree: true, attributes: true, attributeFilter: ['data-has-hydrated']});
  const seen = new WeakSet();
  // A fiber is mounted once: neither it nor its alternate (made at its first update) seen before.
  const mounted = (fiber) => {
    let n = 0;
    const stack = [fiber];
    while (stack.length) {
      const f = stack.pop();
      if (!f) continue;
      if (!seen.has(f) && !(f.alternate && seen.has(f.alternate))) n++;
      seen.add(f);
      if (f.sibling) stack.push(f.sibling);
      if (f.child) stack.push(f.child);
    }
    return n;
  };
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    renderers: new Map(), supportsFiber: true, isDisabled: false,
    inject(renderer) { const id = this.renderers.size + 1; this.renderers.set(id, renderer); return id; },
    checkDCE() {}, onScheduleFiberRoot() {}, onCommitFiberUnmount() {}, onPostCommitFiberRoot() {}, setStrictMode() {},
    onCommitFiberRoot(_id, root) { work.commits++; work.fibersMounted += mounted(root.current.child); },
  };
})();`;

const SETTLE_MS = 3_000;
type Metric = 'LayoutCount' | 'RecalcStyleCount' | 'Nodes' | 'ScriptDuration';

async function hydrationLoad(browser: Browser, url: string, countWork = false): Promise<{paintMs: number; hydratedMs: number; work?: HydrationWork}> {
  const context = await browser.newContext({viewport: VIEWPORT});
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await throttle(cdp);
    await page.addInitScript(RECORD_TIMES.replace('__SEARCH_WORD__', SEARCH_WORD));
    let requests = 0;
    if (countWork) {
      // Counting fibers walks each committed tree: done in loads of their own, never timed.
      await page.addInitScript(COUNT_COMMITS);
      await cdp.send('Performance.enable');
      page.on('request', () => requests++);
    }
    await page.goto(url, {waitUntil: 'commit'});
    const times = await until(page, (t) => t.paint !== null && t.hydrated !== null, 'first paint and hydration');
    if (!countWork) return {paintMs: times.paint!, hydratedMs: times.hydrated!};
    await page.waitForTimeout(SETTLE_MS);
    // Nodes counts detached nodes until they are collected: collect first.
    await cdp.send('HeapProfiler.collectGarbage');
    const {metrics} = (await cdp.send('Performance.getMetrics')) as {metrics: {name: string; value: number}[]};
    const metric = (name: Metric) => metrics.find((m) => m.name === name)?.value ?? 0;
    const react = (await page.evaluate('window.__benchWork')) as {commits: number; fibersMounted: number; fibersAtHydration: number | null};
    return {
      paintMs: times.paint!,
      hydratedMs: times.hydrated!,
      work: {
        layouts: metric('LayoutCount'),
        styleRecalcs: metric('RecalcStyleCount'),
        nodes: metric('Nodes'),
        scriptMs: Math.round(metric('ScriptDuration') * 1000),
        requests,
        commits: react.commits,
        fibersAtHydration: react.fibersAtHydration ?? react.fibersMounted,
        fibersMounted: react.fibersMounted,
      },
    };
  } finally {
    await context.close();
  }
}

/** The work of one untimed load of each URL (HydrationWork), loads interleaved. */
export async function measureHydrationWork(urls: Record<string, string>, log: (line: string) => void = () => {}): Promise<Record<string, HydrationWork>> {
  const browser = await chromium.launch({executablePath: CHROME_PATH, args: CHROME_ARGS});
  try {
    const out: Record<string, HydrationWork> = {};
    for (const [name, url] of Object.entries(urls)) {
      const {work} = await hydrationLoad(browser, url, true);
      out[name] = work!;
      log(`  ${name} work: ${JSON.stringify(work)}`);
    }
    return out;
  } finally {
    await browser.close();
  }
}

export interface HydrationFigures {
  paintMs: number;
  hydratedMs: number;
  runs: number;
  /** Each load's hydration (ms), in the order loaded. */
  each: number[];
}

/** Median first paint and hydration over `runs` throttled cold loads of each URL, interleaved, each round starting one URL further on. */
export async function measureHydration(
  urls: Record<string, string>,
  runs: number,
  log: (line: string) => void = () => {},
): Promise<Record<string, HydrationFigures>> {
  const browser = await chromium.launch({executablePath: CHROME_PATH, args: CHROME_ARGS});
  try {
    const all = new Map<string, {paintMs: number; hydratedMs: number}[]>(Object.keys(urls).map((name) => [name, []]));
    for (let i = 0; i < runs; i++) {
      for (const [name, url] of rotated(Object.entries(urls), i)) {
        const f = await hydrationLoad(browser, url);
        log(`  ${name} load ${i + 1}/${runs}: paint ${Math.round(f.paintMs)} ms, hydrated ${Math.round(f.hydratedMs)} ms`);
        all.get(name)!.push(f);
      }
    }
    return Object.fromEntries(
      [...all].map(([name, list]) => [
        name,
        {paintMs: median(list.map((f) => f.paintMs)), hydratedMs: median(list.map((f) => f.hydratedMs)), runs: list.length, each: list.map((f) => Math.round(f.hydratedMs))},
      ]),
    );
  } finally {
    await browser.close();
  }
}
