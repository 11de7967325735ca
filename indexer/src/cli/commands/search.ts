import {existsSync} from 'node:fs';
import {relative, resolve} from 'node:path';
import type {SearchRecord} from 'docs-search/record';
import {SourceError, UsageError} from '../../errors.ts';
import {DEFAULT_INDEX_FILES} from '../defaults.ts';
import {terminalJson, writeAll, type RegisterCommand} from './context.ts';

/** The local index of the build in the current folder (a site's `build/`, or this repository's `site/build/`). */
export function defaultIndexFile(cwd = process.cwd()): string {
  const candidates = DEFAULT_INDEX_FILES.map((file) => resolve(cwd, file));
  return candidates.find((file) => existsSync(file)) ?? candidates[0]!;
}

interface SearchFlags {
  indexFile?: string;
  json?: boolean;
  language?: string;
  docsVersion?: string;
  facet?: string[];
}

/** Facets a filter may name (the record's facet attributes). */
const FACETS = ['language', 'docusaurus_tag', 'version', 'type'] as const;

function countBy(records: readonly SearchRecord[], value: (r: SearchRecord) => string | undefined): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of records) {
    const v = value(r);
    if (v !== undefined) counts.set(v, (counts.get(v) ?? 0) + 1);
  }
  return counts;
}

const listOf = (values: Iterable<string>): string => [...values].sort().join(', ') || 'none';

/** A facet's value on a record (the names FACETS lists). */
function facetOf(r: SearchRecord, name: string): string | undefined {
  if (name === 'language') return r.language;
  if (name === 'docusaurus_tag') return r.docusaurus_tag;
  if (name === 'version') return r.version;
  return name === 'type' ? r.type : undefined;
}

/**
 * The language a search shows when none is asked for: the site's default locale, read from the
 * build as the language of its root page (Docusaurus serves the default locale at the base URL
 * and every other one below it, `/fr/…`), else the language most records have.
 */
export function defaultLanguage(records: readonly SearchRecord[]): string | undefined {
  const languages = countBy(records, (r) => r.language);
  const depth = (r: SearchRecord) => new URL(r.url_without_anchor).pathname.replace(/\/+$/, '').split('/').length;
  let top = Infinity;
  for (const r of records) top = Math.min(top, depth(r));
  const atRoot = new Set(records.filter((r) => depth(r) === top).map((r) => r.language));
  if (atRoot.size === 1) return [...atRoot][0];
  return [...languages].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0];
}

/**
 * The facet filters of a query, from the index's own values (never one site's): the language
 * asked for (`--language`, or a `--facet language:…`), else the site's default language when the
 * index holds several (as the modal shows one locale); a docs version (its records, and those of
 * pages outside any docs version); any `--facet name:value`. A value the index does not hold is
 * a usage error naming those it does.
 */
export function facetFiltersFor(records: readonly SearchRecord[], flags: SearchFlags): (string | string[])[] {
  const filters: (string | string[])[] = [];
  const languages = countBy(records, (r) => r.language);
  const facetName = (facet: string) => {
    const colon = facet.indexOf(':');
    return colon > 0 ? facet.slice(0, colon).replace(/^-/, '') : '';
  };
  if (flags.language !== undefined) {
    if (!languages.has(flags.language)) {
      throw new UsageError(`--language ${flags.language}: the index holds no records in that language (it has: ${listOf(languages.keys())})`);
    }
    filters.push(`language:${flags.language}`);
  } else if (languages.size > 1 && !(flags.facet ?? []).some((f) => facetName(f) === 'language')) {
    // (an explicit language facet replaces the default language, it does not narrow it)
    const main = defaultLanguage(records);
    if (main !== undefined) filters.push(`language:${main}`);
  }
  if (flags.docsVersion !== undefined) {
    const versions = countBy(records, (r) => r.version);
    if (!versions.has(flags.docsVersion)) {
      throw new UsageError(`--docs-version ${flags.docsVersion}: the index holds no such version (it has: ${listOf(versions.keys())})`);
    }
    const unversioned = countBy(records, (r) => (r.version === undefined ? r.docusaurus_tag : undefined));
    filters.push([`version:${flags.docsVersion}`, ...[...unversioned.keys()].sort().map((tag) => `docusaurus_tag:${tag}`)]);
  }
  for (const facet of flags.facet ?? []) {
    const colon = facet.indexOf(':');
    const name = facetName(facet);
    if (!(FACETS as readonly string[]).includes(name) || colon === facet.length - 1) {
      throw new UsageError(`--facet must be NAME:VALUE with NAME one of ${FACETS.join(', ')} (got "${facet}")`);
    }
    const value = facet.slice(colon + 1).trim().replace(/^"(.*)"$/, '$1');
    const values = countBy(records, (r) => facetOf(r, name));
    if (!values.has(value)) {
      throw new UsageError(`--facet ${facet}: the index holds no ${name} "${value}" (it has: ${listOf(values.keys())})`);
    }
    filters.push(facet);
  }
  return filters;
}


/**
 * `docs-indexer search "QUERY" [--index-file PATH] [--json] [--language LANG] [--docs-version V] [--facet NAME:VALUE]…`:
 * asks the built local index. (`--docs-version`, not `--version`: that one prints the program's version.)
 */
export const registerSearch: RegisterCommand = (program, context) => {
  program
    .command('search')
    .description('search the built local index with the same engine as the site (relevance checks without a browser)')
    .argument('<QUERY>', 'what a reader would type in the search modal')
    .option('--index-file <PATH>', `local index file (default: ${DEFAULT_INDEX_FILES.join(' or ')}, the first that exists)`)
    .option('--json', 'print the Algolia-shaped response the modal gets, as JSON')
    .option('--language <LANG>', "only records in this language (default: the site's default language, when the index holds several)")
    .option('--docs-version <VERSION>', 'only this docs version (the version facet, e.g. 1.0 or current), plus pages outside the docs')
    .option('--facet <NAME:VALUE>', 'any facet filter (language, docusaurus_tag, version, type), repeatable', (value: string, all: string[]) => [...all, value], [] as string[])
    .action(async (query: string, flags: SearchFlags) => {
      if (query.trim() === '') throw new UsageError('the query is empty: pass the words to search for');
      const file = flags.indexFile === undefined ? defaultIndexFile() : resolve(flags.indexFile);
      // Loaded here, not at the top: `docs-indexer --help` and `--version` stay quick.
      const [{answerQuery, modalOrder, modalParams, MODAL_MAX_QUERY}, {loadLocalIndex}, {formatHits, PRE, POST, safe}] = await Promise.all([
        import('docs-search'),
        import('../../publish/local/publish.ts'),
        import('../format-hits.ts'),
      ]);
      // A LocalIndexError (missing or malformed file) becomes a SourceError in errors.ts.
      const engine = await loadLocalIndex(file);
      const bold = Boolean((context.stdout as {isTTY?: boolean}).isTTY) && !context.env.NO_COLOR;
      /**
       * The engine's answer. The file's counts and types were checked as it was loaded; a record
       * still of the wrong shape (a shard read on demand) fails inside the engine with a
       * JavaScript message (a TypeError), which is the index's fault: one line naming the file.
       */
      const ask = <T>(answer: () => T): T => {
        try {
          return answer();
        } catch (error) {
          if (error instanceof TypeError || error instanceof RangeError) {
            throw new SourceError(`${file} is not a local search index (a record of the wrong shape: ${error.message})`);
          }
          throw error;
        }
      };
      const params = {...modalParams(query), facetFilters: ask(() => facetFiltersFor(engine.records, flags))};
      if (flags.json) {
        await writeAll(context.stdout, `${terminalJson(ask(() => answerQuery(engine, 'local', params)), 2)}\n`);
        return;
      }
      const response = ask(() => answerQuery(engine, 'local', {...params, highlightPreTag: PRE, highlightPostTag: POST}));
      const shown = modalOrder(response.hits);
      const rel = relative(process.cwd(), file);
      const where = rel && !rel.startsWith('..') ? rel : file;
      // (the modal's input holds MODAL_MAX_QUERY characters: a longer query is asked as its start)
      const sent = params.query ?? query;
      const asked = `"${safe(sent)}"${sent !== query ? ` (the first ${MODAL_MAX_QUERY} characters, all the search modal takes)` : ''}`;
      const lines =
        shown.length === 0
          ? [`No results for ${asked} (${where})`]
          : [`${response.nbHits} hits for ${asked}, ${shown.length} shown as the search modal groups them (${where}):`, ...formatHits(shown, bold)];
      await writeAll(context.stdout, `${lines.join('\n')}\n`);
    });
};
