import {test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdtemp, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import type {Synonym} from 'docs-search';
import {crawl} from '../src/crawl/crawl.ts';
import {publishToAlgolia, type PublishOptions} from '../src/publish/algolia/publish.ts';
import {DOCSEARCH_SETTINGS} from '../src/publish/algolia/settings.ts';
import {publishOptionsFor, startFakeAlgolia, type FakeAlgolia} from './fake-algolia.ts';
import {fixture, runCli} from './helpers.ts';

const LIVE = 'docs';
const MINI = fixture('mini-site');
const base = (await crawl(MINI)).records;

const SYNONYMS: Synonym[] = [
  {objectID: 'kwh', type: 'synonym', synonyms: ['kwh meter', 'energy meter']},
  {objectID: 'live', type: 'oneWaySynonym', input: 'live', synonyms: ['websocket']},
];

function optionsFor(fake: FakeAlgolia, extra: Partial<PublishOptions> = {}): PublishOptions {
  return publishOptionsFor(fake, LIVE, {attempts: 2, ...extra});
}

const READS = ['getSettings', 'browse', 'task', 'listIndices', 'searchSynonyms'];
const writes = (fake: FakeAlgolia) => fake.log.filter((e) => !READS.includes(e.step));
/** The synonyms as stored, without the key order Algolia does not keep. */
const stored = (fake: FakeAlgolia, index = LIVE) => fake.synonyms(index).map((s) => JSON.stringify(Object.fromEntries(Object.entries(s).sort())));
const expected = (list: Synonym[]) => list.map((s) => JSON.stringify(Object.fromEntries(Object.entries(s).sort())));

test('a first publish with synonyms saves them in the temporary index, before the move', async () => {
  const fake = await startFakeAlgolia();
  try {
    const result = await publishToAlgolia(base, optionsFor(fake, {synonyms: SYNONYMS}));
    assert.deepEqual(fake.names(), [LIVE]);
    assert.deepEqual(stored(fake), expected(SYNONYMS));
    const saves = fake.log.filter((e) => e.step === 'saveSynonyms');
    assert.equal(saves.length, 1);
    assert.match(saves[0]!.index ?? '', /^docs_tmp_/, 'synonyms go to the temporary index, never to the live one');
    assert.deepEqual(saves[0]!.body, SYNONYMS);
    const order = fake.log.map((e) => e.step).filter((s) => s === 'saveSynonyms' || s === 'move');
    assert.deepEqual(order, ['saveSynonyms', 'move']);
    assert.deepEqual(result.synonyms, {saved: 2, removed: 0, unchanged: 0});
  } finally {
    await fake.close();
  }
});

test('a rerun with the same records and synonyms writes nothing (the index answers with its own type casing)', async () => {
  const fake = await startFakeAlgolia();
  try {
    fake.seed(LIVE, base, DOCSEARCH_SETTINGS, undefined, SYNONYMS as unknown as Record<string, unknown>[]);
    const result = await publishToAlgolia(base, optionsFor(fake, {synonyms: SYNONYMS}));
    assert.deepEqual(writes(fake), []);
    assert.equal(fake.log.filter((e) => e.step === 'searchSynonyms').length, 1, 'the live synonyms were read once');
    assert.deepEqual([result.wrote, result.synonyms], [false, {saved: 0, removed: 0, unchanged: 2}]);
  } finally {
    await fake.close();
  }
});

test('one changed synonym, records unchanged: only it is sent, in a temporary index moved over the live one', async () => {
  const fake = await startFakeAlgolia();
  try {
    fake.seed(LIVE, base, DOCSEARCH_SETTINGS, undefined, SYNONYMS as unknown as Record<string, unknown>[]);
    const changed: Synonym[] = [SYNONYMS[0]!, {...SYNONYMS[1]!, synonyms: ['websocket', 'push']}];
    const result = await publishToAlgolia(base, optionsFor(fake, {synonyms: changed}));
    const saves = fake.log.filter((e) => e.step === 'saveSynonyms');
    assert.deepEqual(saves.map((e) => e.body), [[changed[1]]]);
    assert.doesNotMatch(saves[0]!.path, /replaceExisting/);
    assert.deepEqual(stored(fake).sort(), expected(changed).sort());
    assert.equal(fake.records(LIVE).length, base.length, 'the records came along with the copy');
    assert.deepEqual(fake.log.filter((e) => e.step === 'batch'), [], 'no record was sent');
    assert.deepEqual([result.wrote, result.added, result.updated, result.deleted], [true, 0, 0, 0]);
    assert.deepEqual(fake.names(), [LIVE]);
  } finally {
    await fake.close();
  }
});

test('a synonym the file no longer has is removed: the whole list replaces the index synonyms', async () => {
  const fake = await startFakeAlgolia();
  try {
    const extra = {objectID: 'made-elsewhere', type: 'synonym', synonyms: ['a', 'b']};
    fake.seed(LIVE, base, DOCSEARCH_SETTINGS, undefined, [...(SYNONYMS as unknown as Record<string, unknown>[]), extra]);
    const result = await publishToAlgolia(base, optionsFor(fake, {synonyms: SYNONYMS}));
    const save = fake.log.find((e) => e.step === 'saveSynonyms');
    assert.match(save?.path ?? '', /^\/1\/indexes\/docs_tmp_/);
    assert.equal(fake.log.find((e) => e.step === 'saveSynonyms' && e.status === 200) !== undefined, true);
    assert.deepEqual(stored(fake), expected(SYNONYMS));
    assert.deepEqual(result.synonyms, {saved: 2, removed: 1, unchanged: 0});
  } finally {
    await fake.close();
  }
});

test('without synonyms the index synonyms are left as they are', async () => {
  const fake = await startFakeAlgolia();
  try {
    fake.seed(LIVE, base.slice(1), DOCSEARCH_SETTINGS, undefined, SYNONYMS as unknown as Record<string, unknown>[]);
    await publishToAlgolia(base, optionsFor(fake));
    assert.deepEqual(fake.log.filter((e) => e.step === 'searchSynonyms' || e.step === 'saveSynonyms'), []);
    assert.deepEqual(stored(fake), expected(SYNONYMS), 'kept through the copy and the move');
  } finally {
    await fake.close();
  }
});

test('saving the synonyms fails: the live index keeps its records and synonyms, the temporary index is deleted', async () => {
  const fake = await startFakeAlgolia();
  try {
    fake.seed(LIVE, base, DOCSEARCH_SETTINGS, undefined, SYNONYMS.slice(0, 1) as unknown as Record<string, unknown>[]);
    fake.faults.push({step: 'saveSynonyms', fault: 400});
    await assert.rejects(publishToAlgolia(base, optionsFor(fake, {synonyms: SYNONYMS})), /index synonyms failed: HTTP 400.*the live index "docs" was not changed/);
    assert.deepEqual(fake.names(), [LIVE]);
    assert.deepEqual(stored(fake), expected(SYNONYMS.slice(0, 1)));
    assert.equal(fake.records(LIVE).length, base.length);
  } finally {
    await fake.close();
  }
});

test('push --synonyms FILE sends the file; a rerun sends nothing; a bad file is a usage error before any request', async (t) => {
  const fake = await startFakeAlgolia();
  try {
    const dir = await mkdtemp(join(tmpdir(), 'synonyms-'));
    t.after(() => rm(dir, {recursive: true, force: true}));
    const file = join(dir, 'synonyms.json');
    await writeFile(file, JSON.stringify({about: 'test', synonyms: SYNONYMS}));
    const env = {
      ALGOLIA_APP_ID: fake.appId,
      ALGOLIA_ADMIN_API_KEY: fake.apiKey,
      ALGOLIA_INDEX_NAME: LIVE,
      ALGOLIA_HOSTS: fake.url,
      DOCS_INDEXER_TIMEOUT_MS: '300',
      DOCS_INDEXER_RETRY_DELAY_MS: '5',
      DOCS_INDEXER_ATTEMPTS: '2',
      CI: 'true',
    };
    const first = await runCli(['push', MINI, '--synonyms', file, '--json'], env);
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual(JSON.parse(first.stdout).synonyms, {saved: 2, removed: 0, unchanged: 0});
    assert.deepEqual(stored(fake), expected(SYNONYMS));
    const second = await runCli(['push', MINI, '--synonyms', file], env);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /already up to date/);
    assert.equal(fake.log.filter((e) => e.step === 'saveSynonyms').length, 1);

    const bad = join(dir, 'bad.json');
    await writeFile(bad, JSON.stringify({synonyms: [{objectID: 'x', type: 'synonym', synonyms: ['only one']}]}));
    const requests = fake.log.length;
    const rejected = await runCli(['push', MINI, '--synonyms', bad], env);
    assert.equal(rejected.code, 2);
    assert.match(rejected.stderr, /synonyms file .*bad\.json: synonyms\[0\] \(x\): a synonym needs at least two entries/);
    assert.equal(rejected.stderr.trim().split('\n').length, 1);
    assert.equal(fake.log.length, requests, 'nothing was asked of Algolia');
    const missing = await runCli(['push', MINI, '--synonyms', join(dir, 'nope.json')], env);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /synonyms file .*nope\.json does not exist/);
  } finally {
    await fake.close();
  }
});
