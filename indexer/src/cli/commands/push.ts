import type {RawPushOptions} from '../options.ts';
import type {PublishEvent, PublishResult} from '../../publish/algolia/publish.ts';
import {DEFAULT_CONCURRENCY} from '../defaults.ts';
import {interruptible, seconds, terminalJson, writeAll, type RegisterCommand} from './context.ts';
import {CrawlError, IndexerError} from '../../errors.ts';
import {MAX_FAILED_HELP, MAX_PAGES_HELP, MAX_RECORD_BYTES_HELP, maxPagesLine, skippedLines} from './crawl.ts';

export interface PushSummary {
  pages: number;
  records: number;
  added: number;
  updated: number;
  deleted: number;
  unchanged: number;
  bytes: number;
  seconds: number;
  index: string;
  dryRun: boolean;
  /** Only in a dry run: what would change. */
  changes?: PublishResult['changes'];
  /** With --synonyms: synonyms saved (or that would be), removed and unchanged. */
  synonyms?: PublishResult['synonyms'];
  /** Set to --max-pages when the crawl stopped there with more pages left. */
  maxPagesReached?: number;
}

/** The line printed on stderr for an event worth keeping in a CI log. */
function noteFor(event: Extract<PublishEvent, {type: 'leftover' | 'warning' | 'duplicates'}>): string {
  if (event.type === 'leftover') return `removed the temporary index "${event.index}" left by an earlier run`;
  if (event.type === 'duplicates') {
    return `${event.renamed} records repeated an earlier record's objectID and were renamed (e.g. ${event.example})`;
  }
  return `warning: ${event.message}`;
}

function humanSummary(summary: PushSummary, result: PublishResult): string {
  const s = summary.synonyms;
  const synonyms = s ? `; synonyms: ${s.saved} saved, ${s.removed} removed, ${s.unchanged} unchanged` : '';
  const counts = `${summary.added} added, ${summary.updated} updated, ${summary.deleted} deleted, ${summary.unchanged} unchanged${synonyms}`;
  if (summary.dryRun) {
    const lines = [
      `dry run: index "${summary.index}" would get ${counts} (${summary.pages} pages, ${summary.records} records, ${summary.bytes} bytes); nothing was written`,
    ];
    for (const c of result.changes.add) lines.push(`  + ${c.url}`);
    for (const c of result.changes.update) lines.push(`  ~ ${c.url}`);
    for (const c of result.changes.delete) lines.push(`  - ${c.url}`);
    return `${lines.join('\n')}\n`;
  }
  if (!result.wrote) {
    return `index "${summary.index}" is already up to date: ${summary.records} records from ${summary.pages} pages, nothing sent (${summary.seconds} s)\n`;
  }
  return `published ${summary.pages} pages (${summary.records} records) to "${summary.index}": ${counts}, ${summary.bytes} bytes sent in ${summary.seconds} s\n`;
}

/** `docs-indexer push SOURCE [--base-url URL] [--index NAME] [--synonyms FILE] [--full] [--dry-run] [--concurrency N] [--json]` */
export const registerPush: RegisterCommand = (program, context) => {
  program
    .command('push')
    .description('crawl SOURCE, then publish its records to Algolia atomically (only what changed, by default)')
    .argument('<SOURCE>', 'build folder (e.g. site/build) or http(s) URL of the deployed site')
    .option('--base-url <URL>', "absolute site URL for the records (default: the site's URL read from the build)")
    .option('--index <NAME>', 'live index name (default: ALGOLIA_INDEX_NAME)')
    .option('--synonyms <FILE>', "the index's synonyms, a JSON file in Algolia's shape ({\"synonyms\": [...]}); they replace the index's, diffed and moved in with the records")
    .option('--full', 'send every record instead of only the changes')
    .option('--dry-run', 'print what would change and write nothing')
    .option('--concurrency <N>', `pages read or fetched at once (default ${DEFAULT_CONCURRENCY})`)
    .option('--max-failed <PERCENT>', MAX_FAILED_HELP)
    .option('--max-pages <N>', MAX_PAGES_HELP)
    .option('--max-record-bytes <BYTES>', MAX_RECORD_BYTES_HELP)
    .option('--json', 'print one summary object on stdout')
    .addHelpText(
      'after',
      '\nEnvironment: ALGOLIA_APP_ID, ALGOLIA_ADMIN_API_KEY (write rights), ALGOLIA_INDEX_NAME (or --index),\n' +
        'ALGOLIA_HOSTS (comma-separated base URLs; when set, only these hosts are used; http: only on this machine,\n' +
        'unless DOCS_INDEXER_ALLOW_PLAIN_HTTP=1 for a trusted proxy).\n' +
        'Tuning: DOCS_INDEXER_TIMEOUT_MS (each request), DOCS_INDEXER_TASK_TIMEOUT_MS (the wait for each Algolia task),\n' +
          'DOCS_INDEXER_RETRY_DELAY_MS, DOCS_INDEXER_ATTEMPTS.',
    )
    .action(async (source: string, flags: RawPushOptions) => {
      const startedAt = performance.now();
      // Ctrl-C or SIGTERM in any phase: the crawl stops, or the publish deletes its temporary index.
      let indexName = '';
      const {options, crawled, result} = await interruptible(
        async (signal) => {
          // Loaded here, not at the top: `docs-indexer --help` and `--version` stay quick. The
          // options first: a configuration mistake is reported before the crawler and the Algolia
          // client are loaded.
          const {resolvePushOptions} = await import('../options.ts');
          // Credentials and the synonyms file are checked before the crawl: a mistake fails fast.
          const options = resolvePushOptions({...flags, source}, context.env);
          indexName = options.indexName;
          const [{crawl}, {publishToAlgolia}, {readSynonymsFile}] = await Promise.all([
            import('../../crawl/crawl.ts'),
            import('../../publish/algolia/publish.ts'),
            import('../../records/synonyms.ts'),
          ]);
          const synonyms = options.synonyms === undefined ? undefined : await readSynonymsFile(options.synonyms);
          const crawled = await crawl(options.source, {
            concurrency: options.concurrency,
            maxFailed: options.maxFailed,
            maxPages: options.maxPages,
            maxRecordBytes: options.maxRecordBytes,
            signal,
            ...(options.baseUrl ? {baseUrl: options.baseUrl} : {}),
            // The workers hash the records for the diff while they extract them.
            digests: true,
            onEvent: (event) => context.progress.crawlEvent(event),
          });
          const result = await publishToAlgolia(crawled.store, {
            appId: options.appId,
            apiKey: options.apiKey,
            indexName: options.indexName,
            ...(options.hosts ? {hosts: options.hosts} : {}),
            full: options.full,
            dryRun: options.dryRun,
            ...(synonyms ? {synonyms} : {}),
            timeoutMs: options.timeoutMs,
            taskTimeoutMs: options.taskTimeoutMs,
            retryDelayMs: options.retryDelayMs,
            attempts: options.attempts,
            maxRecordBytes: options.maxRecordBytes,
            signal,
            onEvent: (event) => {
              if (event.type === 'step') context.progress.step(`publishing: ${event.step} ${event.index}`);
              else if (event.type === 'batch') context.progress.step(`publishing: sent ${event.sent}/${event.total} operations`);
              else if (event.type === 'retry') context.progress.step(`publishing: ${event.step} failed (${event.error}), retrying in ${event.delayMs} ms`);
              else {
                // Kept in CI logs too: a line of its own on stderr, not the progress line.
                context.progress.clear();
                context.stderr.write(`docs-indexer: ${context.mask(noteFor(event))}\n`);
              }
            },
          });
          return {options, crawled, result};
        },
        // The publish's own message says what became of its temporary index; before it, nothing was written.
        (error) =>
          error instanceof IndexerError && !(error instanceof CrawlError && error.message === 'interrupted')
            ? error
            : new CrawlError(`interrupted; ${indexName ? `the live index "${indexName}"` : 'the live index'} was not changed`),
      );
      context.progress.clear();
      const summary: PushSummary = {
        pages: crawled.pages,
        records: crawled.recordCount,
        added: result.added,
        updated: result.updated,
        deleted: result.deleted,
        unchanged: result.unchanged,
        bytes: result.bytes,
        seconds: seconds(startedAt),
        index: options.indexName,
        dryRun: options.dryRun,
        ...(options.dryRun ? {changes: result.changes} : {}),
        ...(result.synonyms ? {synonyms: result.synonyms} : {}),
        ...(crawled.maxPagesReached === undefined ? {} : {maxPagesReached: crawled.maxPagesReached}),
      };
      await writeAll(context.stderr, context.mask(skippedLines(crawled) + maxPagesLine(crawled)));
      await writeAll(context.stdout, context.mask(options.json ? `${terminalJson(summary)}\n` : humanSummary(summary, result)));
    });
};
