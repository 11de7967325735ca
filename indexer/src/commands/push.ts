import {UsageError} from '../errors.ts';
import type {RegisterCommand} from './context.ts';

/** `docs-indexer push SOURCE [--base-url URL] [--index NAME] [--full] [--dry-run] [--concurrency N] [--json]` */
export const registerPush: RegisterCommand = (program) => {
  program
    .command('push')
    .description('crawl SOURCE, then publish its records to Algolia atomically (only what changed, by default)')
    .argument('<SOURCE>', 'build folder (e.g. site/build) or http(s) URL of the deployed site')
    .option('--base-url <URL>', "absolute site URL for the records (default: the site's URL read from the build)")
    .option('--index <NAME>', 'live index name (default: ALGOLIA_INDEX_NAME)')
    .option('--full', 'send every record instead of only the changes')
    .option('--dry-run', 'print what would change and write nothing')
    .option('--concurrency <N>', 'pages read or fetched at once (default 8)')
    .option('--json', 'print one summary object on stdout')
    .action(() => {
      throw new UsageError('push is not implemented yet');
    });
};
