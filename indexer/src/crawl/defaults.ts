/** Defaults of the crawl that the CLI's help shows: a module of its own, so `--help` loads no crawl code. */

/** Default of `maxFailed`: the share of pages (in %) that may fail before the crawl does. */
export const DEFAULT_MAX_FAILED = 10;
