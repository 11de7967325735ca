/**
 * The URL crawl: the source page, every sitemap (the source's, sitemap indexes, one per locale
 * from the home page's hreflang links) and every link of every page, limited to the source's
 * origin and base path; fails when more than `maxFailed` percent of the pages cannot be fetched.
 */
import pLimit from 'p-limit';
import {CrawlError, SourceError, UsageError} from '../errors.ts';
import {describe, HttpStatusError, OffSiteRedirect, SiteClient, TooLargeError, type Fetched} from './http.ts';
import {ASSET, pageLinks, type PageLinks} from './links.ts';
import {byOrder, byUrl, checkInterrupted, checkRanges, concurrencyOf, duplicateOf, extractWith, maxFailedOf, percentAbove, workerPool, type PageResult} from './pages.ts';
import {MAX_SITEMAP_BYTES, parseSitemap, ranksFrom, type Sitemap, type SitemapEntry} from './sitemap.ts';
import type {CrawlMode, CrawlOptions, SkippedPage} from './types.ts';
import {DEFAULT_MAX_PAGES} from './defaults.ts';
import {xRobotsTagNoindex} from '../extract/robots.ts';
import {compare, normalizeBaseUrl, orderKey, redactUrl, siteUrlsOf, withSlash} from './urls.ts';

/** Sitemaps a URL crawl reads at most (sitemap indexes included). */
const MAX_SITEMAPS = 1000;

export async function crawlUrl(source: string, options: CrawlOptions) {
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
  // The page cap holds for every way a page is found: sitemaps (their entries are not even kept
  // past it, nor further sitemaps read) and links. SOURCE's own page counts as one.
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  const listed = new Set<string>();
  const startUrl = start.toString();
  let capReached = false;
  const list = (entry: SitemapEntry): void => {
    let kept = false;
    for (const location of [entry.loc, ...entry.alternates]) {
      const url = toFetch(location, scope);
      if (!url || url === startUrl || listed.has(url)) continue;
      if (listed.size + 1 >= maxPages) {
        capReached = true;
        continue;
      }
      listed.add(url);
      kept = true;
    }
    if (kept) entries.push(entry);
  };
  for (let i = 0; i < sitemapQueue.length && sitemapsSeen.size < MAX_SITEMAPS && !capReached; i++) {
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
      // A sitemap index of a million entries queues no more than are ever read.
      if (url && sitemapQueue.length < 2 * MAX_SITEMAPS) sitemapQueue.push(url);
    }
    if (sitemap.urls.length) sitemapFound = true;
    for (const entry of sitemap.urls) list(entry);
  }
  const ranks = ranksFrom(entries, site);

  const mode: CrawlMode = sitemapFound ? 'sitemap' : 'links';
  const limit = pLimit(concurrency);
  const pool = workerPool(options, listed.size);
  const validate = {
    ...(options.validate === undefined ? {} : {validate: options.validate}),
    ...(options.maxRecordBytes === undefined ? {} : {maxRecordBytes: options.maxRecordBytes}),
  };
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
      if (!link || seen.has(link) || ASSET.test(new URL(link).pathname)) continue;
      if (seen.size >= maxPages) {
        capReached = true;
        continue;
      }
      seen.add(link);
      next.push(visit(link));
    }
    const order = orderKey(routed);
    checkInterrupted(options);
    // `X-Robots-Tag: noindex` (or `none`) says what a robots meta would: the page is not indexed (its links are still followed).
    if (xRobotsTagNoindex(fetched.robots)) {
      skip({url: routed, reason: 'noindex', detail: 'X-Robots-Tag'});
      await Promise.all(next);
      return;
    }
    const {skipped: reason, detail, ...page} = await extractWith(pool, {
      html: fetched.body,
      url: routed,
      site,
      pageRank: options.pageRank?.(routed) ?? ranks.get(order) ?? 0,
      pack: true,
      digests: Boolean(options.digests),
      ...validate,
    });
    if (reason) skip({url: page.url, reason, ...(detail ? {detail} : {})});
    else {
      options.onEvent?.({type: 'page', url: page.url, records: page.count, done, total: total()});
      pages.push({...page, order, fetched: fetched.url, ...(page.url === routed ? {} : {routed})});
    }
    await Promise.all(next);
  };
  try {
    await Promise.all([visit(start.toString(), home), ...[...listed].map((url) => visit(url))]);
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
  return {pages, skipped, baseUrl, mode, streamed: false, ...(capReached ? {maxPagesReached: maxPages} : {})};
}
