/**
 * Stage publish/local: the index file written into the build loads back to the same records, and
 * a missing or foreign file fails with one line.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdtemp, readdir, readFile, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {unpackRecords} from 'docs-search';
import {recordListSchema} from 'docs-search/record';
import {ORIGIN, SITE_RECORDS} from 'docs-search/testing';
import {buildLocalIndex, commonOrigin, loadLocalIndex, writeLocalIndex} from '../src/publish/local/publish.ts';

test('publish-local writes a compact file that loads back to the same records', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'local-index-'));
  t.after(() => rm(dir, {recursive: true, force: true}));
  const file = path.join(dir, 'search', 'local-index.json');
  const stats = await writeLocalIndex(SITE_RECORDS, file);
  const text = await readFile(file, 'utf8');
  assert.equal(stats.bytes, Buffer.byteLength(text));
  assert.ok(stats.gzipBytes > 0 && stats.gzipBytes < stats.bytes);
  assert.equal(stats.records, SITE_RECORDS.length);
  assert.equal(commonOrigin(SITE_RECORDS), ORIGIN);
  assert.ok(!text.includes(`${ORIGIN}/docs`), 'the shared origin is stored once');
  const back = unpackRecords(JSON.parse(text));
  const original = recordListSchema.parse(SITE_RECORDS);
  assert.deepEqual(back.map((r) => ({...r, objectID: ''})), original.map((r) => ({...r, objectID: ''})));
  assert.equal(new Set(back.map((r) => r.objectID)).size, back.length, 'objectIDs stay unique');
  assert.deepEqual(buildLocalIndex(SITE_RECORDS), JSON.parse(text));
  const engine = await loadLocalIndex(file);
  assert.equal(engine.records.length, SITE_RECORDS.length);
});

test('loading a missing or foreign file fails with one line that says what to do', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'local-index-'));
  t.after(() => rm(dir, {recursive: true, force: true}));
  await assert.rejects(loadLocalIndex(path.join(dir, 'none.json')), {
    name: 'LocalIndexError',
    message: `no local search index at ${path.join(dir, 'none.json')} (build the site first: npm run build)`,
  });
  await writeFile(path.join(dir, 'bad.json'), '{not json');
  await assert.rejects(loadLocalIndex(path.join(dir, 'bad.json')), {message: `${path.join(dir, 'bad.json')} is not a local search index (invalid JSON)`});
  await writeFile(path.join(dir, 'other.json'), '[1,2]');
  await assert.rejects(loadLocalIndex(path.join(dir, 'other.json')), {message: `${path.join(dir, 'other.json')} is not a local search index (format 2 expected)`});
});

test('publish-local writes a sharded index (manifest + local-index/) that loads back whole, and swaps it for one file', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'local-index-'));
  t.after(() => rm(dir, {recursive: true, force: true}));
  const file = path.join(dir, 'search', 'local-index.json');
  const stats = await writeLocalIndex(SITE_RECORDS, file, {sharded: true});
  const manifest = JSON.parse(await readFile(file, 'utf8')) as {format: number; shards: string[]};
  assert.equal(manifest.format, 3);
  const files = await readdir(path.join(dir, 'search', 'local-index'));
  assert.equal(stats.shards?.files, files.length);
  assert.ok(files.some((f) => f.startsWith('t-')) && files.some((f) => f.startsWith('r-')));
  const engine = await loadLocalIndex(file);
  assert.equal(engine.records.length, SITE_RECORDS.length);
  assert.equal(engine.rank('token')[0]!.record.url, `${ORIGIN}/docs/v2/authorization`);
  // a missing shard file: one line naming it
  await rm(path.join(dir, 'search', 'local-index', files.find((f) => f.startsWith('r-'))!));
  await assert.rejects(loadLocalIndex(file), {name: 'LocalIndexError', message: /local-index\.json is a sharded local search index whose file .*r-\d+\.json cannot be read \(ENOENT\)$/});
  // back to one file: the shard folder goes
  await writeLocalIndex(SITE_RECORDS, file, {sharded: false});
  await assert.rejects(readdir(path.join(dir, 'search', 'local-index')), {code: 'ENOENT'});
  assert.equal((await loadLocalIndex(file)).records.length, SITE_RECORDS.length);
});
