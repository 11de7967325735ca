/**
 * `docs-indexer search` reads a local index as `crawl` reads a build: regular files
 * only, a size cap, a manifest's counts checked before use, one line for a file of the wrong shape.
 */
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {existsSync} from 'node:fs';
import {mkdir, mkdtemp, readFile, rm, truncate, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {writeLocalIndex, MAX_LOCAL_INDEX_BYTES} from '../src/publish/local/publish.ts';
import {SITE_RECORDS} from 'docs-search/testing';
import {runCli} from './helpers.ts';

let dir = '';
let index = '';

before(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'search-bounds-'));
  index = path.join(dir, 'local-index.json');
  await writeLocalIndex(SITE_RECORDS, index);
});
after(() => rm(dir, {recursive: true, force: true}));

/** One line, exit 2, within a few seconds. */
async function refused(file: string, expected: RegExp): Promise<void> {
  const started = Date.now();
  const run = await runCli(['search', 'token', '--index-file', file]);
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.stderr, expected);
  assert.equal(run.stderr.split('\n').length, 2, run.stderr);
  assert.doesNotMatch(run.stderr, /is not a function|TypeError|\n\s+at /);
  assert.ok(Date.now() - started < 20_000, `took ${Date.now() - started} ms`);
}

test('a FIFO or a device as --index-file is refused without being opened', async () => {
  const fifo = path.join(dir, 'fifo.json');
  execFileSync('mkfifo', [fifo]);
  await refused(fifo, /^docs-indexer: the local search index .*fifo\.json is a FIFO, not a regular file\n$/);
  if (existsSync('/dev/zero')) await refused('/dev/zero', /^docs-indexer: the local search index \/dev\/zero is a device, not a regular file\n$/);
});

test('an index file over the size cap is refused before it is read', async () => {
  const big = path.join(dir, 'big.json');
  await writeFile(big, '');
  await truncate(big, MAX_LOCAL_INDEX_BYTES + 1);
  await refused(big, /^docs-indexer: .*big\.json is larger than 64 MB: not a local search index\n$/);
});

test('a sharded manifest claiming 10^15 sections is refused at once', async () => {
  const manifest = path.join(dir, 'manifest.json');
  await writeFile(
    manifest,
    JSON.stringify({format: 3, engine: 'docs-search', version: 'x', origin: 'https://x', pages: [[0, 0, 1e15]], facets: [['en', 'default', null]], types: 'c', leads: [], chunks: [1], shards: [], heads: []}),
  );
  await refused(manifest, /is not a local search index \(its pages claim more sections than its 1 section types\)\n$/);
});

test('texts, pages or counts of the wrong type: one line, not a JavaScript message', async () => {
  const good = JSON.parse(await readFile(index, 'utf8')) as {texts: unknown[]; pages: unknown[][]; types: string};
  const cases: [string, (f: typeof good) => void, RegExp][] = [
    ['texts', (f) => (f.texts[0] = 42), /"texts" is not one text \(or null\) per record/],
    ['page', (f) => (f.pages[0]![0] = 7), /malformed "pages"/],
    ['count', (f) => (f.pages[0]![6] = 1e15), /its pages claim more records than its \d+ record types/],
  ];
  for (const [name, spoil, expected] of cases) {
    const file = path.join(dir, `${name}.json`);
    const copy = structuredClone(good);
    spoil(copy);
    await writeFile(file, JSON.stringify(copy));
    await refused(file, expected);
  }
  // A shard of a sharded index of the wrong kind: one line too.
  const sharded = path.join(dir, 'sharded');
  await mkdir(sharded);
  const many = Array.from({length: 60}, (_, n) => SITE_RECORDS.map((r) => ({...r, objectID: `${r.objectID}-${n}`, url: r.url.replace('/docs/', `/docs/p${n}/`), url_without_anchor: r.url_without_anchor.replace('/docs/', `/docs/p${n}/`)}))).flat();
  const shardedIndex = path.join(sharded, 'local-index.json');
  await writeLocalIndex(many, shardedIndex);
  const manifest = JSON.parse(await readFile(shardedIndex, 'utf8')) as {format: number};
  assert.equal(manifest.format, 3, 'a sharded index');
  const run = await runCli(['search', 'token', '--index-file', shardedIndex]);
  assert.equal(run.code, 0, run.stderr);
});
