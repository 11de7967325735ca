import {relative, resolve} from 'node:path';
import {fileURLToPath} from 'node:url';
import {SourceError, UsageError} from '../../errors.ts';
import {answerQuery, decodeEntities, LOCAL_INDEX_PATH, LocalIndexError, modalOrder, modalParams, type AlgoliaHit} from 'docs-search';
import {loadLocalIndex} from '../../publish/local/publish.ts';
import {writeAll, type RegisterCommand} from './context.ts';

/** The site's build output, wherever the command is run from. */
export const DEFAULT_INDEX_FILE = resolve(fileURLToPath(import.meta.url), '../../../../../site/build', LOCAL_INDEX_PATH);

interface SearchFlags {
  indexFile?: string;
  json?: boolean;
}

const PRE = '\u0001';
const POST = '\u0002';

/** Terminal text of a highlighted value: entities decoded, matches bold on a terminal. */
function plain(value: string | undefined, bold: boolean): string {
  return decodeEntities(value ?? '')
    .replaceAll(PRE, bold ? '\x1b[1m' : '')
    .replaceAll(POST, bold ? '\x1b[22m' : '');
}

function formatHits(hits: AlgoliaHit[], bold: boolean): string[] {
  const lines: string[] = [];
  let group: string | undefined;
  hits.forEach((hit, i) => {
    const hl = hit._highlightResult as {hierarchy: Record<string, {value: string}>};
    const sn = hit._snippetResult as {hierarchy?: Record<string, {value: string}>; content?: {value: string}} | undefined;
    const lvl0 = plain(hl.hierarchy.lvl0?.value, false);
    if (lvl0 !== group) {
      group = lvl0;
      lines.push(lvl0);
    }
    const path = ['lvl1', 'lvl2', 'lvl3', 'lvl4', 'lvl5', 'lvl6']
      .map((k) => sn?.hierarchy?.[k]?.value ?? hl.hierarchy[k]?.value)
      .filter((v): v is string => Boolean(v))
      .map((v) => plain(v, bold))
      .join(' › ');
    lines.push(`${String(i + 1).padStart(3)}. ${path}`);
    lines.push(`     ${hit.url}`);
    if (hit.type === 'content' && sn?.content) lines.push(`     ${plain(sn.content.value, bold)}`);
  });
  return lines;
}

/** `docs-indexer search "QUERY" [--index-file PATH] [--json]`: asks the built local index. */
export const registerSearch: RegisterCommand = (program, context) => {
  program
    .command('search')
    .description('search the built local index with the same engine as the site (relevance checks without a browser)')
    .argument('<QUERY>', 'what a reader would type in the search modal')
    .option('--index-file <PATH>', `local index file (default: site/build/${LOCAL_INDEX_PATH})`)
    .option('--json', 'print the Algolia-shaped response the modal gets, as JSON')
    .action(async (query: string, flags: SearchFlags) => {
      if (query.trim() === '') throw new UsageError('the query is empty: pass the words to search for');
      const file = resolve(flags.indexFile ?? DEFAULT_INDEX_FILE);
      let engine;
      try {
        engine = await loadLocalIndex(file);
      } catch (error) {
        if (error instanceof LocalIndexError) throw new SourceError(error.message);
        throw error;
      }
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
