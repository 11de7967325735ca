import {writeFile} from 'node:fs/promises';
import {crawl} from '../crawl.ts';
import {UsageError} from '../errors.ts';
import {resolveCrawlOptions, type RawCrawlOptions} from '../options.ts';
import {seconds, writeAll, type RegisterCommand} from './context.ts';

export interface CrawlSummary {
  pages: number;
  records: number;
  skipped: number;
  bytes: number;
  seconds: number;
}

/** `docs-indexer crawl SOURCE [--out FILE] [--base-url URL] [--concurrency N] [--json]` */
export const registerCrawl: RegisterCommand = (program, context) => {
  program
    .command('crawl')
    .description('crawl a build folder or a site URL and write its search records as a JSON array')
    .argument('<SOURCE>', 'build folder (e.g. site/build) or http(s) URL of the site')
    .option('--out <FILE>', 'write the records to FILE instead of stdout')
    .option('--base-url <URL>', "absolute site URL for the records (default: the site's URL read from the build)")
    .option('--concurrency <N>', 'pages read or fetched at once (default 8)')
    .option('--json', 'print one summary object on stdout (needs --out)')
    .action(async (source: string, flags: RawCrawlOptions) => {
      const startedAt = performance.now();
      const options = resolveCrawlOptions({...flags, source});
      if (options.json && !options.out) {
        throw new UsageError('--json prints the summary on stdout: pass --out FILE for the records');
      }
      const result = await crawl(options.source, {
        concurrency: options.concurrency,
        ...(options.baseUrl ? {baseUrl: options.baseUrl} : {}),
        onEvent: (event) => context.progress.crawlEvent(event),
      });
      const json = `${JSON.stringify(result.records)}\n`;
      const bytes = Buffer.byteLength(json);
      if (options.out) await writeFile(options.out, json);
      context.progress.clear();
      if (!options.out) await writeAll(context.stdout, json);
      const summary: CrawlSummary = {
        pages: result.pages,
        records: result.records.length,
        skipped: result.skipped,
        bytes,
        seconds: seconds(startedAt),
      };
      if (options.json) await writeAll(context.stdout, `${JSON.stringify(summary)}\n`);
      else {
        await writeAll(
          context.stderr,
          `crawled ${summary.pages} pages (${summary.skipped} skipped): ${summary.records} records` +
            `${options.out ? ` written to ${options.out}` : ''} in ${summary.seconds} s\n`,
        );
      }
    });
};
