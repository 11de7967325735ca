/**
 * `npm run bench:theme`: docusaurus-theme-docs-search side by side with
 * @easyops-cn/docusaurus-search-local (lunr, the most used local search plugin) and Pagefind, on
 * the fixture sites (indexer/test/sites: versioned-blog, two-locales, docs-root; and the classic
 * TypeScript site of the theme's browser tests), in one run:
 *
 * - build time added: a cold `docusaurus build` with the search (persistent cache off) minus the
 *   same build without it, fastest of --rounds builds each; for Pagefind, its indexing run over
 *   the build without search;
 * - bytes before the first answer: everything downloaded from the moment the reader starts a
 *   search (click on our button or theirs; Pagefind's module import) until the first answer
 *   shows, gzipped as served (serve.ts), cold (a fresh browser context per query);
 * - cold first answer: that moment to the first hit on screen (Pagefind: its first result's
 *   data), with search.ts's phone throttling (150 ms RTT, 1.6 Mbps, CPU 4x);
 * - relevance: whether the first answer is the expected page, for a heading word and the same
 *   word with a typo (the theme's browser tests' queries; the sites have no real query set; our
 *   own site's query sets are judged by `npm run search:eval` and search.ts).
 *
 *   node --import tsx indexer/bench/theme-compare.ts [--rounds 3] [--dir FOLDER] (FOLDER kept and reused: its installs)
 *
 * Installs the packed theme, Docusaurus and the lunr plugin (from npm's cache when it holds them)
 * in a temporary folder; Pagefind is this workspace's dependency.
 */
import {spawnSync} from 'node:child_process';
import {existsSync} from 'node:fs';
import {cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {chromium, type Browser} from '@playwright/test';
import {CHROME_ARGS, CHROME_PATH} from 'site/chrome';
import {serveBuild} from './serve.ts';
import {pagefindBin, throttleLikeAPhone} from './search.ts';
import {INDEXER, RESULTS, THEME, siteVersionOf} from './workspaces.ts';

const EASYOPS = '@easyops-cn/docusaurus-search-local@0.55.3';

type Engine = 'ours' | 'easyops (lunr)' | 'pagefind';
const ENGINES: Engine[] = ['ours', 'easyops (lunr)', 'pagefind'];

interface Site {
  name: 'versioned-blog' | 'two-locales' | 'docs-root' | 'classic-ts';
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
];

type Variant = 'none' | 'ours' | 'easyops';

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): {ms: number; stdout: string} {
  const started = performance.now();
  const result = spawnSync(command, args, {cwd, env: {...process.env, ...env}, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024});
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${result.stdout}\n${result.stderr}`);
  return {ms: performance.now() - started, stdout: result.stdout};
}


async function install(dir: string): Promise<void> {
  if (existsSync(path.join(dir, 'node_modules', '@easyops-cn'))) return;
  const packed = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', dir], THEME).stdout) as {filename: string}[];
  await writeFile(path.join(dir, 'package.json'), '{"private": true}\n');
  const core = siteVersionOf('@docusaurus/core');
  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', `./${packed[0]!.filename}`, EASYOPS,
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
    variant === 'easyops' ? `themes: [['@easyops-cn/docusaurus-search-local', ${JSON.stringify({hashed: true, ...site.easyops})}]],` : '';
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
      first = new URL((await page.locator('.DocSearch-Hit a').first().getAttribute('href')) ?? '', origin).pathname;
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

/** Cold answers per query (a fresh browser context each); the table gives the median of all of a site's. */
const COLD_SAMPLES = 3;

/** A search with no answer on screen after this long counts as none. */
const NO_ANSWER_MS = 20_000;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? 0;

async function main(): Promise<void> {
  const argRounds = process.argv.indexOf('--rounds');
  const rounds = argRounds > 0 ? Number(process.argv[argRounds + 1]) : 3;
  const argDir = process.argv.indexOf('--dir');
  const kept = argDir > 0 ? path.resolve(process.argv[argDir + 1]!) : undefined;
  const dir = kept ?? (await mkdtemp(path.join(tmpdir(), 'bench-theme-')));
  await mkdir(path.join(dir, 'sites'), {recursive: true});
  const rows: string[][] = [];
  const json: unknown[] = [];
  const browser = await chromium.launch({executablePath: CHROME_PATH, args: CHROME_ARGS});
  try {
    console.log(`installing the packed theme, Docusaurus and ${EASYOPS} in ${dir}`);
    await install(dir);
    for (const site of SITES) {
      console.log(`${site.name}: building without search, with ours, with lunr; Pagefind over the first`);
      const builds = await buildAll(dir, site, rounds);
      for (const engine of ENGINES) {
        const variant = engine === 'ours' ? 'ours' : engine === 'pagefind' ? 'none' : 'easyops';
        const build = path.join(dir, 'sites', `${site.name}-${variant}`, 'build');
        // The build served under its baseUrl.
        const served = path.join(dir, 'served', `${site.name}-${variant}`);
        await rm(served, {recursive: true, force: true});
        await mkdir(path.dirname(served), {recursive: true});
        if (site.baseUrl === '/') {
          await symlink(build, served);
        } else {
          await mkdir(served);
          await symlink(build, path.join(served, site.baseUrl.replace(/^\/|\/$/g, '')));
        }
        const server = await serveBuild(served);
        try {
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
          const figures = {
            site: site.name,
            engine,
            buildAddedMs: Math.round(added),
            bytesBeforeFirstAnswer: Math.round(median(timings.map((a) => a.bytes))),
            // NaN (no answer) sorts last: the median is a number when most queries were answered.
            coldFirstAnswerMs: Math.round(median(timings.map((a) => (Number.isNaN(a.ms) ? Infinity : a.ms)))),
            firstIsExpected: {heading: right[0], typo: right[1]},
            firsts: answers.map((a) => a.first),
          };
          json.push(figures);
          rows.push([
            site.name,
            engine,
            `${(added / 1000).toFixed(1)} s`,
            `${(figures.bytesBeforeFirstAnswer / 1024).toFixed(1)} KB`,
            !Number.isFinite(figures.coldFirstAnswerMs) ? 'no answer' : `${figures.coldFirstAnswerMs} ms`,
            ...right.map((ok, i) => (ok ? 'yes' : answers[i]!.first === '' ? 'no answer' : 'no')),
          ]);
        } finally {
          await server.close();
        }
      }
    }
  } finally {
    await browser.close();
    if (!kept) await rm(dir, {recursive: true, force: true});
  }
  const header = ['site', 'search', 'build time added', 'bytes before first answer', 'cold first answer', 'heading word: first hit right', 'typo: first hit right'];
  const table = [header, header.map(() => '---'), ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');
  console.log(`\n${table}\n`);
  console.log(JSON.stringify(json, null, 2));
  await mkdir(RESULTS, {recursive: true});
  await writeFile(path.join(RESULTS, 'theme-compare.json'), `${JSON.stringify(json, null, 2)}\n`);
}

await main();
