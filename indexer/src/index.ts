/** Library API of docs-indexer: one export per stage. The CLI (cli.ts) is a thin layer over it. */
export * from './records.ts';
export {extractPage, extractPageDetailed, escapeHtml, DEFAULT_LVL0, HOME_LVL0, PAGES_LVL0} from './extract.ts';
export type {ExtractOptions, ExtractedPage, SkipReason} from './extract.ts';
export {crawl, isHttpSource, servedPath, sitemapLocs} from './crawl.ts';
export type {CrawlEvent, CrawlMode, CrawlOptions, CrawlResult} from './crawl.ts';
export {objectIdFor, hashText} from './object-id.ts';
export * from './errors.ts';
