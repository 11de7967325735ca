import {createReadStream, createWriteStream} from 'node:fs';
import {mkdtemp, rename, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {once} from 'node:events';
import type {CrawledPage, CrawlResult, SkippedPage} from '../../crawl/crawl.ts';
import type {RawCrawlOptions} from '../options.ts';
import {DEFAULT_CONCURRENCY, DEFAULT_MAX_FAILED, DEFAULT_MAX_PAGES, DEFAULT_MAX_RECORD_BYTES} from '../defaults.ts';
import {interruptible, seconds, terminalJson, writeAll, type RegisterCommand} from './context.ts';
import {CrawlError} from '../../errors.ts';
import {trackTemp} from '../signals.ts';

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
  /** Set to --max-pages when a URL crawl stopped there with more pages left. */
  maxPagesReached?: number;
}

/** One stderr line per page that gave no records, for a person reading the run (crawl and push). */
export function skippedLines(result: Pick<CrawlResult, 'skippedPages'>): string {
  return result.skippedPages
    .map((page) => `skipped ${page.url}: ${page.reason}${page.detail ? ` (${page.detail})` : ''}\n`)
    .join('');
}

export const MAX_FAILED_HELP = `a URL crawl fails (exit 1, nothing written) when more than PERCENT of its pages cannot be fetched (default ${DEFAULT_MAX_FAILED})`;
export const MAX_PAGES_HELP = `a URL crawl fetches at most N pages, reported when reached (default ${DEFAULT_MAX_PAGES})`;
export const MAX_RECORD_BYTES_HELP = `no record is larger than BYTES of JSON; longer headings, anchors and URLs are trimmed, a page that cannot fit is skipped (default ${DEFAULT_MAX_RECORD_BYTES}, Algolia's limit on most plans)`;

/** The line printed when a URL crawl stopped at its page cap. */
export function maxPagesLine(result: Pick<CrawlResult, 'maxPagesReached'>): string {
  return result.maxPagesReached === undefined
    ? ''
    : `docs-indexer: stopped at ${result.maxPagesReached} pages (--max-pages): the site names more, which were not crawled\n`;
}

/**
 * Streams records into FILE as a JSON array while the crawl runs, through a temporary file
 * renamed at the end: a failed crawl leaves no partial FILE. Streamed rather than written whole
 * with write-file-atomic (as the local index is): the records of a big site never sit in memory
 * as one string, which keeps the crawl's peak RSS flat (indexer/bench/indexer.ts, mode `stream`).
 */
async function crawlToFile(file: string, run: (onPage: (page: CrawledPage) => Promise<void>) => Promise<void>): Promise<number> {
  const {outputFailure} = await import('../../output-file.ts');
  const tmp = `${file}.${process.pid}.tmp`;
  // Removed at once if a second signal ends the process before the cleanup below can run.
  const untrack = trackTemp(tmp);
  const stream = createWriteStream(tmp);
  // A write error (disk full, permission) is kept and reported as an OutputError.
  let writeError: unknown;
  stream.on('error', (error) => (writeError ??= error));
  let bytes = 0;
  let first = true;
  const write = async (text: string): Promise<void> => {
    if (writeError) throw outputFailure(file, writeError);
    bytes += Buffer.byteLength(text);
    try {
      if (!stream.write(text)) await once(stream, 'drain');
    } catch (error) {
      throw outputFailure(file, error);
    }
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
    await once(stream, 'finish').catch((error: unknown) => {
      throw outputFailure(file, error);
    });
    await rename(tmp, file).catch((error: unknown) => {
      throw outputFailure(file, error);
    });
    return bytes;
  } catch (error) {
    stream.destroy();
    await rm(tmp, {force: true});
    throw error;
  } finally {
    untrack();
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
    .option('--concurrency <N>', `pages read or fetched at once (default ${DEFAULT_CONCURRENCY})`)
    .option('--max-failed <PERCENT>', MAX_FAILED_HELP)
    .option('--max-pages <N>', MAX_PAGES_HELP)
    .option('--max-record-bytes <BYTES>', MAX_RECORD_BYTES_HELP)
    .option('--json', 'print one summary object on stdout (needs --out)')
    .action(async (source: string, flags: RawCrawlOptions) => {
      const startedAt = performance.now();
      let result: CrawlResult | undefined;
      let bytes = 0;
      /** Records were being copied to stdout when the run was interrupted. */
      let copying = false;
      await interruptible(
        async (signal) => {
          // Loaded here, not at the top: `docs-indexer --help` and `--version` stay quick. The
          // options first: a usage mistake is reported before the crawler is loaded.
          const [{resolveCrawlOptions}, {checkOutputPath}] = await Promise.all([import('../options.ts'), import('../../output-file.ts')]);
          const options = resolveCrawlOptions({...flags, source});
          // Before the crawl: a bad --out fails at once, not after minutes of crawling.
          if (options.out) await checkOutputPath(options.out);
          const {crawl} = await import('../../crawl/crawl.ts');
          const crawlOptions = {
            concurrency: options.concurrency,
            maxFailed: options.maxFailed,
            maxPages: options.maxPages,
            maxRecordBytes: options.maxRecordBytes,
            signal,
            ...(options.baseUrl ? {baseUrl: options.baseUrl} : {}),
            onEvent: (event: Parameters<typeof context.progress.crawlEvent>[0]) => context.progress.crawlEvent(event),
          };
          if (options.out) {
            bytes = await crawlToFile(options.out, async (onPage) => {
              result = await crawl(options.source, {...crawlOptions, collect: false, onPage});
            });
            return;
          }
          // stdout gets the whole array or nothing (no partial output when a crawl fails), without
          // holding it: the records go to a private temporary file first, then are copied out.
          const dir = await mkdtemp(path.join(tmpdir(), 'docs-indexer-'));
          const untrack = trackTemp(dir);
          try {
            const file = path.join(dir, 'records.json');
            bytes = await crawlToFile(file, async (onPage) => {
              result = await crawl(options.source, {...crawlOptions, collect: false, onPage});
            });
            context.progress.clear();
            copying = true;
            // Each chunk waits for its write to finish or fail: a reader that closes the pipe
            // (`| head`, EPIPE) fails the write, and the temporary folder is removed below.
            for await (const chunk of createReadStream(file, {signal})) await writeAll(context.stdout, chunk, signal);
            copying = false;
          } finally {
            await rm(dir, {recursive: true, force: true});
            untrack();
          }
        },
        () => {
          context.progress.clear();
          const out = flags.out;
          return new CrawlError(
            `interrupted; ${out ? `${out} was left as it was` : copying ? 'the records printed on stdout are incomplete' : 'no records were written'}`,
          );
        },
      );
      const out = flags.out;
      context.progress.clear();
      if (!result) throw new Error('crawl produced no result'); // a defect: crawl() resolved without a result
      const summary: CrawlSummary = {
        pages: result.pages,
        records: result.recordCount,
        skipped: result.skipped,
        failed: result.failed,
        bytes,
        seconds: seconds(startedAt),
        skippedPages: result.skippedPages,
        ...(result.maxPagesReached === undefined ? {} : {maxPagesReached: result.maxPagesReached}),
      };
      if (flags.json) {
        // The summary on stdout, the skipped pages on stderr (as without --json).
        await writeAll(context.stderr, context.mask(skippedLines(result) + maxPagesLine(result)));
        await writeAll(context.stdout, context.mask(`${terminalJson(summary)}\n`));
      } else {
        await writeAll(
          context.stderr,
          context.mask(skippedLines(result) + maxPagesLine(result)) +
            `crawled ${summary.pages} pages (${summary.skipped} skipped${summary.failed ? `, ${summary.failed} failed` : ''}): ${summary.records} records` +
            `${out ? ` written to ${out}` : ''} in ${summary.seconds} s\n`,
        );
      }
    });
};
