/**
 * What a page's hydration waits for, per throttled cold load (Lighthouse's mobile network and CPU,
 * interactivity.ts), builds side by side, loads interleaved: a diagnostic, printed, not a budget.
 *
 *   node --import tsx indexer/bench/hydration-path.ts [--runs 5] [--builds build,build-stock]
 *        [--pages /docs/introduction,/docs/v2/measurement] [--modes reader,noreader] [--out file.jsonl]
 *
 * Each build is a folder of site/ served with gzip (serve.ts). Per load, from the navigation's
 * start (ms): the first contentful paint, the end of parsing (domInteractive), main.js requested
 * and in, the page's route chunks (the scripts site/build's page names besides runtime and main)
 * first requested and all in, the early search box's downloads (its module and worker, and the
 * index its worker fetches) and hydration (`data-has-hydrated`). In `reader` mode a reader taps
 * the search button from the first paint until the field has focus, then types SEARCH_WORD a key
 * every 80 ms, as the bench's reader does; `noreader` loads the page alone. Then the medians of
 * each build, page and mode, the median per-round ratio of each build's hydration to the last
 * build's (the baseline: put the stock template last), and how many loads started the box's
 * downloads before the route chunks were in (network the hydration waits for, shared).
 * Timings move with the machine's load (printed); the order of the events much less.
 */
import {readFileSync, appendFileSync} from 'node:fs';
import {loadavg} from 'node:os';
import path from 'node:path';
import {chromium, type Browser} from '@playwright/test';
import {CHROME_ARGS, CHROME_PATH} from 'site/chrome';
import {median, SEARCH_WORD, searchButtonCentre, searchFieldFocused, throttle, VIEWPORT} from './interactivity.ts';
import {serveBuild} from './serve.ts';
import {SITE} from './workspaces.ts';

const option = (name: string, fallback: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1]! : fallback;
};
const runs = Number(option('--runs', '5'));
const builds = option('--builds', 'build,build-stock').split(',');
const pages = option('--pages', '/docs/introduction,/docs/v2/measurement').split(',');
const modes = option('--modes', 'reader,noreader').split(',');
const out = process.argv.includes('--out') ? option('--out', '') : undefined;

interface Markers {
  fcp: number;
  parsed: number;
  mainStart: number;
  mainEnd: number;
  chunksStart: number;
  chunksEnd: number;
  boxStart: number | null;
  indexStart: number | null;
  indexEnd: number | null;
  hydrated: number;
}

/** Runs in the page before its own scripts: the moment it has hydrated. */
const RECORD = `new MutationObserver(() => {
  if (window.__hydrated === undefined && document.documentElement.getAttribute('data-has-hydrated') === 'true') window.__hydrated = performance.now();
}).observe(document, {subtree: true, attributes: true, attributeFilter: ['data-has-hydrated']});`;

async function load(browser: Browser, url: string, reader: {x: number; y: number} | null, routeChunks: string[]): Promise<Markers> {
  const context = await browser.newContext({viewport: VIEWPORT});
  try {
    const page = await context.newPage();
    const index: {start: number; end: number}[] = [];
    // The worker's index request is not in the page's resource timing.
    context.on('requestfinished', (r) => {
      if (!r.url().includes('local-index')) return;
      const t = r.timing();
      index.push({start: t.startTime, end: t.startTime + t.responseEnd});
    });
    const cdp = await context.newCDPSession(page);
    await throttle(cdp);
    await page.addInitScript(RECORD);
    await cdp.send('Page.enable');
    await cdp.send('Page.setLifecycleEventsEnabled', {enabled: true});
    const painted = new Promise<void>((resolve) =>
      cdp.on('Page.lifecycleEvent', (event: {name: string}) => {
        if (event.name === 'firstContentfulPaint') resolve();
      }),
    );
    await page.goto(url, {waitUntil: 'commit'});
    if (reader) {
      await painted;
      let stop = false;
      const taps = (async () => {
        while (!stop) {
          const next = Date.now() + 100;
          await cdp.send('Input.dispatchMouseEvent', {type: 'mousePressed', ...reader, button: 'left', clickCount: 1});
          await cdp.send('Input.dispatchMouseEvent', {type: 'mouseReleased', ...reader, button: 'left', clickCount: 1});
          await new Promise((r) => setTimeout(r, Math.max(0, next - Date.now())));
        }
      })().catch(() => {});
      const start = Date.now();
      while (!(await searchFieldFocused(page)) && Date.now() - start < 30_000) await new Promise((r) => setTimeout(r, 50));
      stop = true;
      await taps;
      const typing = Date.now();
      const replies: Promise<unknown>[] = [];
      for (const [i, letter] of [...SEARCH_WORD].entries()) {
        const wait = typing + i * 80 - Date.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        const code = letter.toUpperCase().charCodeAt(0);
        const key = {key: letter, code: `Key${letter.toUpperCase()}`, windowsVirtualKeyCode: code, nativeVirtualKeyCode: code};
        replies.push(cdp.send('Input.dispatchKeyEvent', {type: 'keyDown', ...key, text: letter, unmodifiedText: letter}));
        replies.push(cdp.send('Input.dispatchKeyEvent', {type: 'keyUp', ...key}));
      }
      await Promise.all(replies);
    }
    await page.waitForFunction('window.__hydrated', null, {timeout: 60_000, polling: 100});
    await page.waitForTimeout(100);
    const origin = await page.evaluate(() => performance.timeOrigin);
    const markers = await page.evaluate((chunks) => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      const res = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      const main = res.find((r) => /\/assets\/js\/main\./.test(r.name))!;
      const route = res.filter((r) => chunks.some((c) => r.name.endsWith(c)));
      const box = res.filter((r) => /\/search\/early-/.test(r.name));
      return {
        fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
        parsed: nav.domInteractive,
        mainStart: main.startTime,
        mainEnd: main.responseEnd,
        chunksStart: Math.min(...route.map((r) => r.startTime)),
        chunksEnd: Math.max(...route.map((r) => r.responseEnd)),
        boxStart: box.length ? Math.min(...box.map((r) => r.startTime)) : null,
        hydrated: (window as unknown as {__hydrated: number}).__hydrated,
      };
    }, routeChunks);
    const f = (n: number) => Math.round(n);
    return {
      fcp: f(markers.fcp),
      parsed: f(markers.parsed),
      mainStart: f(markers.mainStart),
      mainEnd: f(markers.mainEnd),
      chunksStart: f(markers.chunksStart),
      chunksEnd: f(markers.chunksEnd),
      boxStart: markers.boxStart === null ? null : f(markers.boxStart),
      indexStart: index[0] ? f(index[0].start - origin) : null,
      indexEnd: index[0] ? f(index[0].end - origin) : null,
      hydrated: f(markers.hydrated),
    };
  } finally {
    await context.close();
  }
}

const servers = await Promise.all(builds.map((b) => serveBuild(path.join(SITE, b))));
const browser = await chromium.launch({executablePath: CHROME_PATH, args: CHROME_ARGS});
try {
  // The route chunks of each page, as site/build names them (the stock template names none).
  const chunksOf = new Map(
    pages.map((p) => [
      p,
      [...readFileSync(path.join(SITE, 'build', `${p}.html`), 'utf8').matchAll(/\/assets\/js\/[^"]+\.js/g)]
        .map((m) => m[0])
        .filter((s) => !/runtime~main|\/main\./.test(s)),
    ]),
  );
  const buttons = new Map<string, {x: number; y: number}>();
  for (const p of pages) {
    for (const s of servers) {
      buttons.set(s.url + p, await searchButtonCentre(browser, s.url + p));
    }
  }
  const all = new Map<string, (Markers & {round: number})[]>();
  for (let round = 0; round < runs; round++) {
    for (const p of pages) {
      for (const mode of modes) {
        for (const [i, build] of builds.entries()) {
          const url = servers[i]!.url + p;
          const m = await load(browser, url, mode === 'reader' ? buttons.get(url)! : null, chunksOf.get(p)!);
          const key = `${p} ${mode} ${build}`;
          all.set(key, [...(all.get(key) ?? []), {...m, round}]);
          const line = JSON.stringify({key, round, load: Number((loadavg()[0] ?? 0).toFixed(2)), ...m});
          console.log(line);
          if (out) appendFileSync(out, `${line}\n`);
        }
      }
    }
  }
  console.log('\nmedians (ms from the navigation):');
  const baseline = builds.at(-1)!;
  for (const [key, list] of all) {
    const med = (name: keyof Markers) => {
      const values = list.map((m) => m[name]).filter((v): v is number => v !== null);
      return values.length ? Math.round(median(values)) : '-';
    };
    const [p, mode, build] = key.split(' ');
    const base = all.get(`${p} ${mode} ${baseline}`) ?? [];
    const ratios = list.flatMap((m) => {
      const b = base.find((x) => x.round === m.round);
      return b ? [m.hydrated / b.hydrated] : [];
    });
    const early = list.filter((m) => m.boxStart !== null && m.boxStart < m.chunksEnd).length;
    console.log(
      `${key}: paint ${med('fcp')}, parsed ${med('parsed')}, main.js ${med('mainStart')}→${med('mainEnd')}, ` +
        `route chunks ${med('chunksStart')}→${med('chunksEnd')}, box ${med('boxStart')}, index ${med('indexStart')}→${med('indexEnd')}, ` +
        `hydrated ${med('hydrated')} (each ${list.map((m) => m.hydrated).join(' ')}; ×${(ratios.length ? median(ratios) : NaN).toFixed(2)} ${baseline}, per-round median)` +
        (mode === 'reader' && build !== baseline ? `; box downloads begun before the route chunks were in: ${early}/${list.length}` : ''),
    );
  }
} finally {
  await browser.close();
  await Promise.all(servers.map((s) => s.close()));
}
