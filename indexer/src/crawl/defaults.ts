/** Defaults of the crawl that the CLI's help shows: a module of its own, so `--help` loads no crawl code. */

/** Default of `maxFailed`: the share of pages (in %) that may fail before the crawl does. */
export const DEFAULT_MAX_FAILED = 10;

/**
 * Default of `maxPages` (`--max-pages`): a URL crawl fetches at most this many pages, however many
 * its sitemaps and links name (a hostile sitemap index listed 1,000,000). Far above a real docs
 * site (many versions times many locales); reported when reached.
 */
export const DEFAULT_MAX_PAGES = 20_000;
/** Highest `--max-pages`. */
export const MAX_MAX_PAGES = 1_000_000;
