import {existsSync} from 'node:fs';
import {relative, resolve} from 'node:path';
import {UsageError} from '../../errors.ts';
import {DEFAULT_INDEX_FILES} from '../defaults.ts';
import {writeAll, type RegisterCommand} from './context.ts';

/** The local index of the build in the current folder (a site's `build/`, or this repository's `site/build/`). */
export function defaultIndexFile(cwd = process.cwd()): string {
  const candidates = DEFAULT_INDEX_FILES.map((file) => resolve(cwd, file));
  return candidates.find((file) => existsSync(file)) ?? candidates[0]!;
}

interface SearchFlags {
  indexFile?: string;
  json?: boolean;
}

/** `docs-indexer search "QUERY" [--index-file PATH] [--json]`: asks the built local index. */
export const registerSearch: RegisterCommand = (program, context) => {
  program
    .command('search')
    .description('search the built local index with the same engine as the site (relevance checks without a browser)')
    .argument('<QUERY>', 'what a reader would type in the search modal')
    .option('--index-file <PATH>', `local index file (default: ${DEFAULT_INDEX_FILES.join(' or ')}, the first that exists)`)
    .option('--json', 'print the Algolia-shaped response the modal gets, as JSON')
    .action(async (query: string, flags: SearchFlags) => {
      if (query.trim() === '') throw new UsageError('the query is empty: pass the words to search for');
      const file = flags.indexFile === undefined ? defaultIndexFile() : resolve(flags.indexFile);
      // Loaded here, not at the top: `docs-indexer --help` and `--version` stay quick.
      const [{answerQuery, modalOrder, modalParams}, {loadLocalIndex}, {formatHits, PRE, POST}] = await Promise.all([
        import('docs-search'),
        import('../../publish/local/publish.ts'),
        import('../format-hits.ts'),
      ]);
      // A LocalIndexError (missing or malformed file) becomes a SourceError in errors.ts.
      const engine = await loadLocalIndex(file);
      const bold = Boolean((context.stdout as {isTTY?: boolean}).isTTY) && !context.env.NO_COLOR;
      const params = modalParams(query);
      if (flags.json) {
        await writeAll(context.stdout, `${JSON.stringify(answerQuery(engine, 'local', params), null, 2)}\n`);
        return;
      }
      const response = answerQuery(engine, 'local', {...params, highlightPreTag: PRE, highlightPostTag: POST});
      const shown = modalOrder(response.hits);
      const rel = relative(process.cwd(), file);
      const where = rel && !rel.startsWith('..') ? rel : file;
      const lines =
        shown.length === 0
          ? [`No results for "${query}" (${where})`]
          : [`${response.nbHits} hits for "${query}", ${shown.length} shown as the search modal groups them (${where}):`, ...formatHits(shown, bold)];
      await writeAll(context.stdout, `${lines.join('\n')}\n`);
    });
};
