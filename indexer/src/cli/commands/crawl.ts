import {createWriteStream} from 'node:fs';
import {rename, rm} from 'node:fs/promises';
import {once} from 'node:events';
import {crawl, DEFAULT_MAX_FAILED, type CrawledPage, type CrawlResult, type SkippedPage} from '../../crawl/crawl.ts';
import {UsageError} from '../../errors.ts';
import {resolveCrawlOptions, type RawCrawlOptions} from '../options.ts';
import {seconds, writeAll, type RegisterCommand} from './context.ts';

export interface CrawlSummary {
  pages: number;
  records: number;
  skipped: number;
  /** Of the skipped pages, those that could not be fetched. */
  failed: number;
  bytes: number;
  seconds: number;
  /** Every skipped page and why. */
  skippedPages: SkippedPage[];
}

/** One stderr line per page that gave no records, for a person reading the run (crawl and push). */
export function skippedLines(result: Pick<CrawlResult, 'skippedPages'>): string {
  return result.skippedPages
    .map((page) => `skipped ${page.url}: ${page.reason}${page.detail ? ` (${page.detail})` : ''}\n`)
    .join('');
}

export const MAX_FAILED_HELP = `a URL crawl fails (exit 1, nothing written) when more than PERCENT of its pages cannot be fetched (default ${DEFAULT_MAX_FAILED})`;

/**
 * Streams records into FILE as a JSON array while the crawl runs (memory stays flat on big
 * sites), through a temporary file renamed at the end: a failed crawl leaves no partial FILE.
 */
async function crawlToFile(file: string, run: (onPage: (page: CrawledPage) => Promise<void>) => Promise<void>): Promise<number> {
  const tmp = `${file}.${process.pid}.tmp`;
  const stream = createWriteStream(tmp);
  let bytes = 0;
  let first = true;
  const write = async (text: string): Promise<void> => {
    bytes += Buffer.byteLength(text);
    if (!stream.write(text)) await once(stream, 'drain');
  };
  try {
    await write('[');
    await run(async (page) => {
      // The page's JSON array without its brackets: records joined by commas, as one array.
      const inner = page.json.slice(1, -1);
      if (!inner) return;
      await write(first ? inner : `,${inner}`);
      first = false;
    });
    await write(']\n');
    stream.end();
    await once(stream, 'finish');
    await rename(tmp, file);
    return bytes;
  } catch (error) {
    stream.destroy();
    await rm(tmp, {force: true});
    throw error;
  }
}

/** `docs-indexer crawl SOURCE [--out FILE] [--base-url URL] [--concurrency N] [--max-failed PERCENT] [--json]` */
export const registerCrawl: RegisterCommand = (program, context) => {
  program
    .command('crawl')
    .description('crawl a build folder or a site URL and write its search records as a JSON array')
    .argument('<SOURCE>', 'build folder (e.g. site/build) or http(s) URL of the site')
    .option('--out <FILE>', 'write the records to FILE instead of stdout')
    .option('--base-url <URL>', "absolute site URL for the records (default: the site's URL read from the build)")
    .option('--concurrency <N>', 'pages read or fetched at once (default 8)')
    .option('--max-failed <PERCENT>', MAX_FAILED_HELP)
    .option('--json', 'print one summary object on stdout (needs --out)')
    .action(async (source: string, flags: RawCrawlOptions) => {
      const startedAt = performance.now();
      const options = resolveCrawlOptions({...flags, source});
      if (options.json && !options.out) {
        throw new UsageError('--json prints the summary on stdout: pass --out FILE for the records');
      }
      const crawlOptions = {
        concurrency: options.concurrency,
        maxFailed: options.maxFailed,
        ...(options.baseUrl ? {baseUrl: options.baseUrl} : {}),
        onEvent: (event: Parameters<typeof context.progress.crawlEvent>[0]) => context.progress.crawlEvent(event),
      };
      let result: Awaited<ReturnType<typeof crawl>> | undefined;
      let bytes: number;
      if (options.out) {
        bytes = await crawlToFile(options.out, async (onPage) => {
          result = await crawl(options.source, {...crawlOptions, collect: false, onPage});
        });
      } else {
        // stdout gets the whole array or nothing: no partial output when a crawl fails.
        result = await crawl(options.source, crawlOptions);
        const json = `${JSON.stringify(result.records)}\n`;
        bytes = Buffer.byteLength(json);
        context.progress.clear();
        await writeAll(context.stdout, json);
      }
      context.progress.clear();
      if (!result) throw new Error('crawl produced no result');
      const summary: CrawlSummary = {
        pages: result.pages,
        records: result.recordCount,
        skipped: result.skipped,
        failed: result.failed,
        bytes,
        seconds: seconds(startedAt),
        skippedPages: result.skippedPages,
      };
      if (options.json) await writeAll(context.stdout, `${JSON.stringify(summary)}\n`);
      else {
        await writeAll(
          context.stderr,
          skippedLines(result) +
            `crawled ${summary.pages} pages (${summary.skipped} skipped${summary.failed ? `, ${summary.failed} failed` : ''}): ${summary.records} records` +
            `${options.out ? ` written to ${options.out}` : ''} in ${summary.seconds} s\n`,
        );
      }
    });
};
