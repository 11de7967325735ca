/**
 * Stage publish/local: the index file written into the build loads back to the same records, and
 * a missing or foreign file fails with one line.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdtemp, readFile, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {unpackRecords} from 'docs-search';
import {recordListSchema} from 'docs-search/record';
import {ORIGIN, SITE_RECORDS} from 'docs-search/testing';
import {buildLocalIndex, commonOrigin, loadLocalIndex, writeLocalIndex} from '../src/publish/local/publish.ts';

test('publish-local writes a compact file that loads back to the same records', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'local-index-'));
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

test('loading a missing or foreign file fails with one line that says what to do', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'local-index-'));
  await assert.rejects(loadLocalIndex(path.join(dir, 'none.json')), {
    name: 'LocalIndexError',
    message: `no local search index at ${path.join(dir, 'none.json')} (build the site first: npm run build)`,
  });
  await writeFile(path.join(dir, 'bad.json'), '{not json');
  await assert.rejects(loadLocalIndex(path.join(dir, 'bad.json')), {message: `${path.join(dir, 'bad.json')} is not a local search index (invalid JSON)`});
  await writeFile(path.join(dir, 'other.json'), '[1,2]');
  await assert.rejects(loadLocalIndex(path.join(dir, 'other.json')), {message: `${path.join(dir, 'other.json')} is not a local search index (format 2 expected)`});
});
