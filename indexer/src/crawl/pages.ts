/**
 * A crawled page's records, whichever way the page came (file or fetch): its extraction (on the
 * worker pool, or in this thread), the order pages are given in, duplicates, and the checks of
 * the options both kinds of crawl share.
 */
import {readRegularFile} from '../read-regular.ts';
import type {SearchRecord} from 'docs-search/record';
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
import {RecordStore, type PackedDigest} from '../records/store.ts';
import {CrawlError, SourceError, UsageError} from '../errors.ts';
import {DEFAULT_MAX_FAILED, MAX_MAX_PAGES} from './defaults.ts';
import {MAX_MAX_RECORD_BYTES, MIN_MAX_RECORD_BYTES} from '../records/limits.ts';
import type {CrawledPage, CrawlOptions, SkippedPage} from './types.ts';
import {compare} from './urls.ts';

/** One page's records: objects (extracted in this thread), JSON text or deflated JSON (from a worker). */
export interface PageResult {
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
export function duplicateOf(page: PageResult): SkippedPage {
  return {url: page.routed ?? page.url, reason: 'duplicate', detail: `same page as ${page.url}`};
}

export function crawledPage(page: PageResult): CrawledPage {
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

export const byUrl = (a: {url: string}, b: {url: string}): number => compare(a.url, b.url);

export const byOrder = (a: PageResult, b: PageResult): number => compare(a.order, b.order) || byUrl(a, b);

/** The crawl was stopped through its `signal` (Ctrl-C, SIGTERM): nothing it found is used. */
export class InterruptedError extends CrawlError {
  constructor() {
    super('interrupted');
  }
}

/** Throws an InterruptedError once the crawl's signal has fired. */
export function checkInterrupted(options: CrawlOptions): void {
  if (options.signal?.aborted) throw new InterruptedError();
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

export function concurrencyOf(options: CrawlOptions): number {
  const n = options.concurrency ?? 8;
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`concurrency must be a positive integer (got ${n})`);
  return n;
}

/**
 * The ranges of a URL crawl's numeric options: no timer may near Node's 2^31 - 1 ms limit
 * (above it a timer fires after 1 ms), and every crawl ends in bounded time.
 */
const CRAWL_RANGES = {
  attempts: [1, 20],
  timeoutMs: [1, 600_000],
  maxPages: [1, MAX_MAX_PAGES],
  maxRecordBytes: [MIN_MAX_RECORD_BYTES, MAX_MAX_RECORD_BYTES],
} as const;

export function checkRanges(options: CrawlOptions): void {
  for (const [name, [min, max]] of Object.entries(CRAWL_RANGES)) {
    const value = options[name as keyof typeof CRAWL_RANGES];
    if (value !== undefined && !(Number.isInteger(value) && value >= min && value <= max)) {
      throw new UsageError(`${name} must be a whole number from ${min} to ${max} (got ${value})`);
    }
  }
}

export function maxFailedOf(options: CrawlOptions): number {
  const n = options.maxFailed ?? DEFAULT_MAX_FAILED;
  if (!Number.isFinite(n) || n < 0 || n > 100) throw new UsageError(`maxFailed must be a percentage from 0 to 100 (got ${n})`);
  return n;
}

export type ExtractedResult = Omit<PageResult, 'order'> & {skipped?: PageSkipReason; detail?: string};

/** Extracts one page on the pool, or in this thread (no pool, or its worker died). */
export async function extractWith(pool: ExtractPool | undefined, job: PageJob): Promise<ExtractedResult> {
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
    let bytes: Buffer | undefined;
    try {
      bytes = await readRegularFile(file, MAX_PAGE_BYTES);
    } catch (error) {
      throw new SourceError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
    if (bytes === undefined) return {url: job.url, count: 0, skipped: 'too-large'};
    html = decodePage(bytes);
  }
  const page = extractOrSkip(html, {
    url: job.url,
    pageRank: job.pageRank,
    ...(job.site ? {site: job.site} : {}),
    ...(job.validate === undefined ? {} : {validate: job.validate}),
    ...(job.maxRecordBytes === undefined ? {} : {maxRecordBytes: job.maxRecordBytes}),
  });
  return {
    url: page.url,
    records: page.records,
    count: page.records.length,
    ...(page.skipped ? {skipped: page.skipped} : {}),
    ...(page.detail ? {detail: page.detail} : {}),
  };
}

/** The worker pool of a crawl of `pages` pages, if it uses one. */
export function workerPool(options: CrawlOptions, pages: number): ExtractPool | undefined {
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
