/**
 * Crawl stage: a build folder or a deployed site → pages → records (through the extract stage).
 *
 * - Folder: every `*.html` file below it. Docusaurus (trailingSlash: false) writes `docs/foo.html`
 *   and serves it at `/docs/foo`, so a file's URL is its path without `.html` (`index.html` → the
 *   folder's URL). The base URL is `baseUrl`, else the site's configured URL read from the build
 *   (the home page's canonical link or og:url, else the first `<loc>` of sitemap.xml).
 * - URL: the pages listed by `<source>/sitemap.xml`; without a sitemap, the same-origin links
 *   reachable from the source page.
 * - One p-limit bound on concurrent pages; typed progress events; the library never prints.
 * - Records come back in a stable order (pages sorted by URL) whatever the concurrency.
 */
import {readFile, readdir, stat} from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import {Parser} from 'htmlparser2';
import {extractPageDetailed} from '../extract/extract.ts';
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

export type CrawlMode = 'folder' | 'sitemap' | 'links';

/** Progress events, in the order they happen. */
export type CrawlEvent =
  | {type: 'start'; source: string; mode: CrawlMode; baseUrl: string; total?: number}
  | {type: 'page'; url: string; records: number; done: number; total?: number}
  | {type: 'skip'; url: string; reason: PageSkipReason | 'not-html' | 'broken-link'; done: number; total?: number}
  | {type: 'retry'; url: string; attempt: number; error: string}
  | {type: 'done'; pages: number; records: number; skipped: number; seconds: number};

export interface CrawlOptions {
  /** Makes record URLs absolute (default: the site's configured URL read from the build, or the source URL). */
  baseUrl?: string;
  /** Pages read or fetched at once (default 8). */
  concurrency?: number;
  onEvent?: (event: CrawlEvent) => void;
  /** weight.pageRank for a page; default: sitemap priority × 10 when known, else 0. */
  pageRank?: (url: string) => number | undefined;
  /** Attempts per HTTP request (default 3). */
  attempts?: number;
  /** Per-request timeout in ms (default 15000). */
  timeoutMs?: number;
  /** Stop following links after this many pages (links mode; default 10000). */
  maxPages?: number;
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
  /** Pages skipped on purpose (noindex, not found, search page). */
  skipped: number;
  baseUrl: string;
  mode: CrawlMode;
}

/** One page's records: objects (extracted in this thread), JSON text or deflated JSON (from a worker). */
interface PageResult {
  url: string;
  count: number;
  records?: SearchRecord[];
  json?: string;
  packed?: Uint8Array;
  jsonBytes?: number;
  digest?: PackedDigest;
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

const byUrl = (a: {url: string}, b: {url: string}): number => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0);

export function isHttpSource(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

export async function crawl(source: string, options: CrawlOptions = {}): Promise<CrawlResult> {
  if (!source) throw new UsageError('missing SOURCE: pass a build folder or an http(s) URL');
  const started = performance.now();
  const result = isHttpSource(source) ? await crawlUrl(source, options) : await crawlFolder(source, options);
  const pages = result.pages.filter((p) => p.count > 0);
  pages.sort(byUrl);
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
  const skipped = result.skipped;
  if (pages.length === 0) {
    throw new SourceError(`the crawl of ${source} found no pages to index`);
  }
  options.onEvent?.({
    type: 'done',
    pages: pages.length,
    records: recordCount,
    skipped,
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
    skipped,
    baseUrl: result.baseUrl,
    mode: result.mode,
  };
}

function concurrencyOf(options: CrawlOptions): number {
  const n = options.concurrency ?? 8;
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`concurrency must be a positive integer (got ${n})`);
  return n;
}

type ExtractedResult = PageResult & {skipped?: PageSkipReason};

/** Extracts one page on the pool, or in this thread (no pool, or its worker died). */
async function extractWith(pool: ExtractPool | undefined, job: PageJob): Promise<ExtractedResult> {
  // Size limits (pool.ts): too large to index at all, or too large for a worker's capped heap.
  const bytes = await pageBytes(job);
  if (bytes !== undefined && bytes > MAX_PAGE_BYTES) return {url: job.url, count: 0, skipped: 'too-large'};
  if (pool && !(bytes !== undefined && bytes > MAX_WORKER_PAGE_BYTES)) {
    try {
      return {url: job.url, ...(await pool.run(job))};
    } catch (error) {
      // A worker died (e.g. a page too big for its capped heap): this thread does the page.
      if (!(error instanceof WorkerLostError)) throw error;
    }
  }
  let html = job.html;
  if (html === undefined) {
    const file = job.file ?? '';
    try {
      html = await readFile(file, 'utf8');
    } catch (error) {
      throw new SourceError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
  }
  const page = extractOrSkip(html, {
    url: job.url,
    pageRank: job.pageRank,
    ...(job.validate === undefined ? {} : {validate: job.validate}),
  });
  return {url: job.url, records: page.records, count: page.records.length, ...(page.skipped ? {skipped: page.skipped} : {})};
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

function normalizeBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--base-url must be an absolute http(s) URL (got "${value}")`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`--base-url must be an absolute http(s) URL (got "${value}")`);
  }
  url.hash = '';
  url.search = '';
  return withSlash(url.toString());
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

async function siteUrlFromBuild(folder: string): Promise<string | undefined> {
  try {
    const html = await readFile(path.join(folder, 'index.html'), 'utf8');
    const page = extractPageDetailed(html, {url: 'https://placeholder.invalid/', validate: false});
    if (page.canonical) return page.canonical;
  } catch {
    // no home page: try the sitemap
  }
  try {
    const xml = await readFile(path.join(folder, 'sitemap.xml'), 'utf8');
    const locs = sitemapLocs(xml);
    // The shortest URL of the sitemap is the site root (every page lives below it).
    const shortest = locs.sort((a, b) => a.length - b.length)[0];
    if (shortest) return new URL('./', shortest).toString();
  } catch {
    // no sitemap either
  }
  return undefined;
}

async function listHtmlFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, {recursive: true, withFileTypes: true});
  const files: string[] = [];
  for (const entry of entries) {
    if (!entry.isFile() || !/\.html?$/i.test(entry.name)) continue;
    // Node 20 names the folder `path` (newer releases `parentPath`).
    const dir = (entry as unknown as {parentPath?: string}).parentPath ?? entry.path;
    files.push(path.relative(folder, path.join(dir, entry.name)));
  }
  return files.sort();
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
  let files: string[];
  try {
    files = await listHtmlFiles(folder);
  } catch (error) {
    throw new SourceError(`cannot read SOURCE "${folder}": ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  if (files.length === 0) throw new SourceError(`SOURCE "${folder}" contains no HTML pages`);
  const configured = options.baseUrl ?? (await siteUrlFromBuild(folder));
  if (!configured) {
    throw new UsageError(`cannot tell the site's URL from "${folder}": pass --base-url URL`);
  }
  const baseUrl = normalizeBaseUrl(configured);
  const total = files.length;
  options.onEvent?.({type: 'start', source: folder, mode: 'folder', baseUrl, total});
  let done = 0;
  let skipped = 0;
  // Pages are handed to onPage in URL order: finished pages wait in `ready` for their turn.
  const jobs = files.map((file) => ({file, url: new URL(encodePath(servedPath(file)), baseUrl).toString()})).sort(byUrl);
  const ready = new Map<number, PageResult>();
  let nextToEmit = 0;
  let emitting: Promise<void> = Promise.resolve();
  const collect = options.collect !== false;
  const drain = async (): Promise<void> => {
    for (let page = ready.get(nextToEmit); page; page = ready.get(nextToEmit)) {
      ready.delete(nextToEmit);
      nextToEmit += 1;
      if (page.count > 0) await options.onPage?.(crawledPage(page));
      if (!collect) {
        delete page.records;
        delete page.json;
      }
    }
  };
  const pool = workerPool(options, files.length);
  const validate = options.validate === undefined ? {} : {validate: options.validate};
  const extract = (file: string, url: string): Promise<ExtractedResult> =>
    extractWith(pool, {file: path.join(folder, file), url, pageRank: options.pageRank?.(url) ?? 0, pack: collect, digests: collect && Boolean(options.digests), ...validate});
  let pages: PageResult[];
  try {
    pages = await Promise.all(
      jobs.map(({file, url}, index) =>
        limit(async (): Promise<PageResult> => {
          const {skipped: skip, ...result} = await extract(file, url);
          done += 1;
          if (skip) {
            skipped += 1;
            options.onEvent?.({type: 'skip', url, reason: skip, done, total});
          } else {
            options.onEvent?.({type: 'page', url, records: result.count, done, total});
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

/** `<loc>` values of a sitemap or sitemap index. */
export function sitemapLocs(xml: string): string[] {
  return [...xml.matchAll(/<loc>\s*([^<]+?)\s*<\/loc>/g)].map((m) =>
    (m[1] ?? '').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'"),
  );
}

function sitemapPriorities(xml: string): Map<string, number> {
  const priorities = new Map<string, number>();
  for (const m of xml.matchAll(/<url>([\s\S]*?)<\/url>/g)) {
    const body = m[1] ?? '';
    const loc = /<loc>\s*([^<]+?)\s*<\/loc>/.exec(body)?.[1];
    const priority = /<priority>\s*([\d.]+)\s*<\/priority>/.exec(body)?.[1];
    if (loc && priority) priorities.set(loc.replace(/&amp;/g, '&'), Number(priority));
  }
  return priorities;
}

class HttpStatusError extends Error {
  constructor(readonly status: number, url: string) {
    super(`HTTP ${status} for ${url}`);
  }
}

interface Fetched {
  url: string;
  status: number;
  contentType: string;
  body: string;
}

function isRetryableFetchError(error: unknown): boolean {
  if (error instanceof HttpStatusError) return error.status === 429 || error.status >= 500;
  return true; // network errors, resets, timeouts
}

function describe(error: unknown): string {
  if (error instanceof HttpStatusError) return error.message;
  const cause = (error as {cause?: {code?: string; message?: string}}).cause;
  if (cause?.code) return cause.code;
  if ((error as Error).name === 'TimeoutError') return 'timed out';
  return cause?.message ?? (error as Error).message ?? String(error);
}

async function fetchPage(url: string, options: CrawlOptions, allowStatus: (s: number) => boolean): Promise<Fetched> {
  const attempts = options.attempts ?? 3;
  let last: unknown;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      const response = await fetch(url, {
        redirect: 'follow',
        signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
        headers: {'user-agent': 'docs-indexer'},
      });
      const body = await response.text();
      if (!response.ok && !allowStatus(response.status)) throw new HttpStatusError(response.status, url);
      return {url: response.url || url, status: response.status, contentType: response.headers.get('content-type') ?? '', body};
    } catch (error) {
      last = error;
      if (!isRetryableFetchError(error) || attempt === attempts) break;
      options.onEvent?.({type: 'retry', url, attempt, error: describe(error)});
      await new Promise((r) => setTimeout(r, 100 * 2 ** (attempt - 1)));
    }
  }
  throw Object.assign(new Error(describe(last)), {cause: last});
}

function sameOriginLinks(html: string, pageUrl: string, origin: string): string[] {
  const hrefs: string[] = [];
  const parser = new Parser({
    onopentag(name, attribs) {
      if (name === 'a' && attribs.href) hrefs.push(attribs.href);
    },
  });
  parser.end(html);
  const links: string[] = [];
  for (const href of hrefs) {
    try {
      const url = new URL(href, pageUrl);
      if (url.origin !== origin) continue;
      if (/\.(png|jpe?g|gif|svg|webp|ico|css|js|json|xml|txt|pdf|zip|woff2?)$/i.test(url.pathname)) continue;
      url.hash = '';
      url.search = '';
      links.push(url.toString());
    } catch {
      // not a URL
    }
  }
  return links;
}

async function crawlUrl(source: string, options: CrawlOptions) {
  const concurrency = concurrencyOf(options);
  let start: URL;
  try {
    start = new URL(source);
  } catch {
    throw new UsageError(`SOURCE "${source}" is not a valid URL`);
  }
  start.hash = '';
  const origin = start.origin;
  // Record URLs follow the source (or --base-url), even when the sitemap names another host.
  const sourceBasePath = withSlash(start.pathname);
  const baseUrl = normalizeBaseUrl(options.baseUrl ?? new URL(sourceBasePath, origin).toString());
  const rebase = (url: string): string => {
    const pathname = new URL(url).pathname;
    const relative = pathname.startsWith(sourceBasePath) ? pathname.slice(sourceBasePath.length) : pathname.slice(1);
    return new URL(relative, baseUrl).toString();
  };

  const sitemapUrl = new URL('sitemap.xml', withSlash(start.toString())).toString();
  let sitemap: Fetched;
  try {
    sitemap = await fetchPage(sitemapUrl, options, (s) => s === 404 || s === 410);
  } catch (error) {
    throw new SourceError(`cannot read SOURCE ${source}: ${(error as Error).message}`);
  }
  let targets: string[] = [];
  let priorities = new Map<string, number>();
  if (sitemap.status === 200 && /<(urlset|sitemapindex)\b/.test(sitemap.body)) {
    let xml = sitemap.body;
    if (/<sitemapindex\b/.test(xml)) {
      const nested = await Promise.all(
        sitemapLocs(xml).map((loc) => fetchPage(toOrigin(loc, origin), options, () => false).then((f) => f.body)),
      );
      xml = nested.join('\n');
    }
    priorities = sitemapPriorities(xml);
    targets = [...new Set(sitemapLocs(xml).map((loc) => toOrigin(loc, origin)))];
  }
  const mode: CrawlMode = targets.length ? 'sitemap' : 'links';
  const limit = pLimit(concurrency);
  const pages: PageResult[] = [];
  let skipped = 0;
  let done = 0;
  const rankOf = (url: string, loc: string): number => {
    const fromOption = options.pageRank?.(url);
    if (fromOption !== undefined) return fromOption;
    const priority = priorities.get(loc);
    return priority === undefined ? 0 : Math.round(priority * 10);
  };

  if (mode === 'sitemap') {
    const total = targets.length;
    options.onEvent?.({type: 'start', source, mode, baseUrl, total});
    const originalLocs = new Map(sitemapLocs(sitemap.body).map((loc) => [toOrigin(loc, origin), loc]));
    const pool = workerPool(options, total);
    // Pages wait for the end of the crawl here: kept deflated when a worker extracted them.
    const validate = options.validate === undefined ? {} : {validate: options.validate};
    const extract = (html: string, url: string, pageRank: number): Promise<ExtractedResult> =>
      extractWith(pool, {html, url, pageRank, pack: true, digests: Boolean(options.digests), ...validate});
    try {
      await Promise.all(
        targets.map((target) =>
          limit(async () => {
            let fetched: Fetched;
            try {
              fetched = await fetchPage(target, options, () => false);
            } catch (error) {
              throw new CrawlError(`cannot fetch ${target}: ${(error as Error).message}`);
            }
            done += 1;
            const url = rebase(fetched.url);
            if (!/html/i.test(fetched.contentType)) {
              options.onEvent?.({type: 'skip', url, reason: 'not-html', done, total});
              return;
            }
            const {skipped: skip, ...page} = await extract(fetched.body, url, rankOf(url, originalLocs.get(target) ?? target));
            if (skip) {
              skipped += 1;
              options.onEvent?.({type: 'skip', url, reason: skip, done, total});
            } else {
              options.onEvent?.({type: 'page', url, records: page.count, done, total});
            }
            pages.push(page);
          }),
        ),
      );
    } finally {
      await pool?.close();
    }
    return {pages, skipped, baseUrl, mode, streamed: false};
  }

  // No sitemap: follow same-origin links from the source page.
  options.onEvent?.({type: 'start', source, mode, baseUrl});
  const maxPages = options.maxPages ?? 10_000;
  const seen = new Set<string>([start.toString()]);
  const seenFinal = new Set<string>();
  let first = true;
  const visit = async (target: string): Promise<void> => {
    let fetched: Fetched;
    try {
      // Only the fetch holds a concurrency slot: a page waiting for its links must not block them.
      fetched = await limit(() => fetchPage(target, options, () => false));
    } catch (error) {
      if (first) throw new SourceError(`cannot read SOURCE ${source}: ${(error as Error).message}`);
      done += 1;
      options.onEvent?.({type: 'skip', url: target, reason: 'broken-link', done});
      return;
    }
    first = false;
    done += 1;
    const finalUrl = new URL(fetched.url);
    finalUrl.hash = '';
    if (seenFinal.has(finalUrl.toString())) return;
    seenFinal.add(finalUrl.toString());
    const url = rebase(finalUrl.toString());
    if (!/html/i.test(fetched.contentType)) {
      options.onEvent?.({type: 'skip', url, reason: 'not-html', done});
      return;
    }
    if (Buffer.byteLength(fetched.body) > MAX_PAGE_BYTES) {
      skipped += 1;
      options.onEvent?.({type: 'skip', url, reason: 'too-large', done});
      return;
    }
    const page = extractOrSkip(fetched.body, {
      url,
      pageRank: options.pageRank?.(url) ?? 0,
      ...(options.validate === undefined ? {} : {validate: options.validate}),
    });
    if (page.skipped) {
      skipped += 1;
      options.onEvent?.({type: 'skip', url, reason: page.skipped, done});
    } else {
      options.onEvent?.({type: 'page', url, records: page.records.length, done});
      pages.push({url, records: page.records, count: page.records.length});
    }
    const next: Promise<void>[] = [];
    for (const link of sameOriginLinks(fetched.body, finalUrl.toString(), origin)) {
      if (seen.has(link) || seen.size >= maxPages) continue;
      seen.add(link);
      next.push(visit(link));
    }
    await Promise.all(next);
  };
  await visit(start.toString());
  return {pages, skipped, baseUrl, mode, streamed: false};
}

/** Sitemaps name the production host; fetch the same path from the host being crawled. */
function toOrigin(loc: string, origin: string): string {
  try {
    const url = new URL(loc);
    return new URL(url.pathname + url.search, origin).toString();
  } catch {
    return new URL(loc, origin).toString();
  }
}
