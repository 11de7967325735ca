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
 *
 * Each concern in its own module: types.ts (options, events, result), urls.ts (URL rules),
 * sitemap.ts, http.ts (fetching and retries), links.ts (a page's links), pages.ts (a page's
 * extraction and order), folder.ts (the folder crawl), site.ts (the URL crawl). This one runs
 * either and gathers the result.
 */
import type {SearchRecord} from 'docs-search/record';
import {RecordStore} from '../records/store.ts';
import {DEFAULT_MAX_RECORD_BYTES} from '../records/limits.ts';
import {SourceError, UsageError} from '../errors.ts';
import {crawlFolder} from './folder.ts';
import {crawlUrl} from './site.ts';
import {byOrder, byUrl, checkInterrupted, checkRanges, crawledPage, InterruptedError} from './pages.ts';
import type {CrawlOptions, CrawlResult, SkippedPage} from './types.ts';
import {isHttpSource, redactUrl} from './urls.ts';

export type {CrawlEvent, CrawlMode, CrawlOptions, CrawlResult, CrawlSkipReason, CrawledPage, SkippedPage} from './types.ts';
export {DEFAULT_MAX_FAILED, DEFAULT_MAX_PAGES} from './defaults.ts';
export {InterruptedError, percentAbove} from './pages.ts';
export {isHttpSource, orderKey, redactUrl, servedPath} from './urls.ts';
export {MAX_SITEMAP_BYTES, parseSitemap, rankOfPriority, sitemapLocs, type Sitemap, type SitemapEntry} from './sitemap.ts';
export {pageLinks} from './links.ts';

/** Why a crawl that found no page to index found none: its skipped pages by reason, and one of them. */
function whySkipped(skipped: readonly SkippedPage[]): string {
  if (skipped.length === 0) return '';
  const counts = new Map<string, number>();
  for (const page of skipped) counts.set(page.reason, (counts.get(page.reason) ?? 0) + 1);
  const reasons = [...counts].map(([reason, n]) => `${n} ${reason}`).join(', ');
  const first = skipped[0] as SkippedPage;
  const example = `${redactUrl(first.url)}: ${first.reason}${first.detail ? ` (${first.detail})` : ''}`;
  return skipped.length === 1 ? `: its only page was skipped (${example})` : `: all ${skipped.length} pages were skipped (${reasons}; e.g. ${example})`;
}

export async function crawl(source: string, options: CrawlOptions = {}): Promise<CrawlResult> {
  if (!source) throw new UsageError('missing SOURCE: pass a build folder or an http(s) URL');
  checkInterrupted(options);
  checkRanges(options);
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
  const store = new RecordStore(options.validate !== false, options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES);
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
    throw new SourceError(`the crawl of ${redactUrl(source)} found no pages to index${whySkipped(skippedPages)}`);
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
    ...('maxPagesReached' in result && result.maxPagesReached !== undefined ? {maxPagesReached: result.maxPagesReached} : {}),
  };
}
