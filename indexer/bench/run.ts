/**
 * `npm run bench`: every figure of issue 6 from one command, checked against its budget.
 *
 *   node --import tsx indexer/bench/run.ts [--skip-build] [--runs 3] [--no-lighthouse] [--no-hooks]
 *                                      [--no-interactivity] [--interactivity-runs 5]
 *                                      [--no-startup] [--no-indexer] [--no-search] [--no-theme]
 *                                      [--theme-rounds 3] [--overrides [--override-names a,b]] [--help]
 *
 * 1. Cold production build (docusaurus clear, then build under /usr/bin/time -v): wall time, peak RSS.
 * 2. Total build size.
 * 3. The baseline: the same site built with Docusaurus's stock page template (site-variant.config.ts, STOCK_PAGE_TEMPLATE=1,
 *    into site/build-stock), and a build with hidden source maps (source-maps.config.ts, into
 *    site/build-source-maps) that says what the first visit's JavaScript is made of (breakdown.ts).
 * 4. Both builds served with gzip on localhost; Lighthouse as the plain `lighthouse` command runs it
 *    (lighthouse.ts: default mobile settings, Debian's Chromium), median of N runs, on /,
 *    /docs/introduction and /docs/v2/measurement: mobile for ours and the stock template, runs
 *    interleaved, then desktop for ours: scores, LCP/TBT/CLS, first-visit JavaScript (gzipped
 *    bytes transferred, by part) and requests to other hosts.
 * 5. Side by side, with Lighthouse's mobile throttling (interactivity.ts): ours against the stock
 *    template, loads interleaved, on /docs/introduction and /docs/v2/measurement: first paint,
 *    hydration, paint → focused search field and lost taps of a reader tapping the search button
 *    from the first paint, then paint → first result and → the answer to the whole word as the
 *    reader types a 7-letter word (a key every 80 ms, sent without waiting for the page), lost keys;
 *    then as many untouched loads (no reader), interleaved too: hydration like for like, since the
 *    stock page ignores the reader's taps until it has hydrated and ours answers them before.
 * 6. The indexer's and the local search's figures, from indexer.ts and search.ts (search: ours
 *    beside Pagefind, same build, 23 / 1,000 / 5,000 pages), and the CLI's start-up cost
 *    (startup.ts: CPU of `docs-indexer --help` and `--version` beside a bare `node -e ""`).
 * 7. The theme package side by side (theme-compare.ts, also `npm run bench:theme`): on each fixture
 *    site and on ours, the theme against @easyops-cn/docusaurus-search-local and Pagefind (build
 *    time added, bytes before the first answer, cold first answer, relevance where a query set
 *    exists). Its tables are printed after this script's own.
 * Prints a table, then the JSON (also written to indexer/bench/results/latest.json), then the budgets
 * missed and by how much. Exit code 0 even when budgets are missed: correctness stays with the tests.
 *
 * `--overrides` is another mode (overrides.ts): the gain of each override of a framework internal.
 */
import {spawn} from 'node:child_process';
import {existsSync, statSync} from 'node:fs';
import {mkdir, readFile, readdir, stat, writeFile} from 'node:fs/promises';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {serveBuild} from './serve.ts';
import {interleavedLighthouse, plainCommand, type FormFactor, type MedianLighthouse} from './lighthouse.ts';
import {KEYS_HOW, measureHydration, measureInteractivity, SEARCH_WORD, type HydrationFigures, type MedianFigures} from './interactivity.ts';
import {breakdown, formatBreakdown, type Breakdown} from './breakdown.ts';
import type {StartupFigures} from './startup.ts';
import type {IndexerBenchResult, IndexerScaleRun} from './indexer.ts';
import type {SizeFigures} from './search.ts';
import {RESULTS, SITE, SITE_BUILD} from './workspaces.ts';
import {DOCUSAURUS, run, siteBuild} from './build.ts';

const BUILD = SITE_BUILD;
const STOCK_BUILD = path.join(SITE, 'build-stock');
const SOURCE_MAPS_BUILD = path.join(SITE, 'build-source-maps');
const SOURCE_MAPS_CONFIG = path.join(path.dirname(fileURLToPath(import.meta.url)), 'source-maps.config.ts');
const VARIANT_CONFIG = path.join(path.dirname(fileURLToPath(import.meta.url)), 'site-variant.config.ts');
const INTERACTIVITY_PAGES = ['/docs/introduction', '/docs/v2/measurement'] as const;
const PAGES = ['/', '/docs/introduction', '/docs/v2/measurement'] as const;
const KB = 1024;

/** Issue 6's targets. */
export const BUDGETS = {
  mobilePerformance: 98,
  desktopPerformance: 100,
  otherCategories: 100,
  /** 0.82× the public HomeWizard site's 177 KB (the overrides left are those that save more than about 2 KB or measurable work). */
  firstVisitJsKB: 146,
  /** Issue 27: Total Blocking Time of each page, mobile. */
  mobileTbtMs: 150,
  firstVisitJsPage: '/docs/introduction',
  coldBuildSeconds: 60,
  coldBuildPeakMB: 1024,
  /** Issue 27, medians of the throttled loads. */
  paintToFirstResultMs: 2000,
  paintToFocusedFieldMs: 1000,
} as const;

interface BuildFigures {
  seconds: number;
  peakRssMB: number | null;
}
interface Budget {
  name: string;
  target: string;
  actual: string;
  ok: boolean;
  /** How far a missed budget is from its target. */
  missedBy?: string;
}
interface Results {
  date: string;
  node: string;
  build?: BuildFigures;
  buildSize?: {bytes: number; files: number};
  lighthouse?: Record<string, Partial<Record<FormFactor, MedianLighthouse>>>;
  /** The stock template's mobile Lighthouse, in the same interleaved rounds as ours. */
  lighthouseStock?: Record<string, MedianLighthouse>;
  /** The plain command the bench ran for each page (the URL's port changes from run to run). */
  lighthouseCommand?: string;
  /** What the first visit's JavaScript on BUDGETS.firstVisitJsPage is made of. */
  firstVisitJs?: Breakdown;
  /** How the reader's keys and taps were sent. */
  readerInput?: string;
  /** Page → build ("ours", "stock") → figures, and the ratios ours/stock. */
  interactivity?: Record<
    string,
    {
      ours: MedianFigures;
      stock: MedianFigures;
      ratios: Record<string, Record<string, number | null>>;
      /** Loads nobody touches, interleaved as the reader's are: hydration like for like. */
      untouched?: {ours: HydrationFigures; stock: HydrationFigures; ratio: number | null};
    }
  >;
  indexer?: IndexerBenchResult;
  startup?: StartupFigures;
  indexerScale?: {runs: IndexerScaleRun[]};
  search?: SizeFigures[];
  /** theme-compare.ts's figures (its theme-compare.json). */
  theme?: unknown;
  notes: string[];
  budgets: Budget[];
}

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const log = (line: string) => process.stderr.write(`${line}\n`);

/** `h:mm:ss` or `m:ss.ss` from GNU time → seconds. */
function parseElapsed(text: string): number {
  return text
    .trim()
    .split(':')
    .map(Number)
    .reduce((total, part) => total * 60 + part, 0);
}

async function coldBuild(): Promise<BuildFigures> {
  log('build: docusaurus clear, then a cold production build…');
  const clear = await run(process.execPath, [DOCUSAURUS, 'clear'], SITE);
  if (clear.code !== 0) throw new Error(`docusaurus clear failed:\n${clear.stderr}`);
  if (existsSync('/usr/bin/time')) {
    const {code, stderr} = await run('/usr/bin/time', ['-v', process.execPath, DOCUSAURUS, 'build'], SITE);
    if (code !== 0) throw new Error(`the build failed:\n${stderr.slice(-2000)}`);
    const elapsed = /Elapsed \(wall clock\) time \([^)]*\): (.+)/.exec(stderr)?.[1];
    const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr)?.[1];
    if (!elapsed || !rss) throw new Error('could not read /usr/bin/time -v output');
    return {seconds: parseElapsed(elapsed), peakRssMB: Math.round(Number(rss) / KB)};
  }
  const start = performance.now();
  const {code, stderr} = await run(process.execPath, [DOCUSAURUS, 'build'], SITE);
  if (code !== 0) throw new Error(`the build failed:\n${stderr.slice(-2000)}`);
  return {seconds: (performance.now() - start) / 1000, peakRssMB: null};
}

/**
 * A comparison build is made unless --skip-build finds it already there and newer than site/build
 * (one older than the build it is compared with was made from other sources).
 */
function needed(dir: string): boolean {
  const index = path.join(dir, 'index.html');
  if (!flag('--skip-build') || !existsSync(index)) return true;
  const ours = path.join(BUILD, 'index.html');
  return existsSync(ours) && statSync(index).mtimeMs < statSync(ours).mtimeMs;
}

/** The same site with Docusaurus's stock page template: the baseline of every side-by-side figure. */
async function stockBuild(): Promise<void> {
  if (needed(STOCK_BUILD)) await siteBuild('build-stock', 'with the stock page template', {BENCH_SITE_DIR: SITE, STOCK_PAGE_TEMPLATE: '1'}, ['--config', VARIANT_CONFIG], log);
}

/** The same site with hidden source maps (what breakdown.ts reads); its scripts are the shipped ones. */
async function sourceMapsBuild(): Promise<void> {
  if (needed(SOURCE_MAPS_BUILD)) {
    await siteBuild('build-source-maps', 'with hidden source maps', {BENCH_SITE_DIR: SITE}, ['--config', SOURCE_MAPS_CONFIG], log);
  }
}

const ratio = (ours: number, other: number) => (other > 0 ? Math.round((ours / other) * 100) / 100 : null);

function ratios(o: MedianFigures, other: MedianFigures): Record<string, number | null> {
  return {
    paint: ratio(o.paintMs, other.paintMs),
    hydrated: ratio(o.hydratedMs, other.hydratedMs),
    paintToSearchUsable: ratio(o.searchUsableMs, other.searchUsableMs),
    paintToFirstResult: ratio(o.firstResultMs, other.firstResultMs),
    paintToWordResult: ratio(o.wordResultMs, other.wordResultMs),
    paintToHydrated: ratio(o.hydratedMs - o.paintMs, other.hydratedMs - other.paintMs),
    lostClicks: ratio(o.lostClicks, other.lostClicks),
  };
}

async function interactivity(results: Results, runs: number): Promise<void> {
  await stockBuild();
  const ours = await serveBuild(BUILD);
  const stock = await serveBuild(STOCK_BUILD);
  results.readerInput = KEYS_HOW;
  log(`interactivity: ${runs} throttled load(s) per page and build, interleaved (ours ${ours.url}, stock ${stock.url}); ${KEYS_HOW}…`);
  try {
    results.interactivity = {};
    for (const page of INTERACTIVITY_PAGES) {
      const figures = await measureInteractivity({ours: `${ours.url}${page}`, stock: `${stock.url}${page}`}, runs, (line) => log(`  ${line.trim()}`));
      const o = figures.ours!;
      const s = figures.stock!;
      // The same number of loads again with no reader: the stock page ignores a reader's taps until
      // it has hydrated, where ours answers them first, so the reader's loads alone do not compare
      // hydration like for like. Both budgets are kept: with the reader and untouched.
      log(`  ${page}: ${runs} untouched load(s) per build, interleaved (no tap, no key)`);
      const untouched = await measureHydration({ours: `${ours.url}${page}`, stock: `${stock.url}${page}`}, runs, (line) => log(`  ${line.trim()}`));
      const uo = untouched.ours!;
      const us = untouched.stock!;
      results.interactivity[page] = {ours: o, stock: s, ratios: {ours_stock: ratios(o, s)}, untouched: {ours: uo, stock: us, ratio: ratio(uo.hydratedMs, us.hydratedMs)}};
      results.budgets.push(
        limit(`paint → first result ${page}`, o.firstResultMs, BUDGETS.paintToFirstResultMs, 'ms'),
        limit(`paint → field takes text ${page}`, o.searchUsableMs, BUDGETS.paintToFocusedFieldMs, 'ms'),
        limit(`taps lost ${page} (most in a load)`, o.maxLostClicks, 0, ''),
        limit(`keys lost ${page} (most in a load)`, o.maxLostKeys, 0, ''),
        limit(`hydration ${page}, untouched loads (not later than the stock template)`, uo.hydratedMs, us.hydratedMs, 'ms'),
        limit(`hydration ${page}, with the reader (not later than the stock template, which ignores the reader)`, o.hydratedMs, s.hydratedMs, 'ms'),
      );
    }
  } finally {
    await ours.close();
    await stock.close();
  }
}

async function folderSize(dir: string): Promise<{bytes: number; files: number}> {
  let bytes = 0;
  let files = 0;
  for (const entry of await readdir(dir, {withFileTypes: true})) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      const sub = await folderSize(full);
      bytes += sub.bytes;
      files += sub.files;
    } else {
      bytes += (await stat(full)).size;
      files += 1;
    }
  }
  return {bytes, files};
}

/** The CLI's start-up: CPU of `docs-indexer --help` and `--version` beside a bare `node -e ""`. */
async function startup(results: Results): Promise<void> {
  const {benchStartup} = await import('./startup.ts');
  log('startup: timing docs-indexer --help and --version beside node -e ""…');
  const figures = benchStartup({log});
  results.startup = figures;
  results.budgets.push(
    budget('docs-indexer --help CPU', `≤ ${figures.targetCpuMs} ms`, `${figures.helpCpuMs} ms (${figures.helpRatio}× node -e "": ${figures.nodeCpuMs} ms)`, figures.helpCpuMs <= figures.targetCpuMs),
    budget('docs-indexer --version CPU', `≤ ${figures.targetCpuMs} ms`, `${figures.versionCpuMs} ms (${figures.versionRatio}× node -e "")`, figures.versionCpuMs <= figures.targetCpuMs),
  );
}

/** The indexer's pages per second and peak memory (indexer.ts), then its scale from 1,000 to 10,000 pages. */
async function indexer(results: Results): Promise<void> {
  const {runIndexerBench, runIndexerScale} = await import('./indexer.ts');
  log('indexer: running indexer.ts…');
  const figures = await runIndexerBench({log});
  results.indexer = figures;
  // One budget line per crawl mode: "stream" is `crawl --out`, "collect" is what `push` needs.
  for (const run of figures.runs) {
    results.budgets.push(
      budget(`indexer pages/s (folder, ${run.mode})`, `≥ ${figures.targets.pagesPerSecond}`, `${run.pagesPerSecond} (${run.pagesPerCpuSecond}/CPU s)`, run.pagesPerSecond >= figures.targets.pagesPerSecond),
      budget(`indexer peak RSS (${run.mode})`, `< ${figures.targets.peakRssMB} MB`, `${run.peakRssMB} MB`, run.peakRssMB < figures.targets.peakRssMB),
    );
  }
  log('indexer: scale, 1,000 then 10,000 pages…');
  const scale = await runIndexerScale({log});
  results.indexerScale = scale;
  for (const run of scale.runs) {
    const linear = run.large.pages / run.small.pages;
    // Roughly linear time (a fifth above proportional); memory flat for the modes that stream.
    results.budgets.push(budget(`indexer time ×${linear} pages (${run.mode})`, `≤ ×${linear * 1.2}`, `×${run.timeRatio}`, run.timeRatio <= linear * 1.2));
    if (run.mode === 'stream' || run.mode === 'stdout') {
      results.budgets.push(budget(`indexer peak RSS ×${linear} pages (${run.mode})`, '≤ ×1.5', `×${run.memoryRatio}`, run.memoryRatio <= 1.5));
    }
  }
}

/** The local search beside Pagefind on the same build, at 23, 1,000 and 5,000 pages (search.ts). */
async function search(results: Results): Promise<void> {
  if (!existsSync(path.join(BUILD, 'search/local-index.json'))) {
    results.notes.push('site/build/search/local-index.json is absent: search figures skipped');
    return;
  }
  const {benchSearch, formatSearchBench} = await import('./search.ts');
  log('search: running search.ts (ours beside Pagefind at 23, 1,000 and 5,000 pages)…');
  const sizes = await benchSearch({buildDir: BUILD, log});
  results.search = sizes;
  searchTable = formatSearchBench(sizes);
  // Issue 16's budgets at 5,000 pages (printed, as every budget here; the sharded form is
  // what a site of that size ships).
  const big = sizes.find((s) => s.pages >= 5000);
  const ours = big?.engines.find((e) => e.engine === 'ours: sharded');
  const pagefind = big?.engines.find((e) => e.engine === 'pagefind');
  if (big && ours && pagefind) {
    results.budgets.push(
      budget(`search bytes before 1st answer (${big.pages} pages)`, '≤ 150 KB', `${(ours.firstAnswerBytes / KB).toFixed(1)} KB`, ours.firstAnswerBytes <= 150 * KB),
      budget(`search cold 1st answer (${big.pages} pages)`, `≤ Pagefind ${pagefind.coldMs} ms`, `${ours.coldMs} ms`, ours.coldMs <= pagefind.coldMs),
      budget(`search warm p95 (${big.pages} pages)`, '≤ 25 ms', `${ours.warmP95Ms.toFixed(2)} ms`, ours.warmP95Ms <= 25),
    );
  }
}

function budget(name: string, target: string, actual: string, ok: boolean): Budget {
  return {name, target, actual, ok};
}

const show = (n: number, unit: string) => `${Number.isInteger(n) ? n : n.toFixed(1)}${unit ? ` ${unit}` : ''}`;

/** A budget `value ≤ max`; a miss says by how much (and as a ratio of the target). */
function limit(name: string, value: number, max: number, unit: string): Budget {
  const round = (n: number) => (unit === 'KB' ? Math.round(n * 10) / 10 : Math.round(n));
  const ok = value <= max;
  const b = budget(name, `≤ ${show(round(max), unit)}`, show(round(value), unit), ok);
  if (!ok) b.missedBy = Number.isNaN(value) ? 'never happened' : `${show(round(value - max), unit)}${max > 0 ? ` (${(value / max).toFixed(2)}× the target)` : ''}`;
  return b;
}

/** A budget `value ≥ min`; a miss says by how much. */
function floor(name: string, value: number, min: number, unit = ''): Budget {
  const ok = value >= min;
  const b = budget(name, `≥ ${show(min, unit)}`, show(value, unit), ok);
  if (!ok) b.missedBy = `${show(Math.round((min - value) * 10) / 10, unit || 'points')}`;
  return b;
}

function checkLighthouse(results: Results): void {
  for (const [page, byForm] of Object.entries(results.lighthouse ?? {})) {
    for (const [form, r] of Object.entries(byForm) as [FormFactor, MedianLighthouse][]) {
      const perfTarget = form === 'mobile' ? BUDGETS.mobilePerformance : BUDGETS.desktopPerformance;
      results.budgets.push(floor(`${form} performance ${page}`, r.performance, perfTarget));
      if (form === 'mobile') results.budgets.push(limit(`mobile TBT ${page}`, r.tbtMs, BUDGETS.mobileTbtMs, 'ms'));
      for (const [label, value] of [
        ['accessibility', r.accessibility],
        ['best practices', r.bestPractices],
        ['SEO', r.seo],
      ] as const) {
        results.budgets.push(floor(`${form} ${label} ${page}`, value, BUDGETS.otherCategories));
      }
      results.budgets.push(limit(`${form} requests to other hosts ${page}`, r.foreignRequests.length, 0, ''));
    }
  }
  const firstVisit = results.lighthouse?.[BUDGETS.firstVisitJsPage]?.mobile;
  if (firstVisit) {
    results.budgets.push(limit(`first-visit JS ${BUDGETS.firstVisitJsPage} (gzip)`, firstVisit.scriptBytes / KB, BUDGETS.firstVisitJsKB, 'KB'));
  }
}

/**
 * Lighthouse, mobile, on ours and the stock template, rounds interleaved (page by page, build by
 * build), then desktop on ours; and what the first visit's JavaScript is made of.
 */
async function lighthouse(results: Results, runs: number): Promise<void> {
  await stockBuild();
  await sourceMapsBuild();
  const ours = await serveBuild(BUILD);
  const stock = await serveBuild(STOCK_BUILD);
  results.lighthouseCommand = plainCommand(`${ours.url}${BUDGETS.firstVisitJsPage}`, 'mobile');
  log(`lighthouse: site/build on ${ours.url}, site/build-stock on ${stock.url}, both with gzip; ${runs} run(s) per page, build and form factor, each the plain command:`);
  log(`  ${results.lighthouseCommand}`);
  try {
    const urls: Record<string, string> = {};
    for (const page of PAGES) {
      urls[`${page} ours`] = `${ours.url}${page}`;
      urls[`${page} stock`] = `${stock.url}${page}`;
    }
    const mobile = await interleavedLighthouse(urls, 'mobile', runs, log);
    const desktop = await interleavedLighthouse(Object.fromEntries(PAGES.map((page) => [`${page} ours`, `${ours.url}${page}`])), 'desktop', runs, log);
    results.lighthouse = {};
    results.lighthouseStock = {};
    for (const page of PAGES) {
      results.lighthouse[page] = {mobile: mobile[`${page} ours`]!, desktop: desktop[`${page} ours`]!};
      results.lighthouseStock[page] = mobile[`${page} stock`]!;
    }
  } finally {
    await ours.close();
    await stock.close();
  }
  checkLighthouse(results);
  const firstVisit = results.lighthouse[BUDGETS.firstVisitJsPage]?.mobile;
  if (firstVisit) results.firstVisitJs = await breakdown(firstVisit.scripts, SOURCE_MAPS_BUILD);
}

/** search.ts's side-by-side table, when the search was measured. */
let searchTable: string | undefined;

function printTable(results: Results): void {
  const out: string[] = [];
  if (results.build) {
    out.push(`Cold build: ${results.build.seconds.toFixed(1)} s, peak RSS ${results.build.peakRssMB ?? '?'} MB`);
  }
  if (results.buildSize) {
    out.push(`Build size: ${(results.buildSize.bytes / KB / KB).toFixed(2)} MB in ${results.buildSize.files} files`);
  }
  if (results.lighthouse) {
    out.push(
      '',
      `Lighthouse (median; each run is the plain command: ${results.lighthouseCommand ?? ''})`,
      'page / build                form     perf  a11y  bp   seo   LCP ms  TBT ms  CLS    JS gzip KB  benchmarkIndex  each run (perf/TBT)',
    );
    const row = (label: string, form: string, r: MedianLighthouse) =>
      `${label.padEnd(28)}${form.padEnd(9)}${String(r.performance).padStart(4)}  ${String(r.accessibility).padStart(4)}  ${String(r.bestPractices).padStart(3)}  ${String(r.seo).padStart(4)}  ` +
      `${Math.round(r.lcpMs).toString().padStart(6)}  ${Math.round(r.tbtMs).toString().padStart(6)}  ${r.cls.toFixed(3)}  ${(r.scriptBytes / KB).toFixed(1).padStart(8)}  ` +
      `${Math.round(r.benchmarkIndex).toString().padStart(14)}  ${r.each.map((e) => `${e.performance}/${e.tbtMs}`).join(' ')}`;
    for (const [page, byForm] of Object.entries(results.lighthouse)) {
      for (const [form, r] of Object.entries(byForm) as [FormFactor, MedianLighthouse][]) {
        out.push(row(page, form, r));
        if (r.failedAudits.length) out.push(`${''.padEnd(37)}failed audits: ${r.failedAudits.join(', ')}`);
      }
      const stock = results.lighthouseStock?.[page];
      const ours = byForm.mobile;
      if (stock && ours) {
        out.push(row(`${page} stock`, 'mobile', stock));
        const x = (a: number, b: number) => ratio(a, b)?.toFixed(2) ?? 'n/a';
        out.push(`${''.padEnd(28)}ours/stock: TBT ${x(ours.tbtMs, stock.tbtMs)}×, LCP ${x(ours.lcpMs, stock.lcpMs)}×, JS ${x(ours.scriptBytes, stock.scriptBytes)}×`);
      }
    }
  }
  if (results.firstVisitJs) out.push('', formatBreakdown(BUDGETS.firstVisitJsPage, results.firstVisitJs, BUDGETS.firstVisitJsKB));
  if (results.interactivity) {
    const ms = (v: number) => `${Math.round(v)}`.padStart(6);
    out.push(
      '',
      `Side by side, mobile throttling, interleaved (median)  paint ms  hydrated ms  paint→field takes text  paint→first result  paint→"${SEARCH_WORD}" answered  slowest key ms  lost taps (max)  lost keys (max)`,
      `(${results.readerInput ?? KEYS_HOW})`,
    );
    for (const [page, r] of Object.entries(results.interactivity)) {
      for (const [name, f] of [['ours', r.ours], ['stock template', r.stock]] as const) {
        out.push(
          `${`${page} ${name}`.padEnd(54)}${ms(f.paintMs)}    ${ms(f.hydratedMs)}       ${ms(f.searchUsableMs)}                 ${ms(f.firstResultMs)}             ${ms(f.wordResultMs)}            ` +
            `${ms(f.keyLagMs)}       ${String(f.lostClicks).padStart(3)} (${f.maxLostClicks})        ${String(f.lostKeys).padStart(3)} (${f.maxLostKeys})`,
        );
      }
      const x = r.ratios.ours_stock!;
      const show = (v: number | null | undefined) => (v === null || v === undefined ? 'n/a' : `${v.toFixed(2)}×`);
      out.push(
        `${`${page} ratio ours/stock`.padEnd(54)}paint ${show(x.paint)}, hydrated ${show(x.hydrated)}, paint→field ${show(x.paintToSearchUsable)}, ` +
          `paint→first result ${show(x.paintToFirstResult)}, paint→word answered ${show(x.paintToWordResult)}`,
      );
      if (r.untouched) {
        const u = r.untouched;
        out.push(
          `${`${page} untouched (no reader)`.padEnd(54)}hydrated ours ${Math.round(u.ours.hydratedMs)} ms, stock ${Math.round(u.stock.hydratedMs)} ms: ${show(u.ratio)} ` +
            `(each load: ours ${u.ours.each.join(' / ')}; stock ${u.stock.each.join(' / ')})`,
        );
      }
    }
  }
  if (results.indexer) out.push('', `Indexer: ${JSON.stringify(results.indexer)}`);
  if (results.startup) {
    const s = results.startup;
    out.push(
      '',
      `CLI start-up (CPU, median of ${s.runs}): node -e "" ${s.nodeCpuMs} ms; docs-indexer --help ${s.helpCpuMs} ms (${s.helpRatio}×), ` +
        `--version ${s.versionCpuMs} ms (${s.versionRatio}×); target ≤ ${s.targetCpuMs} ms`,
    );
  }
  if (results.indexerScale) out.push('', `Indexer scale (10,000 pages / 1,000): ${JSON.stringify(results.indexerScale)}`);
  if (searchTable) out.push('', searchTable);
  out.push('', 'Budgets:');
  for (const b of results.budgets) {
    out.push(`  ${b.ok ? 'ok    ' : 'MISSED'}  ${b.name.padEnd(56)} target ${b.target.padEnd(10)} actual ${b.actual}${b.missedBy ? `  (missed by ${b.missedBy})` : ''}`);
  }
  for (const note of results.notes) out.push(`note: ${note}`);
  console.log(out.join('\n'));
}

const USAGE = `npm run bench -- [options]     (node --import tsx indexer/bench/run.ts [options])

  --skip-build              use site/build as it is: no cold build (time, peak memory); the stock-template
                            and source-map builds are reused when newer than site/build
  --runs N                  Lighthouse runs per page, build and form factor, median (3)
  --no-lighthouse           no Lighthouse figures
  --no-interactivity        no side-by-side figures of a reader searching (ours against the stock page template)
  --interactivity-runs N    throttled loads per page and build (5)
  --no-startup              no docs-indexer --help / --version CPU beside node -e ""
  --no-indexer              no indexer pages/s, peak memory and scale figures
  --no-search               no search figures (ours beside Pagefind)
  --no-hooks                none of the three above
  --no-theme                no side-by-side of the theme package against lunr and Pagefind (theme-compare.ts)
  --theme-rounds N          builds per site and engine for the build time added (3)
  --overrides               instead of all the above: each override of a framework internal (the site's
                            site/overrides list) off in a build of its own (SITE_WITHOUT=<name>), against
                            the full build: first-visit JS, Lighthouse mobile, hydration (overrides.ts)
  --override-names a,b      with --overrides: only these overrides
  --override-runs N         with --overrides: Lighthouse runs and throttled loads per build (5)
  --help                    this text`;

/** Whether a step that is not skipped reads site/build. */
function needsBuild(): boolean {
  const hook = (name: string) => !flag('--no-hooks') && !flag(name);
  return !flag('--no-lighthouse') || !flag('--no-interactivity') || hook('--no-indexer') || hook('--no-search');
}

/**
 * theme-compare.ts in a process of its own (it installs packed tarballs and builds every fixture
 * site): all it prints is echoed to stderr as it goes, its tables are returned to be printed after
 * this script's own, its JSON lands in results.theme.
 */
async function themeCompare(results: Results): Promise<string> {
  const rounds = option('--theme-rounds') ?? '3';
  if (!/^[1-9]\d*$/.test(rounds)) throw new Error('--theme-rounds takes a whole number of at least 1');
  log('theme: the theme package beside lunr and Pagefind on the fixture sites and ours (theme-compare.ts)…');
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'theme-compare.ts');
  const output = await new Promise<{code: number; stdout: string}>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, '--rounds', rounds], {stdio: ['ignore', 'pipe', 'inherit']});
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      process.stderr.write(d);
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({code: code ?? 1, stdout}));
  });
  if (output.code !== 0) throw new Error(`theme-compare.ts failed (exit ${output.code})`);
  results.theme = JSON.parse(await readFile(path.join(RESULTS, 'theme-compare.json'), 'utf8')) as unknown;
  // Its tables: the lines from the first table row to the JSON that follows them.
  const lines = output.stdout.split('\n');
  const first = lines.findIndex((line) => line.startsWith('| site |'));
  const json = lines.findIndex((line, i) => i > first && line.startsWith('['));
  return first < 0 ? '' : lines.slice(first, json < 0 ? undefined : json).join('\n').trim();
}

async function main(): Promise<void> {
  if (flag('--help') || flag('-h')) {
    console.log(USAGE);
    return;
  }
  if (flag('--overrides')) {
    const {benchOverrides} = await import('./overrides.ts');
    await benchOverrides({skipBuild: flag('--skip-build'), names: option('--override-names'), runs: option('--override-runs'), log});
    return;
  }
  const results: Results = {date: new Date().toISOString(), node: process.version, notes: [], budgets: []};
  const runs = Number(option('--runs') ?? 3);
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs takes a whole number of at least 1');

  if (flag('--skip-build')) {
    results.notes.push('--skip-build: cold build time and peak memory not measured');
  } else {
    results.build = await coldBuild();
    results.budgets.push(
      budget('cold build time', `≤ ${BUDGETS.coldBuildSeconds} s`, `${results.build.seconds.toFixed(1)} s`, results.build.seconds <= BUDGETS.coldBuildSeconds),
      budget(
        'cold build peak memory',
        `< ${BUDGETS.coldBuildPeakMB} MB`,
        `${results.build.peakRssMB ?? '?'} MB`,
        results.build.peakRssMB !== null && results.build.peakRssMB < BUDGETS.coldBuildPeakMB,
      ),
    );
  }
  if (existsSync(path.join(BUILD, 'index.html'))) results.buildSize = await folderSize(BUILD);
  else if (needsBuild()) throw new Error('site/build is missing: run `npm run build` or drop --skip-build');
  else results.notes.push('site/build is missing: build size not measured');

  if (flag('--no-lighthouse')) {
    results.notes.push('--no-lighthouse: Lighthouse figures skipped');
  } else {
    await lighthouse(results, runs);
  }

  if (flag('--no-interactivity')) {
    results.notes.push('--no-interactivity: side-by-side figures skipped');
  } else {
    const interactivityRuns = Number(option('--interactivity-runs') ?? 5);
    if (!Number.isInteger(interactivityRuns) || interactivityRuns < 1) {
      throw new Error('--interactivity-runs takes a whole number of at least 1');
    }
    await interactivity(results, interactivityRuns);
  }

  if (flag('--no-hooks')) {
    results.notes.push('--no-hooks: start-up, indexer and search figures skipped');
  } else {
    if (flag('--no-startup')) results.notes.push('--no-startup: start-up figures skipped');
    else await startup(results);
    if (flag('--no-indexer')) results.notes.push('--no-indexer: indexer figures skipped');
    else await indexer(results);
    if (flag('--no-search')) results.notes.push('--no-search: search figures skipped');
    else await search(results);
  }

  let themeTables = '';
  if (flag('--no-theme')) results.notes.push('--no-theme: theme package side by side skipped');
  else themeTables = await themeCompare(results);

  printTable(results);
  if (themeTables) console.log(`\nThe theme package beside lunr and Pagefind (theme-compare.ts):\n${themeTables}`);
  console.log('\n' + JSON.stringify(results, null, 2));
  await mkdir(RESULTS, {recursive: true});
  await writeFile(path.join(RESULTS, 'latest.json'), JSON.stringify(results, null, 2) + '\n');
  const missed = results.budgets.filter((b) => !b.ok);
  console.log(
    missed.length
      ? `\n${missed.length} budget(s) MISSED:\n${missed.map((b) => `  - ${b.name}: ${b.actual} (target ${b.target}${b.missedBy ? `; missed by ${b.missedBy}` : ''})`).join('\n')}`
      : '\nAll budgets met.',
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
