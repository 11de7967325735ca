/**
 * Synonyms (issue 28): one list, carried in the local index, answered by the engine as Algolia
 * answers with the same list.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {answerQuery, modalParams} from '../src/engine/answer.ts';
import {LocalIndexError, packRecords} from '../src/engine/index-file.ts';
import {IndexFileStream} from '../src/engine/index-stream.ts';
import {LocalSearchEngine} from '../src/engine/search.ts';
import {buildShards, engineFromShards} from '../src/engine/shards.ts';
import {checkSynonyms, type Synonym} from '../src/engine/synonyms.ts';
import {ORIGIN, SITE_RECORDS} from '../src/testing/search-records.ts';
import type {SearchRecord} from '../src/record/constants.ts';

const SYNONYMS: Synonym[] = [
  {objectID: 'zeroconf', type: 'synonym', synonyms: ['mdns', 'zeroconf', 'bonjour']},
  {objectID: 'plug', type: 'oneWaySynonym', input: 'smart plug', synonyms: ['socket']},
  {objectID: 'relay', type: 'oneWaySynonym', input: 'relay', synonyms: ['switch_lock']},
  {objectID: 'cut', type: 'oneWaySynonym', input: 'cut the power', synonyms: ['switch lock']},
  {objectID: 'pairing', type: 'oneWaySynonym', input: 'pairing', synonyms: ['button press']},
];

const first = (engine: LocalSearchEngine, q: string) => engine.rank(q)[0]?.record.url;

test('a word the pages never use finds the page through a synonym, and the word found is marked', () => {
  const plain = new LocalSearchEngine(SITE_RECORDS);
  assert.equal(plain.rank('zeroconf').length, 0, 'no page says zeroconf');
  const engine = new LocalSearchEngine(SITE_RECORDS).useSynonyms(SYNONYMS);
  assert.equal(first(engine, 'zeroconf'), `${ORIGIN}/docs/discovery#mdns`);
  assert.equal(first(engine, 'bonjour devices'), `${ORIGIN}/docs/discovery#mdns`, 'with the other words of the query');
  const hit = answerQuery(engine, 'i', modalParams('zeroconf')).hits[0]!;
  assert.match(JSON.stringify(hit._highlightResult), /<mark>mDNS<\/mark>/);
});

test('a one-way synonym finds its synonyms, not the reverse; several words match in a row', () => {
  const engine = new LocalSearchEngine(SITE_RECORDS).useSynonyms(SYNONYMS);
  assert.equal(first(engine, 'relay'), `${ORIGIN}/docs/v1/state#switch-lock`);
  assert.equal(first(engine, 'cut the power'), `${ORIGIN}/docs/v1/state#switch-lock`, 'stop words inside a run are skipped');
  assert.equal(first(engine, 'smart plug'), `${ORIGIN}/docs/v1/state#switch-lock`);
  // `switch_lock` does not find pages about relays (none says relay: nothing found either way),
  // and `socket` alone is not turned into "smart plug".
  assert.deepEqual(engine.rank('socket').map((h) => h.record.url), new LocalSearchEngine(SITE_RECORDS).rank('socket').map((h) => h.record.url));
  // `plug` alone is not the entry `smart plug`
  assert.equal(engine.rank('plug').length, 0);
});

test('a run of words a synonym names finds the sections holding its words as typed, not only its synonyms\' sections', () => {
  const synonyms: Synonym[] = [{objectID: 'p1', type: 'synonym', synonyms: ['p1 meter', 'p1 dongle']}];
  const plain = new LocalSearchEngine(SITE_RECORDS);
  const engine = new LocalSearchEngine(SITE_RECORDS).useSynonyms(synonyms);
  const typed = plain.rank('p1 meter').map((h) => h.record.url);
  assert.ok(typed.length > 0, 'the pages say "P1 meter"');
  const found = engine.rank('p1 meter').map((h) => h.record.url);
  // every section the words find without the synonym is still found with it, first among them the same
  for (const url of typed) assert.ok(found.includes(url), url);
  assert.equal(found[0], typed[0]);
});

test('a heading that is the query ranks first when a synonym reads some of its words as one run', () => {
  const lvl2 = SITE_RECORDS.find((r) => r.type === 'lvl2')!;
  let n = 0;
  /** A section of /docs/meters under headings `levels` (lvl2 on), its heading record when `content` is null. */
  const section = (anchor: string, levels: string[], content: string | null): SearchRecord => {
    const hierarchy = {...lvl2.hierarchy, lvl1: 'Meters', lvl2: null, lvl3: null, lvl4: null, lvl5: null, lvl6: null};
    levels.forEach((v, i) => ((hierarchy as Record<string, string | null>)[`lvl${i + 2}`] = v));
    const deepest = levels.length + 1;
    return {
      ...lvl2,
      objectID: `${anchor}:${n++}`,
      url: `${ORIGIN}/docs/meters#${anchor}`,
      url_without_anchor: `${ORIGIN}/docs/meters`,
      anchor,
      type: content === null ? (`lvl${deepest}` as SearchRecord['type']) : 'content',
      hierarchy,
      content,
      weight: {...lvl2.weight, level: content === null ? 100 - 10 * deepest : 0},
    };
  };
  const engine = new LocalSearchEngine([
    ...SITE_RECORDS,
    section('readings', ['Example response: kWh Meter readings'], null),
    section('readings', ['Example response: kWh Meter readings'], 'Every energy meter reading of the kWh Meter in an example response: the kWh Meter totals.'),
    section('example', ['Readings', 'Example response: kWh Meter'], null),
    section('example', ['Readings', 'Example response: kWh Meter'], 'What the energy meter answers, in full.'),
  ]).useSynonyms([{objectID: 'kwh', type: 'synonym', synonyms: ['kwh meter', 'energy meter']}]);
  // `kwh meter` is one run of the query (a synonym names it); the deeper heading is still the
  // query word for word, and ranks above the higher-scoring section that only holds its words
  assert.equal(first(engine, 'example response kwh meter'), `${ORIGIN}/docs/meters#example`);
});

test('an entry of several words finds only sections holding all of them', () => {
  const engine = new LocalSearchEngine(SITE_RECORDS).useSynonyms(SYNONYMS);
  // "button press" is in the authorization page's first paragraph; "press" alone is elsewhere too
  assert.equal(first(engine, 'pairing'), `${ORIGIN}/docs/v2/authorization`);
  assert.ok(engine.rank('pairing').every((h) => h.record.url.startsWith(`${ORIGIN}/docs/v2/authorization`)));
});

test('the index file carries the synonyms: one file, read whole or as it downloads, and a sharded index', () => {
  const file = packRecords(SITE_RECORDS, ORIGIN, SYNONYMS);
  assert.deepEqual(file.synonyms, SYNONYMS);
  assert.deepEqual(Object.keys(file).slice(-2), ['synonyms', 'texts'], 'before the texts, which the client reads as they come');
  assert.equal(first(LocalSearchEngine.fromIndexFile(JSON.parse(JSON.stringify(file))), 'zeroconf'), `${ORIGIN}/docs/discovery#mdns`);
  const text = JSON.stringify(file);
  const stream = new IndexFileStream();
  for (let i = 0; i < text.length; i += 97) stream.push(text.slice(i, i + 97));
  const streamed = stream.end();
  assert.ok('engine' in streamed, 'read as it came');
  assert.equal(first(streamed.engine, 'zeroconf'), `${ORIGIN}/docs/discovery#mdns`);
  const {manifest, files} = buildShards(SITE_RECORDS, ORIGIN, new LocalSearchEngine(SITE_RECORDS), SYNONYMS);
  assert.deepEqual(manifest.synonyms, SYNONYMS);
  const sharded = engineFromShards(manifest, (name) => JSON.parse(files.get(name)!));
  assert.equal(first(sharded, 'zeroconf'), `${ORIGIN}/docs/discovery#mdns`);
  // no synonyms: the file is as before
  assert.equal('synonyms' in packRecords(SITE_RECORDS, ORIGIN), false);
});

test('a malformed synonym list is refused with a one-line message', () => {
  assert.throws(() => checkSynonyms({}), /a list of synonym objects expected/);
  assert.throws(() => checkSynonyms([{objectID: 'a', type: 'synonym', synonyms: ['x']}]), /synonyms\[0\] \(a\): a synonym needs at least two entries/);
  assert.throws(() => checkSynonyms([{objectID: 'a', type: 'oneWaySynonym', synonyms: ['x']}]), /needs an input/);
  assert.throws(() => checkSynonyms([{objectID: 'a', type: 'altCorrection1', synonyms: ['x', 'y']}]), /type must be/);
  assert.throws(() => checkSynonyms([SYNONYMS[0], SYNONYMS[0]]), /repeats an earlier one/);
  const file = {...packRecords(SITE_RECORDS, ORIGIN), synonyms: [{objectID: 1}]};
  assert.throws(() => LocalSearchEngine.fromIndexFile(file), (e: unknown) => e instanceof LocalIndexError && /objectID must be/.test((e as Error).message));
});
