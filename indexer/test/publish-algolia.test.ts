import {test} from 'node:test';
import assert from 'node:assert/strict';
import {crawl} from '../src/crawl/crawl.ts';
import {AuthError, PublishError, UsageError} from '../src/errors.ts';
import {publishToAlgolia, type PublishOptions} from '../src/publish/algolia/publish.ts';
import type {SearchRecord} from 'docs-search/record';
import {DOCSEARCH_SETTINGS, type IndexSettings} from '../src/publish/algolia/settings.ts';
import {QUESTION_WORDS} from 'docs-search/record';
import {contentHashes} from '../src/records/content-hash.ts';
import {publishOptionsFor, startFakeAlgolia, type FakeAlgolia, type Fault, type Step} from './fake-algolia.ts';
import {fixture} from './helpers.ts';

const LIVE = 'docs';
const base = (await crawl(fixture('mini-site'))).records;
const byId = (records: readonly Record<string, unknown>[]): Record<string, unknown> =>
  Object.fromEntries([...records].map((r) => [String(r.objectID), r]).sort(([a], [b]) => (String(a) < String(b) ? -1 : 1)));

/** The next version of the site: one record edited, one removed, one added. */
function nextVersion(records: readonly SearchRecord[]): SearchRecord[] {
  const next = records.map((r) => structuredClone(r));
  const edited = next.find((r) => r.type === 'content');
  if (!edited) throw new Error('fixture has no content');
  edited.content = `${edited.content} Edited.`;
  next.splice(next.length - 1, 1);
  next.push({...structuredClone(edited), objectID: 'new-record-id', content: 'A new paragraph.'});
  return next;
}

function optionsFor(fake: FakeAlgolia, extra: Partial<PublishOptions> = {}): PublishOptions {
  return publishOptionsFor(fake, LIVE, extra);
}

const writes = (fake: FakeAlgolia) => fake.log.filter((e) => !['getSettings', 'browse', 'task', 'listIndices'].includes(e.step));
const batchOps = (fake: FakeAlgolia) =>
  fake.log.filter((e) => e.step === 'batch' && e.status === 200).flatMap((e) => (e.body as {requests: {action: string; body: {objectID: string}}[]}).requests);

test('a first publish creates the live index with every record and the DocSearch settings, via a temporary index', async () => {
  const fake = await startFakeAlgolia();
  try {
    fake.history(LIVE);
    const result = await publishToAlgolia(base, optionsFor(fake));
    assert.deepEqual(fake.names(), [LIVE], 'no temporary index left');
    assert.deepEqual(byId(fake.records(LIVE)), byId(base));
    const {userData, ...settings} = fake.indexes.get(LIVE)?.settings ?? {};
    assert.deepEqual(settings, DOCSEARCH_SETTINGS);
    assert.match(String((userData as Record<string, unknown>).docsIndexerBuild), /^docs_tmp_[0-9a-z]{12}$/, 'the live settings name the run whose build is live');
    assert.equal(fake.indexes.get(LIVE)?.settings.separatorsToIndex, '_');
    assert.deepEqual(fake.history(LIVE).map((s) => Object.keys(s).length), [0, base.length], 'live went from nothing to complete in one step');
    assert.deepEqual([result.added, result.updated, result.deleted, result.unchanged, result.wrote], [base.length, 0, 0, 0, true]);
    const batches = fake.log.filter((e) => e.step === 'batch');
    assert.ok(batches.every((e) => e.index?.startsWith(`${LIVE}_tmp_`)), 'records only ever go to the temporary index');
    assert.deepEqual(fake.log.filter((e) => e.step === 'move').map((e) => e.status), [200]);
  } finally {
    await fake.close();
  }
});

test('push asks Algolia to relax queries as the local engine does, with settings of the search API types', async () => {
  const fake = await startFakeAlgolia();
  try {
    await publishToAlgolia(base, optionsFor(fake));
    const sent = fake.log.filter((e) => e.step === 'setSettings' && e.status === 200).map((e) => e.body as Record<string, unknown>);
    assert.ok(sent.length > 0, 'the settings were sent');
    const body = sent.at(-1)!;
    // The values each setting may take in algoliasearch's own types (a value outside them fails to compile).
    const strategies: NonNullable<IndexSettings['removeWordsIfNoResults']>[] = ['none', 'lastWords', 'firstWords', 'allOptional'];
    const english: NonNullable<IndexSettings['queryLanguages']> = ['en'];
    assert.ok(strategies.includes(body.removeWordsIfNoResults as never));
    assert.equal(body.removeWordsIfNoResults, 'allOptional', 'no record holds every word: every word becomes optional');
    assert.deepEqual(body.optionalWords, [...QUESTION_WORDS].sort(), "a question's own words never keep a record out");
    assert.deepEqual(body.removeStopWords, english);
    assert.deepEqual(body.queryLanguages, english);
    assert.deepEqual(
      (body.ranking as string[]).slice(0, 1),
      ['words'],
      'records holding more of the words rank first (the words criterion), as the local engine ranks the sections holding every word above the rest',
    );
    assert.ok((body.searchableAttributes as string[]).includes('content'), 'content is ordered: a table row that starts with the identifier ranks above a text that quotes it');
  } finally {
    await fake.close();
  }
});

test('an unchanged site writes nothing: the rerun converges', async () => {
  const fake = await startFakeAlgolia();
  try {
    fake.seed(LIVE, base, DOCSEARCH_SETTINGS);
    const result = await publishToAlgolia(base, optionsFor(fake));
    assert.deepEqual(writes(fake), []);
    assert.deepEqual([result.added, result.updated, result.deleted, result.unchanged, result.wrote], [0, 0, 0, base.length, false]);
  } finally {
    await fake.close();
  }
});

/** A record with its keys, and its hierarchy's keys, in reverse order (Algolia keeps no key order). */
function reordered(record: SearchRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(record).reverse()) {
    const value = record[key as keyof SearchRecord];
    out[key] = key === 'hierarchy' ? Object.fromEntries(Object.entries(value as object).reverse()) : value;
  }
  return out;
}

test('the diff compares content, not key order: reordered live records are unchanged, a changed heading deep in the hierarchy is an update', async () => {
  const fake = await startFakeAlgolia();
  try {
    fake.seed(LIVE, base.map(reordered), DOCSEARCH_SETTINGS);
    const same = await publishToAlgolia(base, optionsFor(fake));
    assert.deepEqual([same.added, same.updated, same.deleted, same.unchanged, same.wrote], [0, 0, 0, base.length, false]);
    const target = base.find((r) => r.hierarchy.lvl2 !== null);
    assert.ok(target);
    const edited = base.map((r) => (r === target ? {...r, hierarchy: {...r.hierarchy, lvl2: `${r.hierarchy.lvl2} (edited)`}} : r));
    const result = await publishToAlgolia(edited, {...optionsFor(fake), dryRun: true});
    assert.deepEqual([result.added, result.updated, result.deleted], [0, 1, 0]);
    assert.deepEqual(result.changes.update.map((c) => c.objectID), [target.objectID]);
  } finally {
    await fake.close();
  }
});

test('the bytes reported are the bytes of the operations sent, also for pages extracted on workers', async () => {
  for (const workers of [0, 2]) {
    const fake = await startFakeAlgolia();
    try {
      const {store} = await crawl(fixture('mini-site'), {workers});
      const result = await publishToAlgolia(store, optionsFor(fake));
      const sent = batchOps(fake).reduce((sum, op) => sum + Buffer.byteLength(JSON.stringify(op)), 0);
      assert.equal(result.bytes, sent, `workers: ${workers}`);
    } finally {
      await fake.close();
    }
  }
});

test('digests made by the crawl workers give the same diff as the records themselves', async () => {
  const fake = await startFakeAlgolia();
  try {
    fake.seed(LIVE, nextVersion(base), DOCSEARCH_SETTINGS);
    const {store} = await crawl(fixture('mini-site'), {workers: 2, digests: true});
    assert.ok(store.digested, 'the workers sent digests with the packed pages');
    for (const page of store.digests()) {
      assert.deepEqual(page.ids, store.page(page.index).map((r) => r.objectID));
      assert.deepEqual(page.hashes, contentHashes(store.page(page.index)));
    }
    const fromDigests = await publishToAlgolia(store, optionsFor(fake, {dryRun: true}));
    const fromRecords = await publishToAlgolia(base, optionsFor(fake, {dryRun: true}));
    assert.deepEqual([fromDigests.added, fromDigests.updated, fromDigests.deleted, fromDigests.unchanged], [1, 1, 1, base.length - 2]);
    assert.deepEqual(fromDigests.changes, fromRecords.changes);
    assert.equal(fromDigests.bytes, fromRecords.bytes);
  } finally {
    await fake.close();
  }
});

test('minimal publish: one edit, one removal, one addition cost three record operations on a copy of live', async () => {
  const fake = await startFakeAlgolia();
  try {
    fake.seed(LIVE, base, DOCSEARCH_SETTINGS);
    fake.indexes.get(LIVE)?.synonyms.push({objectID: 'syn', type: 'synonym', synonyms: ['kwh', 'kilowatt hour']});
    const next = nextVersion(base);
    const result = await publishToAlgolia(next, optionsFor(fake));
    assert.deepEqual([result.added, result.updated, result.deleted, result.unchanged], [1, 1, 1, base.length - 2]);
    const ops = batchOps(fake);
    assert.equal(ops.length, 3);
    assert.deepEqual(ops.map((o) => o.action).sort(), ['addObject', 'addObject', 'deleteObject']);
    const copy = fake.log.find((e) => e.step === 'copy');
    assert.equal(copy?.index, LIVE);
    assert.equal((copy?.body as {scope?: unknown}).scope, undefined, 'a full server-side copy of live, records included');
    assert.deepEqual(byId(fake.records(LIVE)), byId(next));
    assert.equal(fake.indexes.get(LIVE)?.synonyms.length, 1, 'synonyms made in the dashboard survive');
    assert.equal(fake.history(LIVE).length, 2, 'live changed once, atomically');
    assert.deepEqual(fake.names(), [LIVE]);
  } finally {
    await fake.close();
  }
});

test('--full sends every record to a fresh temporary index that keeps only settings, synonyms and rules', async () => {
  const fake = await startFakeAlgolia();
  try {
    fake.seed(LIVE, base, DOCSEARCH_SETTINGS);
    const next = nextVersion(base);
    const result = await publishToAlgolia(next, optionsFor(fake, {full: true}));
    assert.equal(batchOps(fake).length, next.length);
    assert.deepEqual((fake.log.find((e) => e.step === 'copy')?.body as {scope?: string[]}).scope, ['settings', 'synonyms', 'rules']);
    assert.deepEqual(byId(fake.records(LIVE)), byId(next));
    assert.equal(result.deleted, 1);
    assert.deepEqual(fake.names(), [LIVE]);
  } finally {
    await fake.close();
  }
});

test('changed settings alone are published atomically too', async () => {
  const fake = await startFakeAlgolia();
  try {
    fake.seed(LIVE, base, {...DOCSEARCH_SETTINGS, separatorsToIndex: ''});
    const result = await publishToAlgolia(base, optionsFor(fake));
    assert.equal(result.settingsChanged, true);
    assert.equal(fake.indexes.get(LIVE)?.settings.separatorsToIndex, '_');
    assert.deepEqual(batchOps(fake), []);
  } finally {
    await fake.close();
  }
});

test('a dry run reports the changes and writes nothing', async () => {
  const fake = await startFakeAlgolia();
  try {
    fake.seed(LIVE, base, DOCSEARCH_SETTINGS);
    const next = nextVersion(base);
    const result = await publishToAlgolia(next, optionsFor(fake, {dryRun: true}));
    assert.deepEqual(writes(fake), []);
    assert.deepEqual([result.added, result.updated, result.deleted, result.wrote], [1, 1, 1, false]);
    assert.deepEqual(result.changes.add.map((c) => c.objectID), ['new-record-id']);
    assert.ok(result.bytes > 0);
    assert.deepEqual(byId(fake.records(LIVE)), byId(base));
  } finally {
    await fake.close();
  }
});

test('browsing a large live index follows the cursor', async () => {
  const fake = await startFakeAlgolia();
  try {
    const many: SearchRecord[] = Array.from({length: 2345}, (_, i) => ({...structuredClone(base[1] as SearchRecord), objectID: `id-${i}`, content: `Paragraph ${i}.`}));
    fake.seed(LIVE, many, DOCSEARCH_SETTINGS);
    const result = await publishToAlgolia(many, optionsFor(fake, {timeoutMs: 10_000}));
    assert.equal(result.unchanged, 2345);
    assert.equal(fake.log.filter((e) => e.step === 'browse').length, 3);
  } finally {
    await fake.close();
  }
});

const STEPS: Step[] = ['copy', 'setSettings', 'batch', 'task', 'move'];
const FAULTS: Fault[] = [500, 429, 'timeout', 'drop'];

for (const step of STEPS) {
  for (const fault of FAULTS) {
    test(`a lasting ${fault} at ${step}: live untouched, temporary index deleted, rerun converges`, async () => {
      const fake = await startFakeAlgolia();
      try {
        fake.seed(LIVE, base, DOCSEARCH_SETTINGS);
        const next = nextVersion(base);
        fake.faults.push({step, fault});
        await assert.rejects(publishToAlgolia(next, optionsFor(fake)), (error) => {
          assert.ok(error instanceof PublishError, String(error));
          assert.match(error.message, / failed after 3 attempts: (HTTP 500|HTTP 429 \(Too many requests\)|timed out|connection failed); the live index "docs" was not changed$/);
          return true;
        });
        assert.equal(fake.history(LIVE).length, 1, 'live never changed');
        assert.deepEqual(byId(fake.records(LIVE)), byId(base));
        assert.deepEqual(fake.names(), [LIVE], 'temporary index deleted');
        fake.faults.length = 0;
        await publishToAlgolia(next, optionsFor(fake));
        assert.deepEqual(byId(fake.records(LIVE)), byId(next));
        assert.deepEqual(fake.names(), [LIVE]);
        assert.equal(fake.history(LIVE).length, 2, 'one atomic change');
        const third = await publishToAlgolia(next, optionsFor(fake));
        assert.equal(third.wrote, false, 'converged');
      } finally {
        await fake.close();
      }
    });
  }
}

test('one transient fault at every step is retried and the publish succeeds', async () => {
  const fake = await startFakeAlgolia();
  try {
    fake.seed(LIVE, base, DOCSEARCH_SETTINGS);
    const next = nextVersion(base);
    const faults: Fault[] = [503, 429, 'timeout', 'drop'];
    ['getSettings', 'browse', ...STEPS].forEach((step, i) => fake.faults.push({step: step as Step, fault: faults[i % faults.length] as Fault, times: 1}));
    const retries: string[] = [];
    await publishToAlgolia(next, optionsFor(fake, {onEvent: (e) => e.type === 'retry' && retries.push(e.step)}));
    assert.deepEqual(byId(fake.records(LIVE)), byId(next));
    assert.equal(fake.history(LIVE).length, 2);
    assert.deepEqual(fake.names(), [LIVE]);
    assert.equal(retries.length, 7);
  } finally {
    await fake.close();
  }
});

test('a move whose response is lost still counts as done (the temporary index is gone)', async () => {
  const fake = await startFakeAlgolia();
  try {
    fake.seed(LIVE, base, DOCSEARCH_SETTINGS);
    const next = nextVersion(base);
    fake.faults.push({step: 'move', fault: 'drop-after', times: 1});
    await publishToAlgolia(next, optionsFor(fake));
    assert.deepEqual(byId(fake.records(LIVE)), byId(next));
    assert.equal(fake.log.filter((e) => e.step === 'move').length, 1, 'the move is not sent twice');
    assert.deepEqual(fake.names(), [LIVE]);
  } finally {
    await fake.close();
  }
});

test('failures before any write leave everything as it was', async () => {
  for (const step of ['getSettings', 'browse'] as Step[]) {
    const fake = await startFakeAlgolia();
    try {
      fake.seed(LIVE, base, DOCSEARCH_SETTINGS);
      fake.faults.push({step, fault: 502});
      await assert.rejects(publishToAlgolia(nextVersion(base), optionsFor(fake)), {
        name: 'PublishError',
        message: `${step === 'browse' ? 'reading the live index records' : 'reading the live index settings'} failed after 3 attempts: HTTP 502; the live index "docs" was not changed`,
      });
      assert.deepEqual(writes(fake), []);
    } finally {
      await fake.close();
    }
  }
});

test('a browse answer that repeats its cursor, never ends or has the wrong shape stops the run in a few requests, nothing written', async () => {
  const cases: [Fault, RegExp][] = [
    ['same-cursor', /reading the live index records failed: Algolia answered a cursor it had already given \(it would never end\); the live index "docs" was not changed/],
    ['endless-cursor', /reading the live index records failed: Algolia still gave a cursor after 11 pages, more than the index's \d+ records need \(it would never end\); the live index "docs" was not changed/],
    ['bad-shape', /reading the live index records failed: Algolia's answer is not a browse page \("hits" is not a list\); the live index "docs" was not changed/],
  ];
  for (const [fault, message] of cases) {
    const fake = await startFakeAlgolia();
    try {
      fake.seed(LIVE, base, DOCSEARCH_SETTINGS);
      fake.faults.push({step: 'browse', fault});
      await assert.rejects(publishToAlgolia(nextVersion(base), optionsFor(fake)), (error) => {
        assert.ok(error instanceof PublishError, String(error));
        assert.match(error.message, message);
        return true;
      });
      assert.ok(fake.log.filter((e) => e.step === 'browse').length <= 11, `${fault}: ${fake.log.filter((e) => e.step === 'browse').length} browse requests`);
      assert.deepEqual(writes(fake), [], String(fault));
      assert.deepEqual(fake.names(), [LIVE], String(fault));
    } finally {
      await fake.close();
    }
  }
  // The same on the copy of the live index: the temporary index is deleted, live untouched.
  const fake = await startFakeAlgolia();
  try {
    fake.seed(LIVE, base, DOCSEARCH_SETTINGS);
    fake.history(LIVE);
    fake.faults.push({step: 'browse', fault: 'same-cursor', index: /_tmp_/});
    await assert.rejects(publishToAlgolia(nextVersion(base), optionsFor(fake)), {
      name: 'PublishError',
      message: /^reading the copy of the live index failed: Algolia answered a cursor it had already given \(it would never end\); the live index "docs" was not changed$/,
    });
    assert.deepEqual(fake.names(), [LIVE], 'the temporary index was deleted');
    assert.equal(fake.history(LIVE).length, 1, 'live untouched');
  } finally {
    await fake.close();
  }
});

test('a wrong key is an AuthError at once, with no retry and no key in the message', async () => {
  const fake = await startFakeAlgolia();
  try {
    fake.seed(LIVE, base, DOCSEARCH_SETTINGS);
    await assert.rejects(publishToAlgolia(base, optionsFor(fake, {apiKey: 'wrong-key-123456'})), (error) => {
      assert.ok(error instanceof AuthError);
      assert.equal(
        error.message,
        'Algolia rejected the credentials (HTTP 403) while reading the live index settings: check ALGOLIA_APP_ID and ALGOLIA_ADMIN_API_KEY (the key needs write rights)',
      );
      return true;
    });
    assert.equal(fake.log.length, 1);
  } finally {
    await fake.close();
  }
});

test('a key that can read but not write: 403 on the copy cleans up and says so', async () => {
  const fake = await startFakeAlgolia();
  try {
    fake.seed(LIVE, base, DOCSEARCH_SETTINGS);
    fake.faults.push({step: 'copy', fault: 403});
    await assert.rejects(publishToAlgolia(nextVersion(base), optionsFor(fake)), (error) => {
      assert.ok(error instanceof AuthError);
      assert.match(error.message, /while copying the live index: .*; the live index "docs" was not changed$/);
      return true;
    });
    assert.deepEqual(fake.names(), [LIVE]);
  } finally {
    await fake.close();
  }
});

test('when the temporary index cannot be deleted either, the message names it', async () => {
  const fake = await startFakeAlgolia();
  try {
    fake.seed(LIVE, base, DOCSEARCH_SETTINGS);
    fake.faults.push({step: 'batch', fault: 500}, {step: 'deleteIndex', fault: 500});
    await assert.rejects(publishToAlgolia(nextVersion(base), optionsFor(fake)), (error) => {
      assert.ok(error instanceof PublishError);
      assert.match(error.message, /; the live index "docs" was not changed; the temporary index "docs_tmp_\w+" could not be deleted: delete it in the Algolia dashboard$/);
      return true;
    });
    assert.deepEqual(fake.history(LIVE).length, 1);
  } finally {
    await fake.close();
  }
});

test('an empty record set or an invalid index name is refused before any request', async () => {
  await assert.rejects(publishToAlgolia([], {appId: 'a', apiKey: 'b', indexName: 'c'}), {name: 'SourceError'});
  for (const [indexName, reason] of [
    ['*', 'use only letters, digits, "_", "-" and "."'],
    ['x'.repeat(600), 'it has 600 characters (at most 200)'],
    ['docs/../x', 'use only letters, digits, "_", "-" and "."'],
    ['a b', 'use only letters, digits, "_", "-" and "."'],
  ]) {
    await assert.rejects(publishToAlgolia(base, {appId: 'a', apiKey: 'b', indexName: indexName as string}), (error) => {
      assert.ok(error instanceof UsageError);
      assert.match(error.message, new RegExp(`^invalid Algolia index name ".{1,60}": ${(reason as string).replace(/[()"]/g, '\\$&')}$`));
      return true;
    });
  }
  // Numeric settings out of range (a timer above 2^31 - 1 ms would fire after 1 ms).
  for (const [extra, message] of [
    [{timeoutMs: 99_999_999_999}, 'timeoutMs must be a whole number from 1 to 600000 (got 99999999999)'],
    [{retryDelayMs: -1}, 'retryDelayMs must be a whole number from 0 to 60000 (got -1)'],
    [{attempts: 0.5}, 'attempts must be a whole number from 1 to 20 (got 0.5)'],
  ] as const) {
    await assert.rejects(publishToAlgolia(base, {appId: 'a', apiKey: 'b', indexName: 'c', ...extra}), {name: 'UsageError', message});
  }
});

test('records sharing an objectID are renamed in crawl order (ID-2, ID-3) instead of refusing the publish, the same way every run', async () => {
  const fake = await startFakeAlgolia();
  try {
    const first = base[1] as SearchRecord;
    const twin = {...structuredClone(first), hierarchy: {...first.hierarchy, lvl2: 'Another section with the same anchor'}};
    const triplet = structuredClone(twin);
    const records = [base[0] as SearchRecord, first, twin, ...base.slice(2), triplet];
    const events: string[] = [];
    const result = await publishToAlgolia(records, optionsFor(fake, {onEvent: (e) => e.type === 'duplicates' && events.push(`${e.renamed} ${e.example}`)}));
    assert.equal(result.renamed, 2);
    assert.deepEqual(events, [`2 ${first.objectID}-2`]);
    const live = byId(fake.records(LIVE));
    assert.equal(Object.keys(live).length, records.length, 'every record is published');
    assert.deepEqual(live[first.objectID], first, 'the first keeps its ID');
    assert.deepEqual(live[`${first.objectID}-2`], {...twin, objectID: `${first.objectID}-2`});
    assert.deepEqual(live[`${first.objectID}-3`], {...triplet, objectID: `${first.objectID}-3`});
    const rerun = await publishToAlgolia(records, optionsFor(fake));
    assert.deepEqual([rerun.wrote, rerun.unchanged], [false, records.length], 'the same names again: nothing to send');
  } finally {
    await fake.close();
  }
});
