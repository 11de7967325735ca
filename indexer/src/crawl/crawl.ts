/**
 * Crawl stage: a build folder or a deployed site → pages → records (through the extract stage).
 *
 * Record URLs come from what each page says it is (its canonical link, below the site's root,
 * moved onto the record base); a page without one gets the URL it was routed to. So a folder
 * crawl and a URL crawl of one build give the same records and objectIDs, whatever the site's
 * `trailingSlash` and `baseUrl` (issue 13).
 *
 * - Folder: every `*.html` file below it. `docs/foo.html` is routed to `/docs/foo`,
 *   `docs/foo/index.html` to `/docs/foo/`. The site's root is its home page's canonical link or
 *   og:url, else the first `<loc>` of sitemap.xml; the record base is `baseUrl`, else that root.
 * - URL: the source page (its canonical link names the site's root), every sitemap (the source's
 *   `sitemap.xml`, sitemap indexes, and one per locale from the home page's hreflang links),
 *   and every link of every page, all limited to the source's origin and base path. Redirects
 *   are followed only inside it; one that leaves it is reported and not followed. A page that
 *   fails after retries is skipped and reported; the crawl fails when the failed share passes
 *   `maxFailed`. Credentials in the source URL are sent as Basic auth and never shown.
 * - weight.pageRank: the sitemap's priority, 0.5 (the protocol's default) being 0, ×10.
 * - One p-limit bound on concurrent pages; typed progress events; the library never prints.
 * - Records come back in a stable order (pages sorted by URL, a trailing slash ignored)
 *   whatever the concurrency.
 */
import {readFile, readdir, stat} from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import pRetry, {AbortError} from 'p-retry';
import {XMLParser} from 'fast-xml-parser';
import {extractPageDetailed, recordUrlFor, type SiteUrls} from '../extract/extract.ts';
import {decodePage} from '../extract/charset.ts';
import {
  defaultWorkers,
  ExtractPool,
  extractOrSkip,
  MAX_PAGE_BYTES,
  MAX_WORKER_PAGE_BYTES,
  pageBytes,
  WorkerLostError,
  type PageJob,
  type PageSkipReason,
} from '../extract/pool.ts';
import type {SearchRecord} from 'docs-search/record';
import {RecordStore, type PackedDigest} from '../records/store.ts';
import {CrawlError, SourceError, UsageError} from '../errors.ts';
import {DEFAULT_MAX_FAILED} from './defaults.ts';

export type CrawlMode = 'folder' | 'sitemap' | 'links';

/**
 * Why a page gave no records: the page's own reasons (extract.ts), or the crawl's: `failed`
 * (an error or an error status after retries), `broken-link` (a link, not in any sitemap, that
 * answers 404 or 410), `off-site` (a redirect out of the site's origin and base path),
 * `duplicate` (a second page with the same record URL).
 */
export type CrawlSkipReason = PageSkipReason | 'failed' | 'broken-link' | 'off-site' | 'duplicate';

export interface SkippedPage {
  url: string;
  reason: CrawlSkipReason;
  /** What happened, for failed, broken and off-site pages (e.g. "HTTP 503"). */
  detail?: string;
}

/** Progress events, in the order they happen. */
export type CrawlEvent =
  | {type: 'start'; source: string; mode: CrawlMode; baseUrl: string; total?: number}
  | {type: 'page'; url: string; records: number; done: number; total?: number}
  | ({type: 'skip'; done: number; total?: number} & SkippedPage)
  | {type: 'retry'; url: string; attempt: number; error: string}
  | {type: 'done'; pages: number; records: number; skipped: number; failed: number; seconds: number};

export {DEFAULT_MAX_FAILED};

export interface CrawlOptions {
  /** Makes record URLs absolute (default: the site's configured URL read from the build or the source page). */
  baseUrl?: string;
  /** Pages read or fetched at once (default 8). */
  concurrency?: number;
  onEvent?: (event: CrawlEvent) => void;
  /** weight.pageRank for a page (given its routed URL); default: from the sitemap's priority, else 0. */
  pageRank?: (url: string) => number | undefined;
  /** Attempts per HTTP request (default 3). */
  attempts?: number;
  /** Per-request timeout in ms (default 15000). */
  timeoutMs?: number;
  /** Stop discovering pages after this many (URL crawls; default 10000). */
  maxPages?: number;
  /**
   * A URL crawl fails (CrawlError) when more than this share of its pages, in percent, could not
   * be fetched (default DEFAULT_MAX_FAILED; 0: any failure fails the crawl, 100: never).
   */
  maxFailed?: number;
  /** Validate every record against the zod schema (default true). */
  validate?: boolean;
  /**
   * Receives each indexed page's records in the result's order (pages sorted by URL), as soon
   * as they are ready in a folder crawl (after the crawl for a URL). Awaited: a slow consumer
   * slows the crawl instead of piling records up.
   */
  onPage?: (page: CrawledPage) => void | Promise<void>;
  /** Keep every record in the result (default true). false bounds memory: use onPage. */
  collect?: boolean;
  /**
   * Also compute each collected record's objectID list and content hash on the extract workers
   * (what `push` diffs against the live index), so the publisher need not unpack and hash every
   * record itself. Default false.
   */
  digests?: boolean;
  /**
   * Stops the crawl (e.g. on Ctrl-C): no page is started after it fires, requests in flight are
   * aborted, the worker threads end, and the crawl rejects with an InterruptedError.
   */
  signal?: AbortSignal;
  /**
   * Worker threads that parse and extract pages in a folder or sitemap crawl (0: this thread).
   * Default: none below 100 pages or on one core, else one per core (at most 4).
   */
  workers?: number;
}

export interface CrawledPage {
  url: string;
  /** The page's records (made on first access when the page was extracted by a worker). */
  readonly records: SearchRecord[];
  /** The same records as a JSON array, `JSON.stringify(records)`. */
  readonly json: string;
}

export interface CrawlResult {
  /** Pages that produced records. */
  pages: number;
  /**
   * Every record, pages sorted by URL (empty when `collect` is false). Made from `store` on
   * first access: on big sites walk `store.pages()` instead, a page at a time.
   */
  readonly records: SearchRecord[];
  /** The collected records, kept compact. */
  store: RecordStore;
  /** Number of records extracted (also when they were not collected). */
  recordCount: number;
  /** Pages that gave no records (on purpose, or because they failed): `skippedPages.length`. */
  skipped: number;
  /** Of those, the pages that could not be fetched. */
  failed: number;
  /** Every skipped page and why, sorted by URL. */
  skippedPages: SkippedPage[];
  baseUrl: string;
  mode: CrawlMode;
}

/** One page's records: objects (extracted in this thread), JSON text or deflated JSON (from a worker). */
interface PageResult {
  url: string;
  /** Sort key: the URL the page was routed to, without a trailing slash. */
  order: string;
  count: number;
  records?: SearchRecord[];
  json?: string;
  packed?: Uint8Array;
  jsonBytes?: number;
  digest?: PackedDigest;
  /** A second page with a URL already indexed: not part of the result. */
  duplicate?: boolean;
  /** The URL the page was routed to (its file's or its fetched URL's place), when it differs from `url`. */
  routed?: string;
}

/** The skip of a second page naming an indexed page's URL: the page read (its alias), and the URL it repeats. */
function duplicateOf(page: PageResult): SkippedPage {
  return {url: page.routed ?? page.url, reason: 'duplicate', detail: `same page as ${page.url}`};
}

function crawledPage(page: PageResult): CrawledPage {
  let records = page.records;
  let json = page.json;
  return {
    url: page.url,
    get records(): SearchRecord[] {
      if (!records) {
        if (json !== undefined) records = JSON.parse(json) as SearchRecord[];
        else if (page.packed) records = RecordStore.unpack(page.packed);
        else records = [];
      }
      return records;
    },
    get json(): string {
      json ??= JSON.stringify(this.records);
      return json;
    },
  };
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const byUrl = (a: {url: string}, b: {url: string}): number => compare(a.url, b.url);
const byOrder = (a: PageResult, b: PageResult): number => compare(a.order, b.order) || byUrl(a, b);

/** A URL's sort key: a trailing slash does not count, so `/docs/a/` sorts where `/docs/a` does. */
export function orderKey(url: string): string {
  return url.endsWith('/') ? url.slice(0, -1) : url;
}

export function isHttpSource(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

/** A URL fit for a message: user name and password replaced by `***`. */
export function redactUrl(text: string): string {
  return text.replace(/(\bhttps?:\/\/)[^/?#\s@]*@/gi, '$1***@');
}

/** The crawl was stopped through its `signal` (Ctrl-C, SIGTERM): nothing it found is used. */
export class InterruptedError extends CrawlError {
  constructor() {
    super('interrupted');
  }
}

/** Throws an InterruptedError once the crawl's signal has fired. */
function checkInterrupted(options: CrawlOptions): void {
  if (options.signal?.aborted) throw new InterruptedError();
}

export async function crawl(source: string, options: CrawlOptions = {}): Promise<CrawlResult> {
  if (!source) throw new UsageError('missing SOURCE: pass a build folder or an http(s) URL');
  checkInterrupted(options);
  const started = performance.now();
  let result;
  try {
    result = isHttpSource(source) ? await crawlUrl(source, options) : await crawlFolder(source, options);
  } catch (error) {
    // Whatever failed after an interruption (an aborted request, a closed stream) failed because of it.
    if (options.signal?.aborted) throw new InterruptedError();
    throw error;
  }
  checkInterrupted(options);
  const pages = result.pages.filter((p) => p.count > 0 && !p.duplicate);
  pages.sort(byOrder);
  if (!result.streamed && options.onPage) {
    for (const page of pages) await options.onPage(crawledPage(page));
  }
  const store = new RecordStore(options.validate !== false);
  if (options.collect !== false) {
    for (const page of pages) {
      if (page.packed) store.addPacked(page.url, page.count, page.packed, page.jsonBytes, page.digest);
      else store.addRecords(page.url, page.records ?? crawledPage(page).records);
    }
  }
  const recordCount = pages.reduce((sum, p) => sum + p.count, 0);
  const skippedPages = result.skipped.sort(byUrl);
  const failed = skippedPages.filter((p) => p.reason === 'failed').length;
  if (pages.length === 0) {
    throw new SourceError(`the crawl of ${redactUrl(source)} found no pages to index`);
  }
  options.onEvent?.({
    type: 'done',
    pages: pages.length,
    records: recordCount,
    skipped: skippedPages.length,
    failed,
    seconds: (performance.now() - started) / 1000,
  });
  let records: SearchRecord[] | undefined;
  return {
    pages: pages.length,
    get records(): SearchRecord[] {
      records ??= store.toArray();
      return records;
    },
    store,
    recordCount,
    skipped: skippedPages.length,
    failed,
    skippedPages,
    baseUrl: result.baseUrl,
    mode: result.mode,
  };
}

/**
 * `share` (a percentage above `limit`) with as few decimals as show it above the limit, rounded
 * down: 3 of 299 pages is "1.003" against a limit of 1, never "1".
 */
export function percentAbove(share: number, limit: number): string {
  for (let decimals = 1; decimals < 6; decimals++) {
    const shown = Math.floor(share * 10 ** decimals) / 10 ** decimals;
    if (shown > limit) return String(shown);
  }
  return String(share);
}

function concurrencyOf(options: CrawlOptions): number {
  const n = options.concurrency ?? 8;
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`concurrency must be a positive integer (got ${n})`);
  return n;
}

/**
 * The ranges of a URL crawl's numeric options: no timer may near Node's 2^31 - 1 ms limit
 * (above it a timer fires after 1 ms), and every crawl ends in bounded time.
 */
const CRAWL_RANGES = {attempts: [1, 20], timeoutMs: [1, 600_000], maxPages: [1, 1_000_000]} as const;

function checkRanges(options: CrawlOptions): void {
  for (const [name, [min, max]] of Object.entries(CRAWL_RANGES)) {
    const value = options[name as keyof typeof CRAWL_RANGES];
    if (value !== undefined && !(Number.isInteger(value) && value >= min && value <= max)) {
      throw new UsageError(`${name} must be a whole number from ${min} to ${max} (got ${value})`);
    }
  }
}

function maxFailedOf(options: CrawlOptions): number {
  const n = options.maxFailed ?? DEFAULT_MAX_FAILED;
  if (!Number.isFinite(n) || n < 0 || n > 100) throw new UsageError(`maxFailed must be a percentage from 0 to 100 (got ${n})`);
  return n;
}

type ExtractedResult = Omit<PageResult, 'order'> & {skipped?: PageSkipReason};

/** Extracts one page on the pool, or in this thread (no pool, or its worker died). */
async function extractWith(pool: ExtractPool | undefined, job: PageJob): Promise<ExtractedResult> {
  // Size limits (pool.ts): too large to index at all, or too large for a worker's capped heap.
  const bytes = await pageBytes(job);
  if (bytes !== undefined && bytes > MAX_PAGE_BYTES) return {url: job.url, count: 0, skipped: 'too-large'};
  if (pool && !(bytes !== undefined && bytes > MAX_WORKER_PAGE_BYTES)) {
    try {
      const output = await pool.run(job);
      return {...output, url: output.url ?? job.url};
    } catch (error) {
      // A worker died (e.g. a page too big for its capped heap): this thread does the page.
      if (!(error instanceof WorkerLostError)) throw error;
    }
  }
  let html = job.html;
  if (html === undefined) {
    const file = job.file ?? '';
    try {
      html = decodePage(await readFile(file));
    } catch (error) {
      throw new SourceError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
  }
  const page = extractOrSkip(html, {
    url: job.url,
    pageRank: job.pageRank,
    ...(job.site ? {site: job.site} : {}),
    ...(job.validate === undefined ? {} : {validate: job.validate}),
  });
  return {url: page.url, records: page.records, count: page.records.length, ...(page.skipped ? {skipped: page.skipped} : {})};
}

/** The worker pool of a crawl of `pages` pages, if it uses one. */
function workerPool(options: CrawlOptions, pages: number): ExtractPool | undefined {
  const workers = options.workers ?? defaultWorkers(pages);
  if (!Number.isInteger(workers) || workers < 0) throw new UsageError(`workers must be a whole number (got ${workers})`);
  if (workers === 0) return undefined;
  try {
    return new ExtractPool(workers);
  } catch {
    // No worker threads here (e.g. a loader without import.meta.url): extract in this thread.
    return undefined;
  }
}

function withSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}

/** An absolute http(s) URL without query, fragment or credentials, ending with a slash. */
function normalizeBaseUrl(value: string, what = '--base-url'): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${what} must be an absolute http(s) URL (got "${redactUrl(value)}")`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${what} must be an absolute http(s) URL (got "${redactUrl(value)}")`);
  }
  if (what === '--base-url' && (url.username || url.password)) {
    // Record URLs are public: a user name or password must never be copied into them.
    throw new UsageError(`--base-url must not contain a user name or password (got "${redactUrl(value)}")`);
  }
  url.username = '';
  url.password = '';
  url.hash = '';
  url.search = '';
  return withSlash(url.toString());
}

/**
 * The site's root, given the URL of the crawled folder or SOURCE (`sourceRoot`, from its home
 * page) and that page's hreflang alternates: an alternate one path segment above the source is
 * the site's root (crawling `build/fr/` of a site whose default locale is at `/`, the root is
 * `/`, not `/fr/`). Without one, the source is the root.
 */
function siteRootOf(sourceRoot: string, alternates: readonly string[]): string {
  let root = sourceRoot;
  for (const href of alternates) {
    let candidate: string;
    try {
      candidate = normalizeBaseUrl(new URL(href, sourceRoot).toString(), 'an alternate URL');
    } catch {
      continue;
    }
    // A locale lives one path segment below the site's root (`fr/`, `zh-Hans/`): other alternates are other sites.
    if (sourceRoot.startsWith(candidate) && /^[^/]+\/$/.test(sourceRoot.slice(candidate.length))) root = candidate;
  }
  return root;
}

/**
 * How record URLs are made: a canonical below the site's root is moved onto the record base
 * (`--base-url`, else that root), so a locale keeps its path (`fr/…`); a page without one is
 * routed below `folderBase`, the crawled folder's (or SOURCE's) place on the record base.
 */
function siteUrlsOf(sourceRoot: string | undefined, alternates: readonly string[], baseUrl: string | undefined): {site: SiteUrls; folderBase: string} {
  const root = sourceRoot === undefined ? undefined : siteRootOf(sourceRoot, alternates);
  const base = baseUrl ? normalizeBaseUrl(baseUrl) : (root as string);
  if (sourceRoot === undefined || root === undefined) return {site: {root: base, base}, folderBase: base};
  return {site: {root, base}, folderBase: new URL(encodePath(decodeURIComponent(sourceRoot.slice(root.length))), base).toString()};
}

/** `docs/foo.html` → `docs/foo`; `docs/index.html` → `docs/`; `index.html` → ``. */
export function servedPath(relativeFile: string): string {
  const posix = relativeFile.split(path.sep).join('/');
  if (posix === 'index.html') return '';
  if (posix.endsWith('/index.html')) return posix.slice(0, -'index.html'.length);
  return posix.replace(/\.html?$/, '');
}

function encodePath(p: string): string {
  return p.split('/').map(encodeURIComponent).join('/');
}

/** One `<url>` of a sitemap: its location, priority and hreflang alternates. */
export interface SitemapEntry {
  loc: string;
  priority?: number;
  alternates: string[];
}

export interface Sitemap {
  /** `<urlset>` entries. */
  urls: SitemapEntry[];
  /** `<sitemapindex>` entries: further sitemaps. */
  sitemaps: string[];
}

const xmlParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  // Numeric character references (`&#39;`) and HTML's named ones are decoded, not only XML's five.
  htmlEntities: true,
  parseTagValue: false,
  removeNSPrefix: true,
  isArray: (name) => name === 'url' || name === 'sitemap' || name === 'link',
});

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() || undefined;
  if (typeof value === 'number') return String(value);
  if (value && typeof value === 'object' && '#text' in value) return text((value as {'#text': unknown})['#text']);
  return undefined;
}

/** Reads a sitemap or sitemap index with an XML parser (entities decoded); junk gives nothing. */
export function parseSitemap(xml: string): Sitemap {
  let doc: Record<string, unknown>;
  try {
    doc = xmlParser.parse(xml) as Record<string, unknown>;
  } catch {
    return {urls: [], sitemaps: []};
  }
  const urlset = doc.urlset as {url?: Record<string, unknown>[]} | undefined;
  const index = doc.sitemapindex as {sitemap?: Record<string, unknown>[]} | undefined;
  const urls: SitemapEntry[] = [];
  for (const entry of urlset?.url ?? []) {
    const loc = text(entry.loc);
    if (!loc) continue;
    const priority = Number(text(entry.priority));
    const alternates = ((entry.link as Record<string, unknown>[] | undefined) ?? [])
      .filter((link) => link.rel === 'alternate' && typeof link.href === 'string')
      .map((link) => String(link.href));
    urls.push({loc, ...(Number.isFinite(priority) && text(entry.priority) ? {priority} : {}), alternates});
  }
  const sitemaps: string[] = [];
  for (const entry of index?.sitemap ?? []) {
    const loc = text(entry.loc);
    if (loc) sitemaps.push(loc);
  }
  return {urls, sitemaps};
}

/** `<loc>` values of a sitemap or sitemap index. */
export function sitemapLocs(xml: string): string[] {
  const sitemap = parseSitemap(xml);
  return [...sitemap.urls.map((u) => u.loc), ...sitemap.sitemaps];
}

/** weight.pageRank from a sitemap priority: 0.5, the protocol's default (and Docusaurus's), is 0. */
export function rankOfPriority(priority: number | undefined): number | undefined {
  return priority === undefined ? undefined : Math.round((priority - 0.5) * 10);
}

/**
 * A build's file read whole, or undefined when it is larger than `maxBytes` (the page limits
 * hold for every file the crawl reads, the home page and the sitemaps included).
 */
async function readLimited(file: string, maxBytes: number): Promise<Buffer | undefined> {
  if ((await stat(file)).size > maxBytes) return undefined;
  return readFile(file);
}

/**
 * The URL of the build folder's home page (its canonical link, else the sitemap's shortest URL)
 * and the URLs of its other locales (its hreflang alternates), which tell the site's root when
 * the folder holds one locale of a site (`build/fr/`).
 */
async function siteUrlFromBuild(folder: string, sitemaps: string[]): Promise<{url: string; alternates: string[]} | undefined> {
  try {
    // A home page over the size limit is not read (the crawl skips it as too-large): the sitemap tells the root.
    const bytes = await readLimited(path.join(folder, 'index.html'), MAX_PAGE_BYTES);
    if (bytes) {
      const html = decodePage(bytes);
      const page = extractPageDetailed(html, {url: 'https://placeholder.invalid/', validate: false});
      if (page.canonical && /^https?:\/\//i.test(page.canonical)) return {url: page.canonical, alternates: pageLinks(html).alternates};
    }
  } catch {
    // no home page (or one nested too deep): try the sitemap
  }
  if (!sitemaps.includes('sitemap.xml')) return undefined;
  try {
    const xml = await readLimited(path.join(folder, 'sitemap.xml'), MAX_SITEMAP_BYTES);
    const entries = xml ? parseSitemap(xml.toString('utf8')).urls : [];
    // The shortest URL of the sitemap is the site root (every page lives below it).
    const shortest = entries.sort((a, b) => a.loc.length - b.loc.length)[0];
    if (shortest) return {url: new URL('./', shortest.loc).toString(), alternates: shortest.alternates};
  } catch {
    // no sitemap either
  }
  return undefined;
}

/** The build's HTML files and sitemaps (`sitemap.xml` at the root and in locale folders). */
async function listFiles(folder: string): Promise<{html: string[]; sitemaps: string[]}> {
  const entries = await readdir(folder, {recursive: true, withFileTypes: true});
  const html: string[] = [];
  const sitemaps: string[] = [];
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const isHtml = /\.html?$/i.test(entry.name);
    if (!isHtml && entry.name !== 'sitemap.xml') continue;
    // Node 20 names the folder `path` (newer releases `parentPath`).
    const dir = (entry as unknown as {parentPath?: string}).parentPath ?? entry.path;
    (isHtml ? html : sitemaps).push(path.relative(folder, path.join(dir, entry.name)));
  }
  return {html: html.sort(), sitemaps: sitemaps.sort()};
}

/** Record URL (routed, trailing slash ignored) → pageRank, from sitemap entries below the site's root. */
function ranksFrom(entries: SitemapEntry[], site: SiteUrls): Map<string, number> {
  const ranks = new Map<string, number>();
  for (const entry of entries) {
    const rank = rankOfPriority(entry.priority);
    if (rank !== undefined) ranks.set(orderKey(recordUrlFor(entry.loc, entry.loc, site)), rank);
  }
  return ranks;
}

async function crawlFolder(folder: string, options: CrawlOptions) {
  const limit = pLimit(concurrencyOf(options));
  let info;
  try {
    info = await stat(folder);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new SourceError(
      code === 'ENOENT'
        ? `cannot read SOURCE "${folder}": no such folder (build the site first: npm run build)`
        : `cannot read SOURCE "${folder}": ${code ?? String(error)}`,
    );
  }
  if (!info.isDirectory()) throw new SourceError(`SOURCE "${folder}" is not a folder or an http(s) URL`);
  let listing: {html: string[]; sitemaps: string[]};
  try {
    listing = await listFiles(folder);
  } catch (error) {
    throw new SourceError(`cannot read SOURCE "${folder}": ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const files = listing.html;
  if (files.length === 0) throw new SourceError(`SOURCE "${folder}" contains no HTML pages`);
  const home = await siteUrlFromBuild(folder, listing.sitemaps);
  const built = home?.url;
  const configured = options.baseUrl ?? built;
  if (!configured) {
    throw new UsageError(`cannot tell the site's URL from "${folder}": pass --base-url URL`);
  }
  const {site, folderBase: baseUrl} = siteUrlsOf(built ? normalizeBaseUrl(built, "the build's canonical URL") : undefined, home?.alternates ?? [], options.baseUrl);
  const entries: SitemapEntry[] = [];
  for (const file of listing.sitemaps) {
    try {
      const xml = await readLimited(path.join(folder, file), MAX_SITEMAP_BYTES);
      if (xml) entries.push(...parseSitemap(xml.toString('utf8')).urls);
    } catch {
      // an unreadable sitemap only loses priorities
    }
  }
  const ranks = ranksFrom(entries, site);
  const total = files.length;
  options.onEvent?.({type: 'start', source: folder, mode: 'folder', baseUrl, total});
  let done = 0;
  const skipped: SkippedPage[] = [];
  // Pages are handed to onPage in order: finished pages wait in `ready` for their turn.
  const jobs = files
    .map((file) => {
      const url = new URL(encodePath(servedPath(file)), baseUrl).toString();
      return {file, url, order: orderKey(url)};
    })
    .sort((a, b) => compare(a.order, b.order) || compare(a.url, b.url));
  const ready = new Map<number, PageResult>();
  const emitted = new Set<string>();
  let nextToEmit = 0;
  let emitting: Promise<void> = Promise.resolve();
  const collect = options.collect !== false;
  const drain = async (): Promise<void> => {
    for (let page = ready.get(nextToEmit); page; page = ready.get(nextToEmit)) {
      ready.delete(nextToEmit);
      nextToEmit += 1;
      if (page.count > 0) {
        // Two files that say they are the same page (canonical links): the first one counts.
        if (emitted.has(page.url)) {
          page.duplicate = true;
          const alias = duplicateOf(page);
          skipped.push(alias);
          options.onEvent?.({type: 'skip', ...alias, done, total});
        } else {
          emitted.add(page.url);
          await options.onPage?.(crawledPage(page));
        }
      }
      if (!collect || page.duplicate) {
        delete page.records;
        delete page.json;
        delete page.packed;
      }
    }
  };
  const pool = workerPool(options, files.length);
  const validate = options.validate === undefined ? {} : {validate: options.validate};
  const extract = (file: string, url: string, order: string): Promise<ExtractedResult> =>
    extractWith(pool, {
      file: path.join(folder, file),
      url,
      site,
      pageRank: options.pageRank?.(url) ?? ranks.get(order) ?? 0,
      pack: collect,
      digests: collect && Boolean(options.digests),
      ...validate,
    });
  let pages: PageResult[];
  try {
    pages = await Promise.all(
      jobs.map(({file, url, order}, index) =>
        limit(async (): Promise<PageResult> => {
          checkInterrupted(options);
          const {skipped: skip, ...extracted} = await extract(file, url, order);
          const result: PageResult = {...extracted, order, ...(extracted.url === url ? {} : {routed: url})};
          done += 1;
          if (skip) {
            skipped.push({url: result.url, reason: skip});
            options.onEvent?.({type: 'skip', url: result.url, reason: skip, done, total});
          } else {
            options.onEvent?.({type: 'page', url: result.url, records: result.count, done, total});
          }
          ready.set(index, result);
          emitting = emitting.then(drain);
          await emitting;
          return result;
        }),
      ),
    );
  } catch (error) {
    limit.clearQueue(); // the crawl failed: start no more pages
    throw error;
  } finally {
    await pool?.close();
  }
  return {pages, skipped, baseUrl, mode: 'folder' as const, streamed: true};
}

class HttpStatusError extends Error {
  constructor(readonly status: number, url: string) {
    super(`HTTP ${status} for ${url}`);
  }
}

/** A redirect out of the site's origin and base path: not followed. */
class OffSiteRedirect extends Error {
  constructor(readonly location: string) {
    super(`redirects off the site, to ${location}`);
  }
}

interface Fetched {
  /** The URL that answered, after redirects inside the site. */
  url: string;
  status: number;
  contentType: string;
  body: string;
}

function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

function describe(error: unknown): string {
  if (error instanceof HttpStatusError || error instanceof OffSiteRedirect || error instanceof TooLargeError) return error.message;
  const cause = (error as {cause?: {code?: string; message?: string}}).cause;
  if (cause?.code) return cause.code;
  if ((error as Error).name === 'TimeoutError') return 'timed out';
  return redactUrl(cause?.message ?? (error as Error).message ?? String(error));
}

/**
 * Sitemaps larger than this are not read (skipped as too-large). The protocol allows 50 MB, but
 * parsing that much took 580 MB of memory and 8.5 s (308,000 URLs, measured 2026-11-27); 16 MB
 * holds about 100,000 URLs, twice the protocol's 50,000 per file (a sitemap index splits more).
 */
export const MAX_SITEMAP_BYTES = 16 * 1024 * 1024;

/** A body over the size limit: not read past it, the page skipped as `too-large`. */
class TooLargeError extends Error {
  constructor(readonly url: string, maxBytes: number) {
    super(`larger than ${maxBytes / 1024 / 1024} MB`);
  }
}

/** Reads a response's body, at most `maxBytes` of it (its Content-Length is checked first). */
async function readBody(response: Response, url: string, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    throw new TooLargeError(url, maxBytes);
  }
  if (!response.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > maxBytes) {
      await response.body.cancel().catch(() => {});
      throw new TooLargeError(url, maxBytes);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;

/** HTTP for a URL crawl: retries (p-retry), redirects followed only inside the site, Basic auth. */
class SiteClient {
  constructor(
    private readonly options: CrawlOptions,
    private readonly inScope: (url: URL) => boolean,
    private readonly authorization: string | undefined,
  ) {}

  /**
   * GETs `url`; an error status throws HttpStatusError unless `allowStatus` accepts it, a body
   * over `maxBytes` (default MAX_PAGE_BYTES) a TooLargeError.
   */
  async get(url: string, allowStatus: (status: number) => boolean = () => false, maxBytes = MAX_PAGE_BYTES): Promise<Fetched> {
    let current = url;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const answer = await this.request(current, allowStatus, maxBytes);
      if (answer.location === undefined) return {...answer, url: current};
      const next = new URL(answer.location, current);
      next.hash = '';
      if (!this.inScope(next)) throw new OffSiteRedirect(redactUrl(next.toString()));
      current = next.toString();
    }
    throw new Error(`more than ${MAX_REDIRECTS} redirects from ${url}`);
  }

  private request(url: string, allowStatus: (status: number) => boolean, maxBytes: number): Promise<Omit<Fetched, 'url'> & {location?: string}> {
    const attempts = this.options.attempts ?? 3;
    const headers: Record<string, string> = {'user-agent': 'docs-indexer'};
    if (this.authorization) headers.authorization = this.authorization;
    return pRetry(
      async () => {
        const response = await fetch(url, {
          redirect: 'manual',
          signal: this.options.signal
            ? AbortSignal.any([AbortSignal.timeout(this.options.timeoutMs ?? 15_000), this.options.signal])
            : AbortSignal.timeout(this.options.timeoutMs ?? 15_000),
          headers,
        });
        const location = response.headers.get('location');
        if (REDIRECTS.has(response.status) && location) {
          await response.body?.cancel();
          return {status: response.status, contentType: '', body: '', location};
        }
        if (!response.ok && !allowStatus(response.status)) {
          await response.body?.cancel();
          const error = new HttpStatusError(response.status, url);
          throw isRetryableStatus(response.status) ? error : new AbortError(error);
        }
        const contentType = response.headers.get('content-type') ?? '';
        let bytes: Uint8Array;
        try {
          bytes = await readBody(response, url, maxBytes);
        } catch (error) {
          throw error instanceof TooLargeError ? new AbortError(error) : error;
        }
        // A page is read in the encoding a browser would use (header, BOM, <meta charset>); anything else as UTF-8.
        const body = /html/i.test(contentType) ? decodePage(bytes, contentType) : new TextDecoder().decode(bytes);
        return {status: response.status, contentType, body};
      },
      {
        retries: attempts - 1,
        ...(this.options.signal ? {signal: this.options.signal} : {}),
        minTimeout: 100,
        factor: 2,
        randomize: false,
        onFailedAttempt: ({error, attemptNumber, retriesLeft}) => {
          if (retriesLeft > 0) this.options.onEvent?.({type: 'retry', url, attempt: attemptNumber, error: describe(error)});
        },
      },
    );
  }
}

/** What the crawl reads from a page besides its records: links, canonical, hreflang alternates. */
interface PageLinks {
  canonical?: string;
  alternates: string[];
  links: string[];
}

const ATTRIBUTE = /([^\s"'=<>/]+)\s*=\s*("([^"]*)"|'([^']*)'|([^\s>]+))/g;
const ASSET = /\.(png|jpe?g|gif|svg|webp|avif|ico|css|js|mjs|map|json|xml|ya?ml|txt|pdf|zip|gz|woff2?|ttf|eot|mp4|webm|mp3)$/i;

function decodeAttribute(value: string): string {
  return value.replace(/&(amp|quot|apos|#39|lt|gt);/g, (_m, name: string) =>
    name === 'amp' ? '&' : name === 'quot' ? '"' : name === 'lt' ? '<' : name === 'gt' ? '>' : "'",
  );
}

/**
 * Links, canonical and alternates of a page, from its `<a>` and `<link>` tags. A string scan:
 * link discovery needs no DOM, and a link it misreads is still checked against the site's scope.
 */
export function pageLinks(html: string): PageLinks {
  const result: PageLinks = {alternates: [], links: []};
  for (const tag of html.matchAll(/<(a|link)\s([^>]*)>/gi)) {
    const attributes = new Map<string, string>();
    for (const m of (tag[2] ?? '').matchAll(ATTRIBUTE)) {
      attributes.set((m[1] ?? '').toLowerCase(), decodeAttribute(m[3] ?? m[4] ?? m[5] ?? ''));
    }
    const href = attributes.get('href');
    if (!href) continue;
    if ((tag[1] ?? '').toLowerCase() === 'a') result.links.push(href);
    else {
      const rel = (attributes.get('rel') ?? '').toLowerCase().split(/\s+/);
      if (rel.includes('canonical')) result.canonical ??= href;
      else if (rel.includes('alternate') && attributes.has('hreflang')) result.alternates.push(href);
    }
  }
  return result;
}

async function crawlUrl(source: string, options: CrawlOptions) {
  const concurrency = concurrencyOf(options);
  const maxFailed = maxFailedOf(options);
  checkRanges(options);
  let start: URL;
  try {
    start = new URL(source);
  } catch {
    throw new UsageError(`SOURCE "${redactUrl(source)}" is not a valid URL`);
  }
  // Credentials in SOURCE are sent as Basic auth, and never shown or copied into a record.
  const authorization =
    start.username || start.password
      ? `Basic ${Buffer.from(`${decodeURIComponent(start.username)}:${decodeURIComponent(start.password)}`).toString('base64')}`
      : undefined;
  start.username = '';
  start.password = '';
  start.hash = '';
  const shown = start.toString();
  const origin = start.origin;
  const sourceBase = withSlash(start.pathname);
  const scope = new URL(sourceBase, origin).toString();
  // The crawl stays on the source's origin and below its base path.
  const inScope = (url: URL): boolean => url.origin === origin && (url.pathname.startsWith(sourceBase) || `${url.pathname}/` === sourceBase);
  const client = new SiteClient(options, inScope, authorization);

  // A SOURCE page over the size limit is not read: it is skipped as too-large, and SOURCE is the root.
  let home: Fetched | TooLargeError;
  try {
    home = await client.get(start.toString());
  } catch (error) {
    checkInterrupted(options);
    if (!(error instanceof TooLargeError)) throw new SourceError(`cannot read SOURCE ${shown}: ${describe(error)}`);
    home = error;
  }
  const homeLinks: PageLinks = home instanceof TooLargeError ? {alternates: [], links: []} : pageLinks(home.body);
  const homeUrl = home instanceof TooLargeError ? shown : home.url;
  let root = scope;
  if (homeLinks.canonical) {
    try {
      root = normalizeBaseUrl(new URL(homeLinks.canonical, homeUrl).toString(), 'the canonical URL');
    } catch {
      // not a URL: the source is the root
    }
  }
  // `root` is SOURCE's own URL on the site's configured host; the site's root may lie above it (a locale).
  let {site, folderBase: baseUrl} = siteUrlsOf(root, homeLinks.alternates, options.baseUrl);
  let rootUrl = new URL(root);
  /** The site's root from the sitemap's shortest URL, when the SOURCE page could not tell it (too large to read). */
  const rootFromSitemap = (sitemap: Sitemap): void => {
    const shortest = sitemap.urls.map((u) => u.loc).sort((a, b) => a.length - b.length)[0];
    if (!shortest) return;
    try {
      root = normalizeBaseUrl(new URL('./', shortest).toString(), 'the sitemap URL');
    } catch {
      return;
    }
    ({site, folderBase: baseUrl} = siteUrlsOf(root, [], options.baseUrl));
    rootUrl = new URL(root);
  };

  /** The URL to fetch for a link, a sitemap entry or an alternate (which name the site's configured host). */
  const toFetch = (location: string, from: string): string | undefined => {
    let url: URL;
    try {
      url = new URL(location, from);
    } catch {
      return undefined;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    if (url.origin !== origin && url.origin === rootUrl.origin) {
      const relative = url.pathname.startsWith(rootUrl.pathname) ? url.pathname.slice(rootUrl.pathname.length) : `${url.pathname}/` === rootUrl.pathname ? '' : undefined;
      if (relative === undefined) return undefined;
      url = new URL(relative, scope);
    }
    url.hash = '';
    url.search = '';
    url.username = '';
    url.password = '';
    return inScope(url) ? url.toString() : undefined;
  };
  /** The URL a fetched page is routed to on the record base. */
  const routedUrl = (fetched: string): string => {
    const pathname = new URL(fetched).pathname;
    const relative = pathname.startsWith(sourceBase) ? pathname.slice(sourceBase.length) : '';
    return new URL(relative, baseUrl).toString();
  };

  // Sitemaps: the source's, one per locale (the home page's hreflang links), and nested ones.
  const sitemapQueue = [new URL('sitemap.xml', scope).toString()];
  for (const alternate of homeLinks.alternates) {
    const localeRoot = toFetch(alternate, homeUrl);
    if (localeRoot) sitemapQueue.push(new URL('sitemap.xml', withSlash(localeRoot)).toString());
  }
  const sitemapsSeen = new Set<string>();
  const entries: SitemapEntry[] = [];
  const skipped: SkippedPage[] = [];
  let sitemapFound = false;
  for (let i = 0; i < sitemapQueue.length && sitemapsSeen.size < 1000; i++) {
    const sitemapUrl = sitemapQueue[i] ?? '';
    if (sitemapsSeen.has(sitemapUrl)) continue;
    sitemapsSeen.add(sitemapUrl);
    let fetched: Fetched;
    try {
      fetched = await client.get(sitemapUrl, (s) => s === 404 || s === 410, MAX_SITEMAP_BYTES);
    } catch (error) {
      checkInterrupted(options);
      if (i === 0 && !(error instanceof OffSiteRedirect) && !(error instanceof TooLargeError)) {
        throw new SourceError(`cannot read SOURCE ${shown}: ${describe(error)}`);
      }
      const reason = error instanceof OffSiteRedirect ? 'off-site' : error instanceof TooLargeError ? 'too-large' : 'failed';
      skipped.push({url: sitemapUrl, reason, detail: describe(error)});
      continue;
    }
    if (fetched.status !== 200) continue;
    const sitemap = parseSitemap(fetched.body);
    if (i === 0 && home instanceof TooLargeError) rootFromSitemap(sitemap);
    for (const nested of sitemap.sitemaps) {
      const url = toFetch(nested, fetched.url);
      if (url) sitemapQueue.push(url);
    }
    if (sitemap.urls.length) sitemapFound = true;
    entries.push(...sitemap.urls);
  }
  const ranks = ranksFrom(entries, site);
  const listed = new Set<string>();
  for (const entry of entries) {
    for (const location of [entry.loc, ...entry.alternates]) {
      const url = toFetch(location, scope);
      if (url) listed.add(url);
    }
  }

  const mode: CrawlMode = sitemapFound ? 'sitemap' : 'links';
  const maxPages = options.maxPages ?? 10_000;
  const limit = pLimit(concurrency);
  const pool = workerPool(options, listed.size);
  const validate = options.validate === undefined ? {} : {validate: options.validate};
  const pages: (PageResult & {fetched: string})[] = [];
  const seen = new Set<string>([start.toString(), ...listed]);
  const seenFinal = new Set<string>();
  let done = 0;
  const total = (): number => seen.size;
  options.onEvent?.({type: 'start', source: shown, mode, baseUrl, total: seen.size});
  const skip = (page: SkippedPage): void => {
    skipped.push(page);
    options.onEvent?.({type: 'skip', ...page, done, total: total()});
  };

  const visit = async (target: string, prefetched?: Fetched | TooLargeError): Promise<void> => {
    let fetched: Fetched;
    try {
      if (prefetched instanceof TooLargeError) throw prefetched;
      // Only the fetch holds a concurrency slot: a page waiting for its links must not block them.
      fetched = prefetched ?? (await limit(() => client.get(target)));
    } catch (error) {
      checkInterrupted(options);
      done += 1;
      const status = error instanceof HttpStatusError ? error.status : undefined;
      const url = routedUrl(target);
      if (error instanceof TooLargeError) skip({url, reason: 'too-large', detail: describe(error)});
      else if (error instanceof OffSiteRedirect) skip({url, reason: 'off-site', detail: describe(error)});
      else if (!listed.has(target) && (status === 404 || status === 410)) skip({url, reason: 'broken-link', detail: describe(error)});
      else skip({url, reason: 'failed', detail: describe(error)});
      return;
    }
    done += 1;
    if (seenFinal.has(fetched.url)) return;
    seenFinal.add(fetched.url);
    const routed = routedUrl(fetched.url);
    if (!/html/i.test(fetched.contentType)) {
      skip({url: routed, reason: 'not-html'});
      return;
    }
    const next: Promise<void>[] = [];
    for (const href of pageLinks(fetched.body).links) {
      const link = toFetch(href, fetched.url);
      if (!link || seen.has(link) || seen.size >= maxPages || ASSET.test(new URL(link).pathname)) continue;
      seen.add(link);
      next.push(visit(link));
    }
    const order = orderKey(routed);
    checkInterrupted(options);
    const {skipped: reason, ...page} = await extractWith(pool, {
      html: fetched.body,
      url: routed,
      site,
      pageRank: options.pageRank?.(routed) ?? ranks.get(order) ?? 0,
      pack: true,
      digests: Boolean(options.digests),
      ...validate,
    });
    if (reason) skip({url: page.url, reason});
    else {
      options.onEvent?.({type: 'page', url: page.url, records: page.count, done, total: total()});
      pages.push({...page, order, fetched: fetched.url, ...(page.url === routed ? {} : {routed})});
    }
    await Promise.all(next);
  };
  try {
    await Promise.all([visit(start.toString(), home), ...[...listed].filter((url) => url !== start.toString()).map((url) => visit(url))]);
  } finally {
    limit.clearQueue();
    await pool?.close();
  }

  // One page per record URL (a host may answer `/a` and `/a/` alike): the first in order counts.
  pages.sort((a, b) => byOrder(a, b) || compare(a.fetched, b.fetched));
  for (let i = 1; i < pages.length; i++) {
    const page = pages[i];
    if (page && page.url === pages[i - 1]?.url) {
      page.duplicate = true;
      skipped.push(duplicateOf(page));
    }
  }
  const failed = skipped.filter((p) => p.reason === 'failed');
  const attempted = Math.max(done, 1);
  if (failed.length && (failed.length / attempted) * 100 > maxFailed) {
    const first = failed.sort(byUrl)[0];
    throw new CrawlError(
      `${failed.length} of ${attempted} pages could not be fetched (${percentAbove((failed.length / attempted) * 100, maxFailed)}%, ` +
        `more than --max-failed ${maxFailed}%), e.g. ${first?.url}: ${first?.detail ?? 'failed'}; nothing was written`,
    );
  }
  return {pages, skipped, baseUrl, mode, streamed: false};
}
