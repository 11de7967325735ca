/**
 * The sharded index (format 3): the browser client answers from the files of the words typed and
 * the records of the hits shown, as it would from the whole index in one file.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {createLocalSearchClient, type LocalSearchClient} from '../src/client.ts';
import {modalParams, type AlgoliaResponse} from '../src/engine/answer.ts';
import {packRecords} from '../src/engine/index-file.ts';
import {LocalSearchEngine} from '../src/engine/search.ts';
import {buildShards, engineFromShards, recordsFile, termsFile, vocabFile, type ShardManifest} from '../src/engine/shards.ts';
import {ORIGIN, recordsWithLongParagraph} from '../src/testing/search-records.ts';
import type {SearchRecord} from '../src/record/constants.ts';

const RECORDS = recordsWithLongParagraph();

function serve(files: Map<string, unknown>) {
  const fetched: string[] = [];
  const client = createLocalSearchClient({
    indexUrl: '/search/local-index.json?format=2',
    fetch: async (url) => {
      fetched.push(url);
      const name = url.replace(/\?.*$/, '');
      const body = files.get(name);
      return {ok: body !== undefined, status: body === undefined ? 404 : 200, json: async () => JSON.parse(JSON.stringify(body))};
    },
  });
  return {client, fetched};
}

function sharded() {
  const {manifest, files} = buildShards(RECORDS, ORIGIN, new LocalSearchEngine(RECORDS));
  const served = new Map<string, unknown>([['/search/local-index.json', manifest]]);
  for (const [name, text] of files) served.set(`/search/local-index/${name}`, JSON.parse(text));
  return {manifest, files, ...serve(served)};
}

const single = () => serve(new Map([['/search/local-index.json', packRecords(RECORDS, ORIGIN)]]));

async function ask(client: LocalSearchClient, q: string): Promise<AlgoliaResponse> {
  const {results} = await client.search({requests: [{indexName: 'docs', ...modalParams(q)}]});
  return results[0]!;
}

/** What a reader sees of an answer. */
const seen = (r: AlgoliaResponse) => ({
  nbHits: r.nbHits,
  hits: r.hits.map((h) => [h.url, h.type, JSON.stringify(h._snippetResult), JSON.stringify(h._highlightResult)]),
});

test('a sharded index answers as the single file does', async () => {
  const one = single();
  const many = sharded();
  for (const q of ['token', 'active power', 'mdsn', 'user:unauthorized', 'total_gas_m3', '/api/user', 'p', 'po', 'needle', 'water meter', 'x-api-version', '']) {
    assert.deepEqual(seen(await ask(many.client, q)), seen(await ask(one.client, q)), q);
  }
  // the /search page's form, with facets and a second page
  const legacy = [{indexName: 'docs', params: {query: 'api', hitsPerPage: 3, page: 1, facets: ['language', 'docusaurus_tag']}}];
  const a = (await many.client.search(legacy)).results[0]!;
  const b = (await one.client.search(legacy)).results[0]!;
  assert.deepEqual([a.hits.map((h) => h.url), a.nbHits, a.nbPages, a.facets], [b.hits.map((h) => h.url), b.nbHits, b.nbPages, b.facets]);
});

test('a sharded index fetches the words typed and the records of the hits shown, each once', async () => {
  const {client, fetched, manifest} = sharded();
  const first = await ask(client, 'token');
  assert.ok(first.hits.length > 0);
  const pagesShown = new Set(first.hits.map((h) => String(h.url_without_anchor ?? h.url).replace(/#.*$/, '')));
  const files = fetched.map((u) => u.replace(/\?.*$/, ''));
  assert.equal(files[0], '/search/local-index.json');
  assert.deepEqual(files.filter((f) => f.includes('/t-')), [`/search/local-index/${termsFile('to')}`]);
  const recordFiles = files.filter((f) => f.includes('/r-'));
  assert.ok(recordFiles.length >= 1 && recordFiles.length <= pagesShown.size, `${recordFiles.length} record files for ${pagesShown.size} pages shown`);
  assert.ok(recordFiles.length < manifest.pages.length, 'not every page');
  // the same query again: nothing more fetched
  const before = fetched.length;
  await ask(client, 'token');
  assert.equal(fetched.length, before);
  // every shard URL carries the index version (no stale file mixed in)
  assert.ok(fetched.slice(1).every((u) => u.endsWith(`?v=${manifest.version}`)));
});

test('a typo anywhere in a word, its first letters too, is forgiven as the single file forgives it', async () => {
  const one = single();
  const many = sharded();
  // (a letter missing, wrong, extra or swapped at the start; a query of typos only, and one whose other word is right)
  for (const q of ['uthorization', 'xeasurement', 'amesurement', 'eMasurement fields', 'wter meter', 'voltgae', 'measurment']) {
    assert.deepEqual(seen(await ask(many.client, q)), seen(await ask(one.client, q)), q);
    assert.ok((await ask(one.client, q)).hits.length > 0, `${q} finds something`);
  }
});

test('only a query whose typos are looked up fetches vocabulary files: those of its lengths, then the terms files of the words a typo away', async () => {
  const {client, fetched} = sharded();
  // (words found as typed in enough sections, or too short to have typos)
  await ask(client, 'measurement');
  await ask(client, 'api');
  assert.deepEqual(fetched.filter((u) => u.includes('/v-')), [], 'no typo, no vocabulary');
  const before = fetched.length;
  const answer = await ask(client, 'uthorization');
  assert.match(String(answer.hits[0]?.url), /authorization/);
  const files = fetched.slice(before).map((u) => u.replace(/\?.*$/, '').replace('/search/local-index/', ''));
  // 12 letters, 2 typos: words of 10 to 14 letters (the lengths the index has)
  const vocab = files.filter((f) => f.startsWith('v-'));
  assert.ok(vocab.length > 0 && vocab.every((f) => [10, 11, 12, 13, 14].some((n) => f === vocabFile(n))), vocab.join(' '));
  assert.ok(files.includes(termsFile('au')), 'the terms file of `authorization`');
  assert.ok(files.indexOf(termsFile('au')) > files.indexOf(vocab[0]!), 'after the vocabulary');
});

test('a missing shard is a RetryError, and the next search tries again', async () => {
  const {manifest, files} = buildShards(RECORDS, ORIGIN, new LocalSearchEngine(RECORDS));
  const served = new Map<string, unknown>([['/search/local-index.json', manifest]]);
  const {client} = serve(served);
  await assert.rejects(ask(client, 'token'), {name: 'RetryError'});
  for (const [name, text] of files) served.set(`/search/local-index/${name}`, JSON.parse(text));
  assert.ok((await ask(client, 'token')).hits.length > 0);
});

test('engineFromShards reads a whole sharded index (the CLI and search:eval)', () => {
  const {manifest, files} = buildShards(RECORDS, ORIGIN, new LocalSearchEngine(RECORDS));
  const engine = engineFromShards(JSON.parse(JSON.stringify(manifest)) as ShardManifest, (name) => JSON.parse(files.get(name)!));
  assert.equal(engine.records.length, RECORDS.length);
  assert.ok(files.has(recordsFile(0)));
  assert.deepEqual(
    engine.rank('power').map((h) => h.record.url),
    new LocalSearchEngine(RECORDS).rank('power').map((h) => h.record.url),
  );
});

test('a sharded index ranks the section that names the query first, as one file does, before it has fetched that section’s records', async () => {
  // Pages that say the words often, high in their titles; one section that defines `brightness`
  // by a table row, and one whose own heading is `reset counters`, both scoring lower, on a page
  // of its own records file (each guide's last section fills most of one).
  let position = 0;
  const rec = (path: string, anchor: string | null, levels: string[], content: string | null): SearchRecord => {
    const hierarchy = {lvl0: 'Docs', lvl1: null, lvl2: null, lvl3: null, lvl4: null, lvl5: null, lvl6: null} as SearchRecord['hierarchy'];
    levels.forEach((v, i) => ((hierarchy as Record<string, string | null>)[`lvl${i + 1}`] = v));
    const type = content === null ? (`lvl${levels.length}` as SearchRecord['type']) : 'content';
    const url = `${ORIGIN}${path}${anchor ? `#${anchor}` : ''}`;
    const weight = {pageRank: 0, level: content === null ? 100 - 10 * (levels.length - 1) : 0, position: position++};
    return {objectID: `${url}:${position}`, url, url_without_anchor: `${ORIGIN}${path}`, anchor, type, hierarchy, content, weight, language: 'en', docusaurus_tag: 'docs-default-current', version: 'current'};
  };
  const records: SearchRecord[] = [];
  for (let i = 0; i < 12; i++) {
    records.push(rec(`/docs/guide-${i}`, null, [`Reset counters guide ${i}`], null));
    records.push(rec(`/docs/guide-${i}`, null, [`Reset counters guide ${i}`], 'Set the brightness, then reset counters: brightness first, reset counters after.'));
    records.push(rec(`/docs/guide-${i}`, 'more', [`Reset counters guide ${i}`, 'More'], 'Other words fill the page. '.repeat(60)));
  }
  records.push(rec('/docs/led', null, ['LED'], null));
  records.push(rec('/docs/led', 'settings', ['LED', 'Settings'], 'brightness · number · from 0 to 255'));
  records.push(rec('/docs/led', 'reset-counters', ['LED', 'Settings', 'Reset counters'], null));
  records.push(rec('/docs/led', 'reset-counters', ['LED', 'Settings', 'Reset counters'], 'Counters restart from zero.'));
  const one = new LocalSearchEngine(records);
  const {manifest, files} = buildShards(records, ORIGIN, one);
  const served = new Map<string, unknown>([['/search/local-index.json', manifest]]);
  for (const [name, text] of files) served.set(`/search/local-index/${name}`, JSON.parse(text));
  for (const [q, first] of [['brightness', '/docs/led#settings'], ['reset counters', '/docs/led#reset-counters']] as const) {
    assert.equal(one.rank(q)[0]?.record.url, `${ORIGIN}${first}`, `${q}: one file ranks the section naming it first`);
    const {client, fetched} = serve(served);
    const {results} = await client.search({requests: [{indexName: 'docs', query: q, hitsPerPage: 1}]});
    assert.deepEqual(results[0]!.hits.map((h) => h.url), [`${ORIGIN}${first}`], `${q}: sharded`);
    assert.equal(fetched.filter((u) => u.includes('/r-')).length, 1, `${q}: the records of the hit shown only`);
  }
});
