/**
 * Library API of docs-indexer, one stage after the other: crawl → extract → records → publish
 * (Algolia or the local index). The CLI (cli/main.ts) is a thin layer over it. The record itself
 * is defined in docs-search/record and re-exported here.
 */
export * from 'docs-search/record';
export {crawl, InterruptedError, isHttpSource, servedPath, sitemapLocs, parseSitemap, rankOfPriority, redactUrl, DEFAULT_MAX_FAILED} from './crawl/crawl.ts';
export type {CrawlEvent, CrawlMode, CrawlOptions, CrawlResult, CrawlSkipReason, SkippedPage, Sitemap, SitemapEntry} from './crawl/crawl.ts';
export {extractPage, extractPageDetailed, escapeHtml, splitText, recordUrlFor, DEFAULT_LVL0, HOME_LVL0, PAGES_LVL0} from './extract/extract.ts';
export type {ExtractOptions, ExtractedPage, SiteUrls, SkipReason} from './extract/extract.ts';
export {publishToAlgolia, isRetryable, describeError, tempIndexName, SETTING_RANGES, DEFAULT_TASK_TIMEOUT_MS} from './publish/algolia/publish.ts';
export type {PublishEvent, PublishOptions, PublishResult, PublishStep, RecordChange} from './publish/algolia/publish.ts';
export {DOCSEARCH_SETTINGS, settingsMatch} from './publish/algolia/settings.ts';
export type {IndexSettings} from './publish/algolia/settings.ts';
export {buildLocalIndex, formatKB, loadLocalIndex, serializeLocalIndex, writeLocalIndex} from './publish/local/publish.ts';
export type {LocalIndexStats, WriteLocalIndexOptions} from './publish/local/publish.ts';
export {readSynonymsFile} from './records/synonyms.ts';
export * from './errors.ts';
export {resolveCrawlOptions, resolvePushOptions, parseHosts} from './cli/options.ts';
export type {AlgoliaHost, CrawlCommandOptions, PushCommandOptions} from './cli/options.ts';
