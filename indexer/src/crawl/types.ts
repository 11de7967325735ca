/**
 * What a crawl is given (CrawlOptions), what it reports as it goes (CrawlEvent) and what it
 * gives back (CrawlResult, CrawledPage, SkippedPage).
 */
import type {SearchRecord} from 'docs-search/record';
import type {PageSkipReason} from '../extract/pool.ts';
import type {RecordStore} from '../records/store.ts';

export type CrawlMode = 'folder' | 'sitemap' | 'links';

/**
 * Why a page gave no records: the page's own reasons (extract.ts), or the crawl's: `failed`
 * (an error or an error status after retries), `broken-link` (a link, not in any sitemap, that
 * answers 404 or 410), `off-site` (a redirect out of the site's origin and base path),
 * `duplicate` (a second page with the same record URL), `not-a-file` (in a folder, a `*.html` that
 * is a FIFO, a device, a socket or a symbolic link to anything but a regular file inside the
 * folder: never opened), `bad-file-name` (in a folder, a page, or a folder of pages, whose name
 * is not UTF-8: it cannot be named by a URL nor opened by its decoded name; the detail shows its
 * bytes escaped). A page's own reasons include `redirect` (a meta refresh or canonical link to
 * another page: the detail names it).
 */
export type CrawlSkipReason = PageSkipReason | 'failed' | 'broken-link' | 'off-site' | 'duplicate' | 'not-a-file' | 'bad-file-name';

export interface SkippedPage {
  url: string;
  reason: CrawlSkipReason;
  /** What happened, for failed, broken and off-site pages (e.g. "HTTP 503"), where a redirect goes (`to URL`), what a file is. */
  detail?: string;
}

/** Progress events, in the order they happen. */
export type CrawlEvent =
  | {type: 'start'; source: string; mode: CrawlMode; baseUrl: string; total?: number}
  | {type: 'page'; url: string; records: number; done: number; total?: number}
  | ({type: 'skip'; done: number; total?: number} & SkippedPage)
  | {type: 'retry'; url: string; attempt: number; error: string}
  | {type: 'done'; pages: number; records: number; skipped: number; failed: number; seconds: number};

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
  /**
   * A URL crawl fetches at most this many pages, from its sitemaps and links together (default
   * DEFAULT_MAX_PAGES, 20,000; 1 to 1,000,000). Reaching it is reported (`maxPagesReached`).
   */
  maxPages?: number;
  /**
   * A URL crawl fails (CrawlError) when more than this share of its pages, in percent, could not
   * be fetched (default DEFAULT_MAX_FAILED; 0: any failure fails the crawl, 100: never).
   */
  maxFailed?: number;
  /** Validate every record against the zod schema (default true). */
  validate?: boolean;
  /**
   * No record is larger than this once serialised, in bytes of JSON (default 10,000, Algolia's
   * limit on most plans; 2,000 to 100,000). Long headings, anchors and URLs are trimmed, text is
   * split; a page that still cannot fit is skipped as `record-too-large`.
   */
  maxRecordBytes?: number;
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
  /** Set to `maxPages` when a URL crawl found more pages than that and crawled only that many. */
  maxPagesReached?: number;
}
