/**
 * `npm run bench:theme`: docusaurus-theme-docs-search side by side with
 * @easyops-cn/docusaurus-search-local (lunr, the most used local search plugin) and Pagefind, on
 * the fixture sites (indexer/test/sites: versioned-blog, two-locales, docs-root; and the classic
 * TypeScript site of the theme's browser tests) and on this repository's own site (`ours`: the
 * site workspace, built with its own config; for the other two variants a config written next to
 * it for the run imports that config and swaps the theme's `themes` entry for nothing or for the
 * lunr plugin), in one run:
 *
 * - build time added: a cold `docusaurus build` with the search (persistent cache off) minus the
 *   same build without it, fastest of --rounds builds each; for Pagefind, its indexing run over
 *   the build without search;
 * - bytes before the first answer: everything downloaded from the moment the reader starts a
 *   search (click on our button or theirs; Pagefind's module import) until the first answer
 *   shows, gzipped as served (serve.ts), cold (a fresh browser context per query);
 * - cold first answer: that moment to the first hit on screen (Pagefind: its first result's
 *   data), with search.ts's phone throttling (150 ms RTT, 1.6 Mbps, CPU 4x);
 * - phone, ours beside the lunr plugin: first paint to first hit of a reader on a throttled phone
 *   (a fresh context throttled from the navigation on) who taps the search field (ours: the search
 *   button; the lunr plugin: its navbar field) and types the heading word, at the first paint and,
 *   as a second reader, once the page has hydrated (the lunr plugin's field searches only then);
 *   the four readers interleaved, COLD_SAMPLES rounds, medians, ratios ours / lunr from the same
 *   run, the load average at the start and the end; ours at the first paint against the 2,000 ms
 *   budget;
 * - relevance: whether the first answer is the expected page, for a heading word and the same
 *   word with a typo (the theme's browser tests' queries); the site's own known-item queries,
 *   generated from its build (known-items.ts: each page's title and a distinctive phrase of it,
 *   the page expected first): answers first and MRR@10 of each engine, and each query where ours
 *   ranks the page below the lunr plugin; on our own site also MRR@10 of each engine on each set
 *   of site/search-eval/queries.json (base, forms, real). All warm, from the pages each shows in
 *   order: our modal's hits, the lunr plugin's search page (its drop-down links no pages),
 *   Pagefind's results.
 *
 *   node --import tsx indexer/bench/theme-compare.ts [--rounds 3] [--samples 3] [--dir FOLDER] [--sites versioned-blog,ours]
 *   (FOLDER kept and reused: its installs; --sites: a comma-separated list of the sites below, default all)
 *
 * Installs the packed theme (with docs-indexer and docs-search), Docusaurus and the lunr plugin (from npm's cache when it holds them)
 * in a temporary folder; Pagefind is this workspace's dependency.
 */
import {spawnSync} from 'node:child_process';
import {existsSync} from 'node:fs';
import {cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile} from 'node:fs/promises';
import os, {tmpdir} from 'node:os';
import path from 'node:path';
import {chromium, type Browser} from '@playwright/test';
import {CHROME_ARGS, CHROME_PATH} from 'site/chrome';
import {knownItemQueries, rankOf, scoreKnownItems} from './known-items.ts';
import {serveBuild, type StaticServer} from './serve.ts';
import {pagefindBin, throttleLikeAPhone} from './search.ts';
import {INDEXER, RESULTS, SITE, THEME, docusaurusBin, siteVersionOf} from './workspaces.ts';

const EASYOPS = '@easyops-cn/docusaurus-search-local@0.55.3';
/**
 * The lunr plugin's options on every site: hashed file names (a served index is cached like the
 * site's assets), and the pages plugin's pages indexed (its default leaves them out; ours indexes
 * them): both engines answer from the same pages, which the known-item queries are made of.
 */
const EASYOPS_OPTIONS = {hashed: true, indexPages: true};

type Engine = 'ours' | 'easyops (lunr)' | 'pagefind';
const ENGINES: Engine[] = ['ours', 'easyops (lunr)', 'pagefind'];

interface Site {
  name: 'versioned-blog' | 'two-locales' | 'docs-root' | 'classic-ts' | 'ours';
  baseUrl: string;
  locales: string[];
  /** Where the reader starts a search. */
  page: string;
  /** A heading word and the same word with a typo, and the page each should find first. */
  queries: {q: string; expect: string}[];
  /** The lunr plugin's options this site needs. */
  easyops: Record<string, unknown>;
}

const SITES: Site[] = [
  {
    name: 'versioned-blog', baseUrl: '/', locales: ['en'], page: '/docs/intro',
    queries: [{q: 'setup', expect: '/docs/guide/setup'}, {q: 'setpu', expect: '/docs/guide/setup'}],
    easyops: {},
  },
  {
    name: 'two-locales', baseUrl: '/docs-site/', locales: ['en', 'fr'], page: '/docs-site/docs/intro',
    queries: [{q: 'readings', expect: '/docs-site/docs/readings'}, {q: 'readngs', expect: '/docs-site/docs/readings'}],
    easyops: {language: ['en', 'fr']},
  },
  {
    name: 'docs-root', baseUrl: '/', locales: ['en'], page: '/',
    queries: [{q: 'endpoints', expect: '/reference/endpoints/'}, {q: 'endpoitns', expect: '/reference/endpoints/'}],
    easyops: {docsRouteBasePath: '/', indexBlog: false},
  },
  {
    name: 'classic-ts', baseUrl: '/', locales: ['en'], page: '/docs/intro',
    queries: [{q: 'standalone', expect: '/docs/tutorial-basics/create-a-page'}, {q: 'standlone', expect: '/docs/tutorial-basics/create-a-page'}],
    easyops: {},
  },
  {
    // This repository's site: the lunr plugin comes from docs-bench's own dependencies, so that it
    // shares the site's Docusaurus packages.
    name: 'ours', baseUrl: '/', locales: ['en'], page: '/docs/introduction',
    queries: [{q: 'batteries', expect: '/docs/v2/batteries'}, {q: 'batteires', expect: '/docs/v2/batteries'}],
    easyops: {indexBlog: false},
  },
];

/**
 * The config our site builds with for a variant: its own for `ours`; otherwise a file next to it
 * (removed after the build) that imports it and swaps the theme's entry for nothing or the lunr plugin.
 */
async function ourSiteConfig(variant: Variant, easyops: Record<string, unknown>): Promise<string | undefined> {
  if (variant === 'ours') return undefined;
  const file = path.join(SITE, `docusaurus.bench-${variant}.config.ts`);
  const entry = variant === 'easyops' ? `, ['@easyops-cn/docusaurus-search-local', ${JSON.stringify({...EASYOPS_OPTIONS, ...easyops})}]` : '';
  await writeFile(file, [
    "import config from './docusaurus.config';",
    "const isOurTheme = (entry: unknown) => (Array.isArray(entry) ? entry[0] : entry) === 'docusaurus-theme-docs-search';",
    // Without a search the home page's link to /search is broken: a warning, not a failed build.
    `export default {...config, onBrokenLinks: 'warn', themes: [...(config.themes ?? []).filter((entry) => !isOurTheme(entry))${entry}]};`,
    '',
  ].join('\n'));
  return file;
}

/** Builds our site's variant into `out`; the time it took. */
async function buildOurSite(site: Site, variant: Variant, out: string): Promise<number> {
  const config = await ourSiteConfig(variant, site.easyops);
  try {
    await rm(out, {recursive: true, force: true});
    const args = [docusaurusBin(), 'build', SITE, '--out-dir', out, ...(config ? ['--config', config] : [])];
    return run(process.execPath, args, SITE, {DOCUSAURUS_NO_PERSISTENT_CACHE: 'true'}).ms;
  } finally {
    if (config) await rm(config, {force: true});
  }
}

type Variant = 'none' | 'ours' | 'easyops';

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): {ms: number; stdout: string} {
  const started = performance.now();
  const result = spawnSync(command, args, {cwd, env: {...process.env, ...env}, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024});
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${result.stdout}\n${result.stderr}`);
  return {ms: performance.now() - started, stdout: result.stdout};
}


async function install(dir: string): Promise<void> {
  if (existsSync(path.join(dir, 'node_modules', '@easyops-cn'))) return;
  // The theme and its two companions (packages of their own, as on the registry), packed from
  // this repository and installed together: npm takes the tarballs for the theme's dependencies.
  const {stdout} = run('npm', ['pack', '--json', '--pack-destination', dir, '--workspace', 'docs-search', '--workspace', 'docs-indexer', '--workspace', 'docusaurus-theme-docs-search'], path.join(THEME, '..', '..'));
  // (the prepack scripts' own lines come first)
  const packed = JSON.parse(stdout.slice(stdout.indexOf('\n[') + 1)) as {filename: string}[];
  await writeFile(path.join(dir, 'package.json'), '{"private": true}\n');
  const core = siteVersionOf('@docusaurus/core');
  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', ...packed.map((p) => `./${p.filename}`), EASYOPS,
    `@docusaurus/core@${core}`, `@docusaurus/preset-classic@${core}`, `@docusaurus/faster@${core}`,
    `react@${siteVersionOf('react')}`, `react-dom@${siteVersionOf('react-dom')}`], dir);
}

/** The site's sources with the variant's search line (and none of the other). */
async function copySite(site: Site, variant: Variant, to: string): Promise<void> {
  const from = site.name === 'classic-ts' ? path.join(THEME, 'e2e', 'classic-ts') : path.join(INDEXER, 'test', 'sites', site.name);
  await rm(to, {recursive: true, force: true});
  await cp(from, to, {recursive: true, filter: (file) => !/[\\/](html|\.docusaurus|build|node_modules)$/.test(file)});
  const file = path.join(to, site.name === 'classic-ts' ? 'docusaurus.config.ts' : 'docusaurus.config.js');
  const line =
    variant === 'ours' ? "themes: ['docusaurus-theme-docs-search']," :
    variant === 'easyops' ? `themes: [['@easyops-cn/docusaurus-search-local', ${JSON.stringify({...EASYOPS_OPTIONS, ...site.easyops})}]],` : '';
  let config = (await readFile(file, 'utf8')).replace("  themes: ['docusaurus-theme-docs-search'],\n", '');
  config = config.replace(/^(export default \{|const config: Config = \{)$/m, (m) => `${m}\n  ${line}`);
  await writeFile(file, config);
}

interface BuildFigures {
  ms: Record<Variant | 'pagefind', number>;
}

/**
 * Each variant built `rounds` times, in turn (none, ours, lunr, none, …), keeping the fastest:
 * one build of these small sites varies by a second or two, about what the search adds.
 */
async function buildAll(dir: string, site: Site, rounds: number): Promise<BuildFigures> {
  const docusaurus = path.join(dir, 'node_modules', '@docusaurus', 'core', 'bin', 'docusaurus.mjs');
  const ms = {none: Infinity, ours: Infinity, easyops: Infinity, pagefind: Infinity} as BuildFigures['ms'];
  for (let round = 0; round < rounds; round += 1) {
    for (const variant of ['none', 'ours', 'easyops'] as const) {
      const siteDir = path.join(dir, 'sites', `${site.name}-${variant}`);
      if (site.name === 'ours') {
        ms[variant] = Math.min(ms[variant], await buildOurSite(site, variant, path.join(siteDir, 'build')));
        continue;
      }
      await copySite(site, variant, siteDir);
      ms[variant] = Math.min(ms[variant], run(process.execPath, [docusaurus, 'build', siteDir], dir, {DOCUSAURUS_NO_PERSISTENT_CACHE: 'true'}).ms);
    }
    // Pagefind indexes the build without search, as a site owner runs it after `docusaurus build`.
    const plain = path.join(dir, 'sites', `${site.name}-none`, 'build');
    ms.pagefind = Math.min(ms.pagefind, run(process.execPath, [pagefindBin(), '--site', plain, '--silent'], dir).ms);
  }
  return {ms};
}

/** A page's path as the three engines spell it (Pagefind gives the built file's: `.html`, `index`). */
const samePage = (a: string, b: string) => {
  const clean = (p: string) => p.replace(/\.html$/, '').replace(/\/index$/, '').replace(/\/$/, '');
  return a !== '' && clean(a) === clean(b);
};

interface Answer {
  ms: number;
  bytes: number;
  first: string;
}

/** One cold search: a fresh context, throttled, from the start of the search to the first answer. */
async function coldAnswer(browser: Browser, origin: string, site: Site, engine: Engine, q: string): Promise<Answer> {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(`${origin}${site.page}`);
    await page.locator('html[data-has-hydrated="true"]').waitFor({state: 'attached'});
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await throttleLikeAPhone(cdp);
    let bytes = 0;
    cdp.on('Network.loadingFinished', (e: {encodedDataLength: number}) => (bytes += e.encodedDataLength));
    const started = Date.now();
    let first = '';
    let answered = true;
    if (engine === 'pagefind') {
      first = await page.evaluate(async ({base, query}) => {
        const pf = await import(`${base}pagefind/pagefind.js`);
        const found = await pf.search(query);
        return found.results[0] ? new URL((await found.results[0].data()).url, location.href).pathname : '';
      }, {base: site.baseUrl, query: q});
      answered = first !== '';
    } else if (engine === 'ours') {
      await page.locator('.DocSearch-Button').click();
      await page.locator('input.DocSearch-Input').fill(q);
      answered = await page.locator('.DocSearch-Hit a').first().waitFor({timeout: NO_ANSWER_MS}).then(() => true, () => false);
    } else {
      await page.locator('input.navbar__search-input').click();
      await page.locator('input.navbar__search-input').fill(q);
      answered = await page.locator('[class*="suggestion_"]').first().waitFor({timeout: NO_ANSWER_MS}).then(() => true, () => false);
    }
    const ms = answered ? Date.now() - started : Number.NaN;
    if (!answered) return {ms, bytes, first: ''};
    await new Promise((r) => setTimeout(r, 100));
    const downloaded = bytes;
    await cdp.send('Emulation.setCPUThrottlingRate', {rate: 1});
    if (engine === 'ours') {
      // The modal's hits keep their URL in data-href (no link inside an option), the early box's in href.
      const link = page.locator('.DocSearch-Hit a').first();
      first = new URL((await link.getAttribute('data-href')) ?? (await link.getAttribute('href')) ?? '', origin).pathname;
    } else if (engine === 'easyops (lunr)') {
      const before = page.url();
      await page.locator('[class*="suggestion_"]').first().click();
      await page.waitForURL((url) => url.href !== before, {timeout: 10_000}).catch(() => undefined);
      first = new URL(page.url()).pathname;
    }
    return {ms, bytes: downloaded, first};
  } finally {
    await context.close();
  }
}

/** The phone budget of the issue: first paint to first hit, on a throttled phone. */
const PAINT_TO_HIT_BUDGET_MS = 2_000;

/** When the phone reader taps the search field: at the first paint, or once the page has hydrated. */
type Tap = 'paint' | 'hydrated';

/** The phone reader's engines: what the reader taps, and what shows a hit. */
const PHONE_UI: Record<Exclude<Engine, 'pagefind'>, {tap: string; hit: string}> = {
  ours: {tap: '.DocSearch-Button', hit: '.DocSearch-Hit'},
  // The lunr plugin's navbar field (server-rendered) and its drop-down's suggestions.
  'easyops (lunr)': {tap: 'input.navbar__search-input', hit: '[class*="suggestion_"]'},
};

/** One phone sample: first paint to first hit (NaN: none), and why there was none. */
interface PhoneSample {
  ms: number;
  why?: string;
}

/** After hydration, a hit that has not shown in this long will not: the sample counts as no answer. */
const AFTER_HYDRATION_MS = 10_000;

/**
 * A reader on a throttled phone (throttled from the navigation on) who taps the engine's search
 * field (ours: the search button; the lunr plugin: its navbar field) at the first paint, or once
 * the page has hydrated (Docusaurus's `data-has-hydrated`), and types `q`: first contentful paint
 * to the first hit on screen (ours: the early box's or the modal's), both read in the page.
 */
async function paintToFirstHit(browser: Browser, origin: string, site: Site, engine: Exclude<Engine, 'pagefind'>, tap: Tap, q: string): Promise<PhoneSample> {
  const ui = PHONE_UI[engine];
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.addInitScript((hit) => {
      const w = window as unknown as {__firstHitAt?: number};
      new MutationObserver((_, observer) => {
        if (document.querySelector(hit)) {
          w.__firstHitAt = performance.now();
          observer.disconnect();
        }
      }).observe(document, {childList: true, subtree: true});
    }, ui.hit);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await throttleLikeAPhone(cdp);
    await page.goto(`${origin}${site.page}`, {waitUntil: 'commit'});
    await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0, undefined, {polling: 10, timeout: 60_000});
    const hydrated = page.locator('html[data-has-hydrated="true"]');
    if (tap === 'hydrated') await hydrated.waitFor({state: 'attached', timeout: 60_000});
    await page.locator(ui.tap).click();
    await page.keyboard.type(q);
    // The difference is computed where both times are read, in the page's own wait; the wait ends
    // AFTER_HYDRATION_MS after hydration at the latest.
    const answered = page
      .waitForFunction(
        () => {
          const at = (window as unknown as {__firstHitAt?: number}).__firstHitAt;
          const paint = performance.getEntriesByName('first-contentful-paint')[0];
          return at !== undefined && paint ? at - paint.startTime : false;
        },
        undefined,
        {timeout: NO_ANSWER_MS},
      )
      .then(async (handle) => Number(await handle.jsonValue()), () => Number.NaN);
    const late = hydrated
      .waitFor({state: 'attached', timeout: NO_ANSWER_MS})
      .then(() => new Promise<void>((r) => setTimeout(r, AFTER_HYDRATION_MS).unref()), () => undefined)
      .then(() => 'late' as const);
    const outcome = await Promise.race([answered, late]);
    if (typeof outcome === 'number' && !Number.isNaN(outcome)) return {ms: outcome};
    // No hit: what the focused field holds tells whether the reader's keys reached it.
    const field = await page.evaluate(() => {
      const active = document.activeElement;
      return active instanceof HTMLInputElement ? active.value : null;
    });
    return {ms: Number.NaN, why: `no hit (waited until ${AFTER_HYDRATION_MS / 1000} s after hydration, ${NO_ANSWER_MS / 1000} s at most); the focused field holds ${field === null ? 'nothing (no field has focus)' : JSON.stringify(field)}`};
  } catch (error) {
    // One failed sample (no hit in time, or the page went away) counts as no answer.
    return {ms: Number.NaN, why: String(error).split('\n')[0]};
  } finally {
    await context.close();
  }
}

/** A query of site/search-eval/queries.json: its set (`base` when absent) and the pages that answer it. */
interface EvalQuery {
  q: string;
  pages: string[];
  set?: string;
}

/** The first 10 pages each engine shows for each query, in order (anchors dropped), warm. */
async function shownPages(browser: Browser, origin: string, site: Site, engine: Engine, queries: EvalQuery[]): Promise<string[][]> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const paths = (hrefs: string[]) => hrefs.slice(0, 10).map((h) => new URL(h, origin).pathname);
  try {
    await page.goto(`${origin}${site.page}`);
    await page.locator('html[data-has-hydrated="true"]').waitFor({state: 'attached'});
    if (engine === 'pagefind') {
      return await page.evaluate(async ({base, list}) => {
        const pf = await import(`${base}pagefind/pagefind.js`);
        const out: string[][] = [];
        for (const q of list) {
          const found = await pf.search(q);
          const top = await Promise.all(found.results.slice(0, 10).map(async (r: {data: () => Promise<{url: string}>}) => (await r.data()).url));
          out.push(top.map((u: string) => new URL(u, location.href).pathname));
        }
        return out;
      }, {base: site.baseUrl, list: queries.map((q) => q.q)});
    }
    const out: string[][] = [];
    if (engine === 'ours') {
      await page.locator('.DocSearch-Button').click();
      const input = page.locator('input.DocSearch-Input');
      for (const {q} of queries) {
        await input.fill('');
        await input.fill(q);
        // The modal answers as one types: the list once it has settled.
        await page.locator('.DocSearch-Hit a, .DocSearch-NoResults').first().waitFor({timeout: NO_ANSWER_MS}).catch(() => undefined);
        await new Promise((r) => setTimeout(r, 400));
        out.push(paths(await page.locator('.DocSearch-Hit a').evaluateAll((links) => links.map((a) => a.getAttribute('data-href') ?? a.getAttribute('href') ?? ''))));
      }
      return out;
    }
    // The lunr plugin's drop-down links no pages (it navigates on a click); its search page lists
    // the same engine's answers, in the same order, as links.
    for (const {q} of queries) {
      await page.goto(`${origin}${site.baseUrl}search?q=${encodeURIComponent(q)}`);
      await page.waitForFunction(() => document.querySelector('article[class*="searchResultItem"] a') !== null || /no (documents|results)/i.test(document.body.innerText), undefined, {timeout: NO_ANSWER_MS}).catch(() => undefined);
      await new Promise((r) => setTimeout(r, 200));
      out.push(paths(await page.locator('article[class*="searchResultItem"] h2 a, article[class*="searchResultItem"] > a').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''))));
    }
    return out;
  } finally {
    await context.close();
  }
}

/** MRR@10 of each set: the mean of 1/rank of the first shown page that answers (0 past 10). */
function mrrBySet(queries: EvalQuery[], shown: string[][]): Record<string, number> {
  const sums = new Map<string, {sum: number; n: number}>();
  queries.forEach((query, i) => {
    const rank = (shown[i] ?? []).findIndex((p) => query.pages.some((want) => samePage(p, want))) + 1;
    const set = query.set ?? 'base';
    const entry = sums.get(set) ?? {sum: 0, n: 0};
    sums.set(set, {sum: entry.sum + (rank > 0 ? 1 / rank : 0), n: entry.n + 1});
  });
  return Object.fromEntries([...sums].map(([set, {sum, n}]) => [set, Number((sum / n).toFixed(3))]));
}

/**
 * Cold answers per query (a fresh browser context each), and rounds of the phone readers; the
 * tables give medians. `--samples N` sets it (default 3): more on a quiet machine when a median
 * sits near a budget.
 */
const argSamples = process.argv.indexOf('--samples');
const COLD_SAMPLES = argSamples > 0 ? Number(process.argv[argSamples + 1]) : 3;

/** A search with no answer on screen after this long counts as none. */
const NO_ANSWER_MS = 20_000;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? 0;

/** The variant whose build an engine searches (Pagefind indexes the build without search). */
const variantOf = (engine: Engine): Variant => (engine === 'ours' ? 'ours' : engine === 'pagefind' ? 'none' : 'easyops');

/** Serves a variant's build under the site's baseUrl. */
async function serveVariant(dir: string, site: Site, variant: Variant): Promise<StaticServer> {
  const build = path.join(dir, 'sites', `${site.name}-${variant}`, 'build');
  const served = path.join(dir, 'served', `${site.name}-${variant}`);
  await rm(served, {recursive: true, force: true});
  await mkdir(path.dirname(served), {recursive: true});
  if (site.baseUrl === '/') {
    await symlink(build, served);
  } else {
    await mkdir(served);
    await symlink(build, path.join(served, site.baseUrl.replace(/^\/|\/$/g, '')));
  }
  return serveBuild(served);
}

/** The phone readers, in the order each round takes them: each engine tapped at the first paint, then once hydrated. */
const PHONE_READERS: {engine: Exclude<Engine, 'pagefind'>; tap: Tap}[] = [
  {engine: 'ours', tap: 'paint'},
  {engine: 'easyops (lunr)', tap: 'paint'},
  {engine: 'ours', tap: 'hydrated'},
  {engine: 'easyops (lunr)', tap: 'hydrated'},
];

interface PhoneFigures {
  /** Median of the samples, NaN sorting last (Infinity: most samples had no hit). */
  medianMs: number;
  samplesMs: number[];
  /** Why samples had no hit (distinct reasons). */
  noHit: string[];
}

/** The 1-minute load average, read at the start and the end of a measurement. */
const load = () => Number(os.loadavg()[0]!.toFixed(1));

const formatMs = (ms: number) => (Number.isFinite(ms) ? `${Math.round(ms).toLocaleString('en')} ms` : 'no answer');
const ratio = (a: number, b: number) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? `${(a / b).toFixed(2)}×` : '-');

async function main(): Promise<void> {
  const argRounds = process.argv.indexOf('--rounds');
  const rounds = argRounds > 0 ? Number(process.argv[argRounds + 1]) : 3;
  const argDir = process.argv.indexOf('--dir');
  const kept = argDir > 0 ? path.resolve(process.argv[argDir + 1]!) : undefined;
  const argSites = process.argv.indexOf('--sites');
  const names = argSites > 0 ? (process.argv[argSites + 1] ?? '').split(',').filter(Boolean) : SITES.map((s) => s.name);
  const unknown = names.filter((name) => !SITES.some((s) => s.name === name));
  if (unknown.length > 0 || names.length === 0) {
    console.error(`--sites: ${unknown.join(', ') || 'none given'}: not one of ${SITES.map((s) => s.name).join(', ')}`);
    process.exit(1);
  }
  if (!Number.isInteger(COLD_SAMPLES) || COLD_SAMPLES < 1) {
    console.error('--samples: a whole number of 1 or more');
    process.exit(1);
  }
  const sites = SITES.filter((s) => names.includes(s.name));
  const dir = kept ?? (await mkdtemp(path.join(tmpdir(), 'bench-theme-')));
  await mkdir(path.join(dir, 'sites'), {recursive: true});
  const rows: string[][] = [];
  const relevanceRows: string[][] = [];
  const knownRows: string[][] = [];
  const behindLines: string[] = [];
  const phoneRows: string[][] = [];
  const evalQueries = (JSON.parse(await readFile(path.join(SITE, 'search-eval', 'queries.json'), 'utf8')) as {queries: EvalQuery[]}).queries;
  const json: unknown[] = [];
  const browser = await chromium.launch({executablePath: CHROME_PATH, args: CHROME_ARGS});
  try {
    if (sites.some((s) => s.name !== 'ours')) {
      console.log(`installing the packed theme, Docusaurus and ${EASYOPS} in ${dir}`);
      await install(dir);
    }
    for (const site of sites) {
      console.log(`${site.name}: building without search, with ours, with lunr; Pagefind over the first`);
      const builds = await buildAll(dir, site, rounds);
      // The site's own known-item queries, from its build without search (the same pages).
      const items = await knownItemQueries(path.join(dir, 'sites', `${site.name}-none`, 'build'), site.page);
      console.log(`${site.name}: ${items.length} known-item queries (${items.filter((i) => i.kind === 'title').length} titles, ${items.filter((i) => i.kind === 'phrase').length} phrases)`);
      const servers = new Map<Variant, StaticServer>();
      try {
        for (const variant of ['none', 'ours', 'easyops'] as const) servers.set(variant, await serveVariant(dir, site, variant));
        const ranks = new Map<Engine, number[]>();
        const shownBy = new Map<Engine, string[][]>();
        const siteFigures: Record<string, unknown>[] = [];
        for (const engine of ENGINES) {
          const variant = variantOf(engine);
          const server = servers.get(variant)!;
          const answers: Answer[] = [];
          const timings: Answer[] = [];
          for (const {q} of site.queries) {
            const samples: Answer[] = [];
            for (let i = 0; i < COLD_SAMPLES; i += 1) samples.push(await coldAnswer(browser, server.url, site, engine, q));
            answers.push(samples[0]!);
            timings.push(...samples);
          }
          const added = engine === 'pagefind' ? builds.ms.pagefind : builds.ms[variant] - builds.ms.none;
          const right = site.queries.map(({expect}, i) => samePage(answers[i]!.first, expect));
          // Warm, in one page: the known-item queries, and on our site its query sets too.
          const asked: EvalQuery[] = [...items.map((item) => ({q: item.q, pages: item.pages, set: `known: ${item.kind}`})), ...(site.name === 'ours' ? evalQueries : [])];
          const shown = await shownPages(browser, server.url, site, engine, asked).catch((error: unknown) => {
            console.error(`${site.name}, ${engine}: relevance not measured: ${String(error).split('\n')[0]}`);
            return undefined;
          });
          const known = shown ? scoreKnownItems(items, shown) : undefined;
          if (shown) {
            ranks.set(engine, items.map((item, i) => rankOf(item, shown[i] ?? [])));
            shownBy.set(engine, shown);
          }
          const mrr10 = shown && site.name === 'ours' ? mrrBySet(evalQueries, shown.slice(items.length)) : undefined;
          if (mrr10) relevanceRows.push([site.name, engine, ...Object.entries(mrr10).map(([set, value]) => `${set} ${value.toFixed(3)}`)]);
          if (known) {
            knownRows.push([site.name, engine, ...(['title', 'phrase'] as const).map((kind) => `${known[kind].first} / ${known[kind].n}, ${known[kind].mrr10.toFixed(3)}`)]);
          }
          const figures = {
            site: site.name,
            engine,
            buildAddedMs: Math.round(added),
            bytesBeforeFirstAnswer: Math.round(median(timings.map((a) => a.bytes))),
            // NaN (no answer) sorts last: the median is a number when most queries were answered.
            coldFirstAnswerMs: Math.round(median(timings.map((a) => (Number.isNaN(a.ms) ? Infinity : a.ms)))),
            firstIsExpected: {heading: right[0], typo: right[1]},
            firsts: answers.map((a) => a.first),
            ...(known ? {knownItems: known} : {}),
            ...(mrr10 ? {mrr10} : {}),
          };
          siteFigures.push(figures);
          rows.push([
            site.name,
            engine,
            `${(added / 1000).toFixed(1)} s`,
            `${(figures.bytesBeforeFirstAnswer / 1024).toFixed(1)} KB`,
            !Number.isFinite(figures.coldFirstAnswerMs) ? 'no answer' : `${figures.coldFirstAnswerMs} ms`,
            ...right.map((ok, i) => (ok ? 'yes' : answers[i]!.first === '' ? 'no answer' : 'no')),
          ]);
        }
        // The known-item queries where ours ranks the page lower than the lunr plugin does.
        const ours = ranks.get('ours');
        const lunr = ranks.get('easyops (lunr)');
        const rankText = (r: number) => (r === 0 ? 'not in 10' : `${r}`);
        items.forEach((item, i) => {
          const a = ours?.[i] ?? 0;
          const b = lunr?.[i] ?? 0;
          if (ours && lunr && b > 0 && (a === 0 || a > b)) {
            const top = (shownBy.get('ours')?.[i] ?? []).slice(0, 3).join(', ') || 'nothing';
            behindLines.push(`- ${site.name}, ${item.kind} "${item.q}" (${item.pages.join(' or ')}): ours ${rankText(a)}, lunr ${b}; ours shows first ${top}`);
          }
        });
        // The phone readers, interleaved: round i of each reader before round i + 1 of any.
        const phone = new Map<string, {samples: PhoneSample[]}>();
        const loadBefore = load();
        console.log(`${site.name}: phone readers, ${COLD_SAMPLES} rounds (load average ${loadBefore})`);
        for (let round = 0; round < COLD_SAMPLES; round += 1) {
          for (const reader of PHONE_READERS) {
            const key = `${reader.engine}@${reader.tap}`;
            const entry = phone.get(key) ?? {samples: []};
            phone.set(key, entry);
            entry.samples.push(await paintToFirstHit(browser, servers.get(variantOf(reader.engine))!.url, site, reader.engine, reader.tap, site.queries[0]!.q));
          }
        }
        const loadAfter = load();
        const phoneFigures = Object.fromEntries(
          [...phone].map(([key, {samples}]): [string, PhoneFigures] => [
            key,
            {
              medianMs: median(samples.map((s) => (Number.isNaN(s.ms) ? Infinity : s.ms))),
              samplesMs: samples.map((s) => Math.round(s.ms)),
              noHit: [...new Set(samples.flatMap((s) => (s.why ? [s.why] : [])))],
            },
          ]),
        );
        const at = (key: string) => phoneFigures[key]?.medianMs ?? Number.NaN;
        for (const [key, figures] of Object.entries(phoneFigures)) {
          for (const why of figures.noHit) console.error(`${site.name}, ${key}: ${why}`);
        }
        const oursPaint = at('ours@paint');
        phoneRows.push([
          site.name,
          `${formatMs(oursPaint)}${Number.isFinite(oursPaint) && oursPaint > PAINT_TO_HIT_BUDGET_MS ? ' (over budget)' : ''}`,
          formatMs(at('easyops (lunr)@paint')),
          formatMs(at('ours@hydrated')),
          formatMs(at('easyops (lunr)@hydrated')),
          ratio(at('ours@hydrated'), at('easyops (lunr)@hydrated')),
          ratio(oursPaint, at('easyops (lunr)@hydrated')),
          `${loadBefore} → ${loadAfter}`,
        ]);
        json.push(...siteFigures);
        json.push({
          site: site.name,
          knownItemQueries: items.map((item, i) => ({...item, rank: Object.fromEntries([...ranks].map(([engine, list]) => [engine, list[i]]))})),
          phone: {query: site.queries[0]!.q, loadAverage: [loadBefore, loadAfter], readers: phoneFigures},
        });
      } finally {
        for (const server of servers.values()) await server.close();
      }
    }
  } finally {
    await browser.close();
    if (!kept) await rm(dir, {recursive: true, force: true});
  }
  const markdown = (header: string[], body: string[][]) => [header, header.map(() => '---'), ...body].map((r) => `| ${r.join(' | ')} |`).join('\n');
  console.log(`\n${markdown(['site', 'search', 'build time added', 'bytes before first answer', 'cold first answer', 'heading word: first hit right', 'typo: first hit right'], rows)}\n`);
  if (knownRows.length > 0) {
    console.log(`${markdown(['site', 'search', 'known item, title: first / queries, MRR@10', 'known item, distinctive phrase: first / queries, MRR@10'], knownRows)}\n`);
    console.log(behindLines.length > 0 ? `Known-item queries where ours ranks the page below the lunr plugin:\n${behindLines.join('\n')}\n` : 'No known-item query where ours ranks the page below the lunr plugin.\n');
  }
  if (relevanceRows.length > 0) {
    const sets = ['site', 'search', 'MRR@10 by query set (site/search-eval/queries.json)'];
    console.log(`${markdown(sets, relevanceRows.map((r) => [r[0]!, r[1]!, r.slice(2).join(', ')]))}\n`);
  }
  if (phoneRows.length > 0) {
    console.log(`${markdown(['site', `ours, tap at first paint (budget ${PAINT_TO_HIT_BUDGET_MS} ms)`, 'lunr, tap at first paint', 'ours, tap once hydrated', 'lunr, tap once hydrated', 'ours / lunr, both once hydrated', 'ours at paint / lunr once hydrated', 'load average (1 min), start → end'], phoneRows)}\n`);
  }
  console.log(JSON.stringify(json, null, 2));
  await mkdir(RESULTS, {recursive: true});
  await writeFile(path.join(RESULTS, 'theme-compare.json'), `${JSON.stringify(json, null, 2)}\n`);
}

await main();
