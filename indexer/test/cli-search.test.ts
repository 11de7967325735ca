/**
 * `docs-indexer search "QUERY" [--index-file PATH] [--json]`, spawned as a maintainer runs it.
 */
import {test, before} from 'node:test';
import assert from 'node:assert/strict';
import {mkdtemp, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {writeLocalIndex} from '../src/publish/local/publish.ts';
import {ORIGIN, SITE_RECORDS} from 'docs-search/testing';
import {runCli} from './helpers.ts';

let dir = '';
let index = '';

before(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cli-search-'));
  index = path.join(dir, 'local-index.json');
  await writeLocalIndex(SITE_RECORDS, index);
});

test('search prints the hits in the modal order: group titles, heading path, URL, snippet', async () => {
  const run = await runCli(['search', 'user:unauthorized', '--index-file', index]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stderr, '');
  const lines = run.stdout.trimEnd().split('\n');
  assert.match(lines[0]!, /^1 hits for "user:unauthorized", 1 shown as the search modal groups them \(.*local-index\.json\):$/);
  assert.deepEqual(lines.slice(1), [
    'API v2',
    '  1. Authorization › Errors',
    `     ${ORIGIN}/docs/v2/authorization#errors`,
    '     A request without a valid token gets 401 and user:unauthorized.',
  ]);
});

test('search shows escaped record text as plain text in a terminal', async () => {
  const run = await runCli(['search', 'onerror', '--index-file', index]);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /…shows <img src=x onerror=alert\(1\)> as text, and the & sign\.\n/);
});

test('search --json prints the Algolia-shaped response the modal gets', async () => {
  const run = await runCli(['search', 'X-Api-Version', '--index-file', index, '--json']);
  assert.equal(run.code, 0, run.stderr);
  const res = JSON.parse(run.stdout);
  assert.equal(res.query, 'X-Api-Version');
  assert.equal(res.nbHits, res.hits.length);
  assert.equal(res.hits[0].url, `${ORIGIN}/docs/versioning#header`);
  assert.match(res.hits[0]._snippetResult.content.value, /<mark>X-Api-Version<\/mark>/);
  assert.equal(res.hits[0]._highlightResult.hierarchy.lvl0.value, 'Documentation');
});

test('search with no hits says so and exits 0', async () => {
  const run = await runCli(['search', 'zzzqqqxx', '--index-file', index]);
  assert.equal(run.code, 0);
  assert.match(run.stdout, /^No results for "zzzqqqxx" \(.*\)\n$/);
});

test('a missing, unreadable or foreign index file: one line on stderr, exit 2', async () => {
  const missing = path.join(dir, 'missing.json');
  let run = await runCli(['search', 'token', '--index-file', missing]);
  assert.equal(run.code, 2);
  assert.equal(run.stdout, '');
  assert.equal(run.stderr, `docs-indexer: no local search index at ${missing} (build the site first: npm run build)\n`);
  const broken = path.join(dir, 'broken.json');
  await writeFile(broken, '{"format": 1, "records": [');
  run = await runCli(['search', 'token', '--index-file', broken]);
  assert.equal(run.code, 2);
  assert.equal(run.stderr, `docs-indexer: ${broken} is not a local search index (invalid JSON)\n`);
  const records = path.join(dir, 'records.json');
  await writeFile(records, JSON.stringify(SITE_RECORDS));
  run = await runCli(['search', 'token', '--index-file', records]);
  assert.equal(run.code, 2);
  assert.equal(run.stderr, `docs-indexer: ${records} is not a local search index (format 2 expected)\n`);
});

test('a missing or empty query is a usage error (exit 2)', async () => {
  let run = await runCli(['search']);
  assert.equal(run.code, 2);
  assert.equal(run.stderr, "docs-indexer: missing required argument 'QUERY' (see docs-indexer --help)\n");
  run = await runCli(['search', '  ', '--index-file', index]);
  assert.equal(run.code, 2);
  assert.equal(run.stderr, 'docs-indexer: the query is empty: pass the words to search for\n');
});
