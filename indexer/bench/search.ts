/**
 * Search benchmark (issue 16): our local search side by side with Pagefind, indexing the same
 * build, in one run, at 23 pages (our site), 1,000 and 5,000 pages (our pages copied with
 * altered words). For each engine and size it prints:
 * - index bytes (every file of the index on disk, raw and gzip),
 * - bytes before the first answer and the cold first answer: a fresh browser context (empty
 *   cache) under Lighthouse's mobile throttling (150 ms RTT, 1.6 Mbit/s down, 750 kbit/s up,
 *   CPU ×4, set through CDP) loads the engine's code and answers one query, reading what its UI
 *   shows (ours: the modal's 20 hits with their snippets; Pagefind: the data of its first
 *   PAGEFIND_SHOWN results, its UI's first page); median of the cold samples, taken in rounds
 *   (one sample of every engine per round, their order rotating) so that the machine's load
 *   weighs on every engine alike,
 * - warm query p50/p95: unthrottled, every prefix of every search:eval query as a reader types
 *   it, after one pass that loaded what they read,
 * and each figure as a ratio to Pagefind's. Numbers are printed, not asserted.
 * Ours is measured in both forms: one file (format 2) and sharded (format 3), and, up to 1,000
 * pages, beside the engine as it was before issue 16 (BASELINE_COMMIT: its docs-search taken
 * with `git archive`, its one-file index written from the same records by its own packRecords,
 * its client bundled the same way), as ratios new / old. Our client is bundled as the site's build
 * splits it (esbuild, `splitting`): the sharded index's reader is a chunk of its own, imported
 * only for a manifest; the gzip size of the code each form loads is printed.
 *
 *   node --import tsx indexer/bench/search.ts [--build site/build] [--sizes 23,1000,5000] [--cold 5]
 *
 * --cold N: N cold samples per engine (the COLD_QUERIES in turn, repeated when N is larger).
 * SEARCH_BENCH_BASELINE=COMMIT: the engine to compare with (default BASELINE_COMMIT, issue 16's).
 *
 * Pagefind is the `pagefind` npm package (its binary comes in @pagefind/linux-x64): no download.
 * `benchSearch()` is exported for run.ts (`npm run bench`).
 */
import {execFileSync, spawn} from 'node:child_process';
import {mkdir, mkdtemp, readdir, readFile, rm, writeFile} from 'node:fs/promises';
import {loadavg, tmpdir} from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {gzipSync} from 'node:zlib';
import {crawl, readSynonymsFile, writeLocalIndex} from 'docs-indexer';
import {serveBuild} from './serve.ts';
import {BENCH, NODE_PATHS, SITE, SITE_BUILD} from './workspaces.ts';

/** Pagefind results whose data is loaded for the first answer (its default UI's first page). */
export const PAGEFIND_SHOWN = 5;
/** Lighthouse's mobile throttling. */
export const THROTTLING = {rttMs: 150, downKbps: 1638.4, upKbps: 750, cpu: 4} as const;
/**
 * Above this many pages one file is not measured: one cold answer takes minutes there (8 min at
 * 5,000 pages in one run; that is what the sharded form is for).
 */
export const ONE_FILE_FULL_UP_TO = 1000;
/** Queries answered cold (one fresh browser context each), in turn. */
export const COLD_QUERIES = ['battery mode', 'active power', 'token', 'firmware version', 'mdns', 'websocket subscribe', 'voltage'];

/** The engine before issue 16's changes (the "forms" queries added, the engine unchanged). */
export const BASELINE_COMMIT = process.env.SEARCH_BENCH_BASELINE ?? '114e65e';
export const BASELINE: EngineName = `before (${BASELINE_COMMIT})` as EngineName;

export type EngineName = 'ours: one file' | 'ours: sharded' | 'pagefind' | `before (${string})`;

export interface EngineFigures {
  engine: EngineName;
  /** Every file of the index (Pagefind: its search files, not its UI). */
  indexBytes: number;
  indexGzipBytes: number;
  files: number;
  /** Bytes transferred (gzip on the wire) before the first answer, median; code and index apart. */
  firstAnswerBytes: number;
  firstAnswerCodeBytes: number;
  coldMs: number;
  coldSamples: number[];
  warmP50Ms: number;
  warmP95Ms: number;
  warmQueries: number;
}

export interface SizeFigures {
  pages: number;
  records: number;
  engines: EngineFigures[];
  /** Gzip bytes of our client's code: what a one-file index loads, and the sharded reader's chunk on top. */
  code?: ClientCode;
  /** The same for the engine before issue 16 (one file only). */
  baselineCode?: ClientCode;
}

export interface ClientCode {
  /** The entry and the chunks it imports statically: the code a one-file index runs. */
  oneFileGzipBytes: number;
  /** Chunks imported dynamically (the sharded index's reader). */
  onDemandGzipBytes: number;
}

const log0 = (line: string) => process.stderr.write(`${line}\n`);

/** Pagefind's command: the package's `bin` (its exports map exposes only lib/index.js). */
export const pagefindBin = (): string => path.join(path.dirname(fileURLToPath(import.meta.resolve('pagefind'))), 'runner/bin.cjs');

/**
 * What the modal asks while a reader types every search:eval query: every other prefix and the
 * whole query (every prefix would triple the bench's time for the same percentiles).
 */
export async function typedQueries(): Promise<string[]> {
  const {queries} = JSON.parse(await readFile(path.join(SITE, 'search-eval/queries.json'), 'utf8')) as {queries: {q: string}[]};
  const out: string[] = [];
  for (const {q} of queries) for (let i = 1; i <= q.length; i++) if (i % 2 === 1 || i === q.length) out.push(q.slice(0, i));
  return out;
}

async function htmlPages(folder: string): Promise<string[]> {
  const entries = await readdir(folder, {recursive: true, withFileTypes: true});
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.html'))
    .map((e) => path.relative(folder, path.join((e as unknown as {parentPath?: string}).parentPath ?? e.path, e.name)))
    .filter((f) => f !== '404.html' && f !== 'search.html' && f !== 'index.html' && !f.startsWith('assets'))
    .sort();
}

function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/**
 * One word of copy `copy` of a page: a third of the words of 5+ letters get a suffix of two
 * letters that depends on the copy and the word, so the copies share most words, as pages of one
 * site do, and the vocabulary grows with the site.
 */
function alterWord(word: string, copy: number): string {
  const h = hash(`${copy}:${word.toLowerCase()}`);
  if (h % 3 !== 0) return word;
  return word + LETTERS[(h >>> 8) % 26]! + LETTERS[(h >>> 16) % 26]!;
}

/**
 * Alters the words of the text of the article (never tags, attributes or entities), and moves
 * the page's own URLs (canonical link, og:url, hreflang alternates) under /copy-N/: the crawler
 * takes a page's URL from them, and would count every copy as the page it was copied from.
 */
export function alterHtml(html: string, copy: number): string {
  html = html.replace(/<(?:link|meta)\b[^>]*>/g, (tag) =>
    /\brel=["']?(?:canonical|alternate)\b|\bproperty=["']?og:url\b/.test(tag) ? tag.replace(/\b((?:href|content)=["']?https?:\/\/[^/\s"'>]+)\//, `$1/copy-${copy}/`) : tag,
  );
  const start = html.indexOf('<article');
  const end = html.lastIndexOf('</article>');
  if (start < 0 || end < 0) return html;
  const article = html.slice(start, end).replace(/>([^<]+)</g, (_, text: string) => `>${text.replace(/(?<![&#\w])[A-Za-z]{5,}\b(?!;)/g, (w) => alterWord(w, copy))}<`);
  return html.slice(0, start) + article + html.slice(end);
}

/** Our pages copied under copy-N/ with altered words until `pages` pages exist. */
export async function makeAlteredBuild(source: string, pages: number, out: string): Promise<void> {
  const files = await htmlPages(source);
  if (files.length === 0) throw new Error(`no HTML pages in ${source}: build the site first`);
  const contents = await Promise.all(files.map((f) => readFile(path.join(source, f), 'utf8')));
  // The home page at the root tells the crawler the site URL.
  await writeFile(path.join(out, 'index.html'), await readFile(path.join(source, 'index.html')));
  let written = 0;
  for (let copy = 0; written < pages; copy++) {
    for (let i = 0; i < files.length && written < pages; i++) {
      const target = path.join(out, `copy-${copy}`, files[i]!);
      await mkdir(path.dirname(target), {recursive: true});
      await writeFile(target, alterHtml(contents[i]!, copy));
      written += 1;
    }
  }
}

async function folderBytes(dir: string, keep: (rel: string) => boolean = () => true): Promise<{bytes: number; gzipBytes: number; files: number}> {
  let bytes = 0;
  let gzipBytes = 0;
  let files = 0;
  for (const e of await readdir(dir, {recursive: true, withFileTypes: true})) {
    if (!e.isFile()) continue;
    const full = path.join((e as unknown as {parentPath?: string}).parentPath ?? e.path, e.name);
    if (!keep(path.relative(dir, full))) continue;
    const raw = await readFile(full);
    bytes += raw.length;
    // Pagefind's index files are gzip already (served as they are).
    gzipBytes += /\.pf_|\.pagefind$/.test(e.name) ? raw.length : gzipSync(raw).length;
    files++;
  }
  return {bytes, gzipBytes, files};
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {stdio: ['ignore', 'ignore', 'pipe']});
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${path.basename(command)} failed (${code}): ${stderr.slice(-500)}`))));
  });
}

/** Pagefind's search files (its UI files are not part of the index). */
const pagefindIndexFile = (rel: string) => !/ui|highlight|component|\.css$/.test(rel);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}
const median = (values: number[]) => percentile([...values].sort((a, b) => a - b), 0.5);

/** The page code that answers one query cold, and the warm loop, per engine. */
const ANSWER_OURS = `async (q) => {
  // the entry and the chunks it imports, fetched together (as the site's build loads a chunk group)
  const [m] = await Promise.all([import(window.__module), ...window.__chunks.map((c) => import(c))]);
  window.__client ??= m.createLocalSearchClient({indexUrl: window.__indexUrl});
  const r = (await window.__client.search({requests: [{indexName: 'bench', ...m.modalParams(q)}]})).results[0];
  // read what the modal shows: group title, the hit's title or content snippet, its page title
  let chars = 0;
  for (const h of r.hits) {
    const sn = h._snippetResult;
    chars += h._highlightResult.hierarchy.lvl0?.value.length ?? 0;
    chars += (h.type === 'content' ? sn.content?.value.length : sn.hierarchy[h.type]?.value.length) ?? 0;
    chars += sn.hierarchy.lvl1?.value.length ?? 0;
  }
  return r.hits.length + chars * 0;
}`;
const ANSWER_PAGEFIND = `async (q) => {
  if (!window.__pf) {
    window.__pf = await import('/pagefind/pagefind.js');
    // in the page's thread, as ours: throttling (network and CPU) applies to the page only
    await window.__pf.options({noWorker: true});
  }
  const s = await window.__pf.search(q);
  const data = await Promise.all(s.results.slice(0, ${PAGEFIND_SHOWN}).map((r) => r.data()));
  return s.results.length + data.length * 0;
}`;

/** THROTTLING on a page's DevTools session: network (latency, bandwidth) and CPU. */
export async function throttleLikeAPhone(cdp: import('@playwright/test').CDPSession): Promise<void> {
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: THROTTLING.rttMs,
    downloadThroughput: (THROTTLING.downKbps * 1024) / 8,
    uploadThroughput: (THROTTLING.upKbps * 1024) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', {rate: THROTTLING.cpu});
}

type Page = import('@playwright/test').Page;
type Browser = import('@playwright/test').Browser;

async function answerIn(page: Page, engine: EngineName, q: string): Promise<number> {
  return page.evaluate(
    async ({q, code}) => {
      const answer = new Function(`return (${code})`)() as (q: string) => Promise<number>;
      return answer(q);
    },
    {q, code: engine === 'pagefind' ? ANSWER_PAGEFIND : ANSWER_OURS},
  );
}

/** Where the page finds each engine's code: the entry and the chunks it imports statically. */
type CodeUrls = Partial<Record<EngineName, {module: string; chunks: string[]}>>;

async function openPage(browser: Browser, base: string, engine: EngineName, throttled: boolean, code: CodeUrls) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${base}/bench.html`);
  const indexUrl = engine === 'ours: sharded' ? '/sharded/search/local-index.json' : engine === BASELINE ? '/baseline/search/local-index.json' : '/single/search/local-index.json';
  const {module, chunks} = code[engine] ?? {module: '', chunks: []};
  await page.evaluate(([url, m, c]) => Object.assign(window, {__indexUrl: url, __module: m, __chunks: c}), [indexUrl, module, chunks] as const);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', {cacheDisabled: false});
  if (throttled) await throttleLikeAPhone(cdp);
  const urls = new Map<string, string>();
  let bytes = 0;
  let codeBytes = 0;
  cdp.on('Network.requestWillBeSent', (e: {requestId: string; request: {url: string}}) => urls.set(e.requestId, e.request.url));
  cdp.on('Network.loadingFinished', (e: {requestId: string; encodedDataLength: number}) => {
    bytes += e.encodedDataLength;
    if (/\.js$|\.pagefind$|\/wasm\./.test(new URL(urls.get(e.requestId) ?? 'http://x/').pathname)) codeBytes += e.encodedDataLength;
  });
  return {
    page,
    context,
    bytes: () => ({bytes, codeBytes}),
    reset: () => {
      bytes = 0;
      codeBytes = 0;
    },
  };
}

/** One cold first answer: a fresh context, throttled. */
async function coldSample(browser: Browser, base: string, engine: EngineName, q: string, code: CodeUrls): Promise<{ms: number; bytes: number; codeBytes: number}> {
  const p = await openPage(browser, base, engine, true, code);
  try {
    p.reset();
    const started = Date.now();
    const hits = await answerIn(p.page, engine, q);
    const ms = Date.now() - started;
    // let the last loadingFinished events arrive
    await new Promise((r) => setTimeout(r, 50));
    if (hits === 0) throw new Error(`${engine}: no hit for "${q}"`);
    return {ms, ...p.bytes()};
  } finally {
    await p.context.close();
  }
}

/** Cold figures of one engine from its samples. */
function coldFigures(engine: EngineName, samples: {ms: number; bytes: number; codeBytes: number}[]) {
  const byBytes = [...samples].sort((a, b) => a.bytes - b.bytes);
  const mid = byBytes[Math.floor(byBytes.length / 2)]!;
  const coldSamples = samples.map((s) => s.ms);
  return {engine, firstAnswerBytes: mid.bytes, firstAnswerCodeBytes: mid.codeBytes, coldMs: median(coldSamples), coldSamples};
}

/** Warm query times, unthrottled, after one pass that loaded what the queries read. */
async function warmFigures(browser: Browser, base: string, engine: EngineName, typed: string[], code: CodeUrls): Promise<{warmP50Ms: number; warmP95Ms: number; warmQueries: number}> {
  if (typed.length === 0) return {warmP50Ms: NaN, warmP95Ms: NaN, warmQueries: 0};
  const p = await openPage(browser, base, engine, false, code);
  try {
    for (const q of typed) await answerIn(p.page, engine, q);
    const times: number[] = await p.page.evaluate(
      async ({queries, code}) => {
        const answer = new Function(`return (${code})`)() as (q: string) => Promise<number>;
        const out: number[] = [];
        for (const q of queries) {
          const t = performance.now();
          await answer(q);
          out.push(performance.now() - t);
        }
        return out;
      },
      {queries: typed, code: engine === 'pagefind' ? ANSWER_PAGEFIND : ANSWER_OURS},
    );
    times.sort((a, b) => a - b);
    return {warmP50Ms: percentile(times, 0.5), warmP95Ms: percentile(times, 0.95), warmQueries: times.length};
  } finally {
    await p.context.close();
  }
}

/**
 * Bundles the client the way the site ships it (ESM, minified, split at dynamic imports as the
 * site's build splits it) into `outDir`, served at `/<urlDir>/`; `searchSrc`: another
 * docs-search source tree instead of ours (its dependencies from our node_modules). Returns the
 * entry's URL, the chunks it imports statically, and the gzip sizes of what a one-file index
 * loads and of what is imported on demand.
 */
async function bundleClient(outDir: string, urlDir: string, searchSrc?: string): Promise<{module: string; chunks: string[]; code: ClientCode}> {
  const esbuild = (await import('esbuild')) as typeof import('esbuild');
  const result = await esbuild.build({
    stdin: {contents: "export {createLocalSearchClient, modalParams} from 'docs-search';", resolveDir: BENCH, loader: 'ts', sourcefile: 'docs-search-entry.ts'},
    bundle: true,
    format: 'esm',
    splitting: true,
    minify: true,
    platform: 'browser',
    target: 'es2020',
    outdir: outDir,
    entryNames: 'docs-search',
    metafile: true,
    // (the metafile's paths are relative to this)
    absWorkingDir: BENCH,
    logLevel: 'silent',
    ...(searchSrc ? {alias: {'docs-search': path.join(searchSrc, 'index.ts')}, nodePaths: NODE_PATHS} : {}),
  });
  const outputs = result.metafile.outputs;
  const abs = (rel: string) => path.resolve(BENCH, rel);
  const entry = Object.keys(outputs).find((f) => outputs[f]!.entryPoint !== undefined)!;
  // the entry's static imports, and theirs
  const staticFiles = new Set([entry]);
  for (const f of staticFiles) for (const i of outputs[f]!.imports) if (i.kind === 'import-statement') staticFiles.add(i.path);
  const gzip = async (f: string) => gzipSync(await readFile(abs(f))).length;
  let oneFileGzipBytes = 0;
  let onDemandGzipBytes = 0;
  for (const f of Object.keys(outputs).filter((f) => f.endsWith('.js'))) {
    if (staticFiles.has(f)) oneFileGzipBytes += await gzip(f);
    else onDemandGzipBytes += await gzip(f);
  }
  const url = (f: string) => `/${urlDir}/${path.relative(outDir, abs(f))}`;
  return {module: url(entry), chunks: [...staticFiles].filter((f) => f !== entry).map(url), code: {oneFileGzipBytes, onDemandGzipBytes}};
}

interface Baseline {
  /**
   * The one-file index as the baseline's indexer wrote it (packRecords with the common origin and
   * the site's synonyms, as ours is written: a baseline whose packRecords takes no synonyms, such
   * as 114e65e's, ignores them).
   */
  writeIndex: (records: readonly {url: string}[], file: string, synonyms: readonly unknown[]) => Promise<void>;
  /** Its client, bundled as ours is. */
  bundle: (outDir: string, urlDir: string) => ReturnType<typeof bundleClient>;
}

/**
 * docs-search at BASELINE_COMMIT, from this checkout's git history (`git archive`, no worktree),
 * or null (with the reason logged) when there is none.
 */
async function loadBaseline(work: string, log: (line: string) => void): Promise<Baseline | null> {
  const dir = path.join(work, 'baseline-src');
  await mkdir(dir, {recursive: true});
  try {
    // (the path is docs-search's folder in that commit, from the top of the repository)
    const top = execFileSync('git', ['-C', BENCH, 'rev-parse', '--show-toplevel'], {encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe']}).trim();
    const tar = execFileSync('git', ['-C', top, 'archive', BASELINE_COMMIT, 'indexer/search/src'], {maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'pipe']});
    execFileSync('tar', ['-x', '-C', dir], {input: tar});
  } catch (error) {
    log(`search: no baseline (${BASELINE_COMMIT} not in this checkout's git history: ${(error as Error).message.split('\n')[0]})`);
    return null;
  }
  const src = path.join(dir, 'indexer/search/src');
  const esbuild = (await import('esbuild')) as typeof import('esbuild');
  const packer = path.join(work, 'baseline-pack.mjs');
  await esbuild.build({
    stdin: {contents: "export {packRecords} from 'docs-search';", resolveDir: BENCH, loader: 'ts'},
    bundle: true,
    format: 'esm',
    platform: 'node',
    outfile: packer,
    logLevel: 'silent',
    alias: {'docs-search': path.join(src, 'index.ts')},
    nodePaths: NODE_PATHS,
  });
  const {packRecords} = (await import(packer)) as {packRecords: (records: readonly unknown[], origin: string, synonyms?: readonly unknown[]) => unknown};
  return {
    async writeIndex(records, file, synonyms) {
      // as its publish-local did: the origin every record URL shares is stripped, the synonyms carried
      const origins = new Set(records.map((r) => new URL(r.url).origin));
      await mkdir(path.dirname(file), {recursive: true});
      await writeFile(file, JSON.stringify(packRecords(records, origins.size === 1 ? [...origins][0]! : '', synonyms)));
    },
    bundle: (outDir, urlDir) => bundleClient(outDir, urlDir, src),
  };
}

export interface SearchBenchOptions {
  buildDir?: string;
  sizes?: number[];
  coldQueries?: number;
  log?: (line: string) => void;
}

export async function benchSearch(options: SearchBenchOptions = {}): Promise<SizeFigures[]> {
  const log = options.log ?? log0;
  const buildDir = path.resolve(options.buildDir ?? SITE_BUILD);
  const sizes = options.sizes ?? [23, 1000, 5000];
  const cold = Array.from({length: options.coldQueries ?? 5}, (_, i) => COLD_QUERIES[i % COLD_QUERIES.length]!);
  const typed = await typedQueries();
  const {chromium} = await import('@playwright/test');
  const {CHROME_PATH, CHROME_ARGS} = await import('site/chrome');
  const work = await mkdtemp(path.join(tmpdir(), 'search-bench-'));
  const out: SizeFigures[] = [];
  const baseline = await loadBaseline(work, log);
  const browser = await chromium.launch({executablePath: CHROME_PATH, args: CHROME_ARGS});
  try {
    const realPages = (await htmlPages(buildDir)).length;
    for (const size of sizes) {
      const dir = path.join(work, String(size));
      const site = path.join(dir, 'site');
      await mkdir(site, {recursive: true});
      let source = buildDir;
      if (size > realPages) {
        log(`search: making ${size} pages from ${realPages} (words altered)…`);
        await makeAlteredBuild(buildDir, size, site);
        source = site;
      }
      log(`search: ${size} pages: our crawl and indexes…`);
      const {records, pages} = await crawl(source, {});
      // (with the site's synonyms, as the build writes it)
      const synonyms = await readSynonymsFile(path.join(SITE, 'search-synonyms.json'));
      await writeLocalIndex(records, path.join(dir, 'single/search/local-index.json'), {sharded: false, synonyms});
      await writeLocalIndex(records, path.join(dir, 'sharded/search/local-index.json'), {sharded: true, synonyms});
      log(`search: ${size} pages: pagefind…`);
      await run(process.execPath, [pagefindBin(), '--site', source, '--output-path', path.join(dir, 'pagefind'), '--silent']);
      const ours = await bundleClient(path.join(dir, 'code'), 'code');
      const code: CodeUrls = {'ours: one file': ours, 'ours: sharded': ours};
      const withBaseline = baseline !== null && pages <= ONE_FILE_FULL_UP_TO;
      let baselineCode: ClientCode | undefined;
      if (withBaseline) {
        await baseline.writeIndex(records, path.join(dir, 'baseline/search/local-index.json'), synonyms);
        const old = await baseline.bundle(path.join(dir, 'code-baseline'), 'code-baseline');
        code[BASELINE] = old;
        baselineCode = old.code;
      }
      await writeFile(path.join(dir, 'bench.html'), '<!doctype html><html lang="en"><meta charset="utf-8"><title>search bench</title><body></body></html>');
      const sizesOnDisk: Partial<Record<EngineName, {bytes: number; gzipBytes: number; files: number}>> = {
        'ours: one file': await folderBytes(path.join(dir, 'single')),
        'ours: sharded': await folderBytes(path.join(dir, 'sharded')),
        pagefind: await folderBytes(path.join(dir, 'pagefind'), pagefindIndexFile),
        ...(withBaseline ? {[BASELINE]: await folderBytes(path.join(dir, 'baseline'))} : {}),
      };
      await rm(site, {recursive: true, force: true});
      const server = await serveBuild(dir);
      try {
        const measured = (['pagefind', 'ours: one file', 'ours: sharded', ...(withBaseline ? [BASELINE] : [])] as EngineName[]).filter(
          (engine) => !(engine === 'ours: one file' && pages > ONE_FILE_FULL_UP_TO),
        );
        // Cold samples in rounds: each round one sample of every engine, in an order that
        // rotates, so a busy moment of the machine does not fall on one engine's samples.
        const samples = new Map(measured.map((e) => [e, [] as {ms: number; bytes: number; codeBytes: number}[]]));
        for (const [round, q] of cold.entries()) {
          log(`search: ${size} pages: cold round ${round + 1}/${cold.length} ("${q}")…`);
          for (let k = 0; k < measured.length; k++) {
            const engine = measured[(round + k) % measured.length]!;
            samples.get(engine)!.push(await coldSample(browser, server.url, engine, q, code));
          }
        }
        const engines: EngineFigures[] = [];
        for (const engine of measured) {
          log(`search: ${size} pages: ${engine} warm…`);
          const warm = await warmFigures(browser, server.url, engine, typed, code);
          const disk = sizesOnDisk[engine]!;
          engines.push({...coldFigures(engine, samples.get(engine)!), ...warm, indexBytes: disk.bytes, indexGzipBytes: disk.gzipBytes, files: disk.files});
        }
        const figures: SizeFigures = {pages, records: records.length, engines, code: ours.code, ...(baselineCode ? {baselineCode} : {})};
        out.push(figures);
        // each size as soon as it is measured (a full run takes a while)
        log(formatSearchBench([figures]));
      } finally {
        await server.close();
      }
      await rm(dir, {recursive: true, force: true});
    }
  } finally {
    await browser.close();
    await rm(work, {recursive: true, force: true});
  }
  return out;
}

/** min, quartiles and max of cold samples (the machine is shared: read ratios against the spread). */
function spread(samples: number[]): string {
  const v = [...samples].sort((a, b) => a - b);
  if (v.length === 0) return 'no samples';
  return `min ${v[0]} / p25 ${percentile(v, 0.25)} / median ${median(v)} / p75 ${percentile(v, 0.75)} / max ${v[v.length - 1]} ms, n=${v.length}`;
}

/** The side-by-side table: each figure and its ratio to Pagefind's. */
export function formatSearchBench(sizes: SizeFigures[]): string {
  const kb = (b: number) => `${(b / 1024).toFixed(1)} KB`;
  const ms = (v: number) => (Number.isNaN(v) ? '–' : v >= 100 ? `${Math.round(v)} ms` : `${v.toFixed(2)} ms`);
  const lines = [
    `Search, ours beside Pagefind (same build; cold: mobile throttling ${THROTTLING.rttMs} ms RTT, ${THROTTLING.downKbps / 1024} Mbit/s, CPU x${THROTTLING.cpu}; ratio = ours / Pagefind)`,
  ];
  const cols = ['index gzip', 'before 1st answer', 'cold 1st answer', 'warm p50', 'warm p95'];
  for (const s of sizes) {
    lines.push('', `${s.pages} pages, ${s.records} records`, `  ${'engine'.padEnd(16)}${cols.map((c) => c.padStart(24)).join('')}`);
    const pf = s.engines.find((e) => e.engine === 'pagefind')!;
    for (const e of s.engines) {
      const cell = (text: string, value: number, base: number) => `${text}${e === pf || Number.isNaN(value) ? '' : ` (${(value / base).toFixed(2)}x)`}`.padStart(24);
      lines.push(
        `  ${e.engine.padEnd(16)}` +
          cell(`${kb(e.indexGzipBytes)} ${e.files}f`, e.indexGzipBytes, pf.indexGzipBytes) +
          cell(`${kb(e.firstAnswerBytes)}`, e.firstAnswerBytes, pf.firstAnswerBytes) +
          cell(ms(e.coldMs), e.coldMs, pf.coldMs) +
          cell(ms(e.warmP50Ms), e.warmP50Ms, pf.warmP50Ms) +
          cell(ms(e.warmP95Ms), e.warmP95Ms, pf.warmP95Ms),
      );
      lines.push(
        `  ${''.padEnd(16)}  (before 1st answer: ${kb(e.firstAnswerCodeBytes)} code; cold ${spread(e.coldSamples)}; samples ${e.coldSamples.join(', ')} ms; ${e.warmQueries} warm queries)`,
      );
    }
    if (s.code) {
      const c = s.code;
      lines.push(
        `  our client code, gzip: ${kb(c.oneFileGzipBytes)} loaded for one file` +
          `, + ${kb(c.onDemandGzipBytes)} imported for a sharded index` +
          (s.baselineCode ? `; before (${BASELINE_COMMIT}): ${kb(s.baselineCode.oneFileGzipBytes)} (${(c.oneFileGzipBytes / s.baselineCode.oneFileGzipBytes).toFixed(2)}x)` : ''),
      );
    }
    const old = s.engines.find((e) => e.engine === BASELINE);
    if (old) {
      // "nothing gets slower than now": each form of ours against the engine before issue 16
      lines.push(`  ratio new / old (old = ${BASELINE}, one file; > 1.00x: the new is bigger or slower)`);
      const r = (a: number, b: number) => (Number.isNaN(a) || Number.isNaN(b) ? '–' : `${(a / b).toFixed(2)}x`);
      for (const e of s.engines.filter((e) => e.engine === 'ours: one file' || e.engine === 'ours: sharded')) {
        lines.push(
          `  ${e.engine.padEnd(16)}` +
            [r(e.indexGzipBytes, old.indexGzipBytes), r(e.firstAnswerBytes, old.firstAnswerBytes), r(e.coldMs, old.coldMs), r(e.warmP50Ms, old.warmP50Ms), r(e.warmP95Ms, old.warmP95Ms)].map((c) => c.padStart(24)).join(''),
        );
        // Samples of one round were taken moments apart (same query, same load): their ratios
        // are less at the mercy of the machine than the ratio of two medians.
        const pairs = e.coldSamples.map((ms, i) => ms / old.coldSamples[i]!).filter((x) => Number.isFinite(x));
        if (pairs.length > 0) {
          const sorted = [...pairs].sort((a, b) => a - b);
          const wins = e.coldSamples.filter((ms, i) => ms < old.coldSamples[i]!).length;
          lines.push(
            `  ${''.padEnd(16)}  cold, round by round: median ratio ${median(pairs).toFixed(2)}x (quartiles ${percentile(sorted, 0.25).toFixed(2)}-${percentile(sorted, 0.75).toFixed(2)}x), faster in ${wins} of ${pairs.length} rounds`,
          );
        }
      }
    }
  }
  lines.push(
    '',
    `Pagefind's first answer loads the data of its first ${PAGEFIND_SHOWN} results; ours answers the modal's 20 hits with snippets.`,
    `Above ${ONE_FILE_FULL_UP_TO} pages one file is not measured (a cold answer takes minutes there).`,
    `Targets at 5,000 pages: before 1st answer <= 150 KB, cold <= Pagefind's, warm p95 <= 25 ms. Machine load average ${loadavg()[0]!.toFixed(1)}.`,
  );
  return lines.join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const arg = (n: string) => {
    const i = process.argv.indexOf(n);
    return i >= 0 ? process.argv[i + 1] : undefined;
  };
  try {
    const sizes = arg('--sizes')?.split(',').map(Number);
    if (sizes?.some((n) => !Number.isInteger(n) || n < 1)) throw new Error('--sizes takes page counts, e.g. 23,1000,5000');
    const figures = await benchSearch({buildDir: arg('--build'), sizes, coldQueries: arg('--cold') ? Number(arg('--cold')) : undefined});
    console.log(formatSearchBench(figures));
  } catch (error) {
    process.stderr.write(`search bench: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}

