/**
 * Prints, one JSON line each, every answer a build of docs-search gives over every typed prefix
 * of every query of the query files: the modal's response (hits, highlights, snippets) and the
 * whole ranking (every section, in order, with and without facet filters). Run it with two builds
 * over one index and compare the outputs (`cmp`): a refactor of the engine must change nothing.
 *
 *   node --import tsx indexer/search/test/answers.ts DIST_DIR INDEX_FILE QUERIES.json... > answers.jsonl
 *
 * DIST_DIR: a built docs-search (indexer/search/dist, or a copy of an older one). With
 * ANSWERS_SHARDED=1 the same records are answered by a sharded index that build writes and
 * reads back (the engine a large site's browser builds shard by shard).
 */
import {readFileSync} from 'node:fs';
import {resolve} from 'node:path';
import {pathToFileURL} from 'node:url';

type DocsSearch = typeof import('../src/index.ts');
type DocsSearchShards = typeof import('../src/engine/shards.ts');

const [dist, indexFile, ...queryFiles] = process.argv.slice(2);
if (!dist || !indexFile || queryFiles.length === 0) {
  process.stderr.write('usage: answers.ts DIST_DIR INDEX_FILE QUERIES.json...\n');
  process.exit(2);
}
const search = (await import(pathToFileURL(resolve(dist, 'index.js')).href)) as DocsSearch;
const file: unknown = JSON.parse(readFileSync(indexFile, 'utf8'));
let engine = search.LocalSearchEngine.fromIndexFile(file);
if (process.env.ANSWERS_SHARDED === '1') {
  const shards = (await import(pathToFileURL(resolve(dist, 'engine/shards.js')).href)) as DocsSearchShards;
  const records = search.unpackRecords(file);
  const {manifest, files} = shards.buildShards(records, 'https://example.invalid', engine, (file as {synonyms?: []}).synonyms ?? []);
  engine = shards.engineFromShards(JSON.parse(JSON.stringify(manifest)) as typeof manifest, (name) => JSON.parse(files.get(name) ?? 'null'));
}
const queries = queryFiles.flatMap((file) => (JSON.parse(readFileSync(file, 'utf8')) as {queries: {q: string}[]}).queries.map((q) => q.q));
const prefixes = new Set<string>();
for (const q of queries) for (let i = 1; i <= q.length; i++) prefixes.add(q.slice(0, i));
const facets = ['language:en', ['docusaurus_tag:default', 'docusaurus_tag:docs-default-current']];
const out: string[] = [];
for (const prefix of prefixes) {
  const response = search.answerQuery(engine, 'docs', search.modalParams(prefix), {now: () => 0});
  const ranked = engine.search(prefix, undefined, Infinity, false);
  const filtered = engine.search(prefix, facets, 20);
  const answer = {
    prefix,
    response,
    total: ranked.total,
    sections: ranked.sections(),
    filtered: filtered.hits.map((h) => [h.index, h.score]),
    typoTerms: [...filtered.typoTerms].map(([t, words]) => [t, [...words]]),
  };
  out.push(JSON.stringify(answer));
}
process.stdout.write(`${out.join('\n')}\n`);
process.stderr.write(`${prefixes.size} prefixes of ${queries.length} queries\n`);
