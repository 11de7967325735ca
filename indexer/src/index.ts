/** Library API of docs-indexer: one export per stage. The CLI (cli.ts) is a thin layer over it. */
export * from './records.ts';
export {extractPage, extractPageDetailed, escapeHtml, splitText, DEFAULT_LVL0, HOME_LVL0, PAGES_LVL0} from './extract.ts';
export type {ExtractOptions, ExtractedPage, SkipReason} from './extract.ts';
export {crawl, isHttpSource, servedPath, sitemapLocs} from './crawl.ts';
export type {CrawlEvent, CrawlMode, CrawlOptions, CrawlResult} from './crawl.ts';
export {objectIdFor, hashText} from './object-id.ts';
export * from './errors.ts';
export {publishToAlgolia, isRetryable, describeError, tempIndexName} from './publish-algolia.ts';
export type {PublishEvent, PublishOptions, PublishResult, PublishStep, RecordChange} from './publish-algolia.ts';
export {DOCSEARCH_SETTINGS, settingsMatch} from './settings.ts';
export type {IndexSettings} from './settings.ts';
export {resolveCrawlOptions, resolvePushOptions, parseHosts} from './options.ts';
export type {AlgoliaHost, CrawlCommandOptions, PushCommandOptions} from './options.ts';
