/**
 * `docs-indexer search "QUERY" [--index-file PATH] [--json]`, spawned as a maintainer runs it.
 */
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {mkdtemp, rm, writeFile} from 'node:fs/promises';
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

after(() => rm(dir, {recursive: true, force: true}));

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

test('search asks a query longer than the modal takes as its first 64 characters, and says so', async () => {
  const long = `user:unauthorized ${'x'.repeat(80)}`;
  const run = await runCli(['search', long, '--index-file', index]);
  assert.equal(run.code, 0, run.stderr);
  const first = run.stdout.split('\n')[0]!;
  assert.ok(first.includes(`"${long.slice(0, 64)}" (the first 64 characters, all the search modal takes)`), first);
  const short = await runCli(['search', 'user:unauthorized', '--index-file', index]);
  assert.doesNotMatch(short.stdout, /the first 64 characters/);
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

test('search filters on the facets the index holds: --language, --docs-version, --facet; never on one site\'s values', async () => {
  const base = SITE_RECORDS.find((r) => r.type === 'lvl1');
  assert.ok(base);
  const page = (id: string, url: string, title: string, facets: {language: string; docusaurus_tag: string; version?: string}) => {
    const {version: _version, ...rest} = base;
    return {...rest, ...facets, objectID: id, url, url_without_anchor: url, anchor: null, hierarchy: {...base.hierarchy, lvl0: 'Docs', lvl1: title}};
  };
  const records = [
    page('a', 'https://v.example/docs/meter', 'Meter readings', {language: 'fr', docusaurus_tag: 'docs-default-current', version: 'current'}),
    page('b', 'https://v.example/docs/1.0/meter', 'Meter readings', {language: 'fr', docusaurus_tag: 'docs-default-1.0', version: '1.0'}),
    page('c', 'https://v.example/blog/meter', 'Meter news', {language: 'fr', docusaurus_tag: 'default'}),
    page('d', 'https://v.example/en/docs/meter', 'Meter readings', {language: 'en', docusaurus_tag: 'docs-default-current', version: 'current'}),
  ];
  const file = path.join(dir, 'facets.json');
  await writeLocalIndex(records, file);
  const urls = async (...args: string[]): Promise<string[]> => {
    const run = await runCli(['search', 'meter', '--index-file', file, '--json', ...args]);
    assert.equal(run.code, 0, run.stderr);
    return (JSON.parse(run.stdout) as {hits: {url: string}[]}).hits.map((h) => h.url).sort();
  };
  // A French, versioned site: its pages come back (a filter on language:en and the tag "default" found none).
  assert.deepEqual(await urls(), ['https://v.example/blog/meter', 'https://v.example/docs/1.0/meter', 'https://v.example/docs/meter']);
  assert.deepEqual(await urls('--language', 'en'), ['https://v.example/en/docs/meter']);
  assert.deepEqual(await urls('--docs-version', '1.0'), ['https://v.example/blog/meter', 'https://v.example/docs/1.0/meter']);
  assert.deepEqual(await urls('--facet', 'docusaurus_tag:default'), ['https://v.example/blog/meter']);
  const wrong = await runCli(['search', 'meter', '--index-file', file, '--docs-version', '2.0']);
  assert.deepEqual([wrong.code, wrong.stderr], [2, 'docs-indexer: --docs-version 2.0: the index holds no such version (it has: 1.0, current)\n']);
  const bad = await runCli(['search', 'meter', '--index-file', file, '--facet', 'colour:red']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^docs-indexer: --facet must be NAME:VALUE/);
});

test('search prints no control characters from the index to the terminal', async () => {
  const base = SITE_RECORDS.find((r) => r.type === 'content' && r.content);
  assert.ok(base);
  const file = path.join(dir, 'control.json');
  await writeLocalIndex([{...base, objectID: 'x', url: 'https://e.example/\u001b[2Jpage', content: 'Escape \u001b[31mred\u001b[0m and bell\u0007 and nul\u0000 text'}], file);
  const run = await runCli(['search', 'escape', '--index-file', file]);
  assert.equal(run.code, 0, run.stderr);
  // eslint-disable-next-line no-control-regex -- the terminal must get none of these
  assert.doesNotMatch(run.stdout, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  assert.match(run.stdout, /Escape \[31mred\[0m and bell and nul text/);
  // --json too: C1 controls (U+009B starts an escape sequence) and DEL are escaped, the data kept.
  await writeLocalIndex([{...base, objectID: 'y', content: 'Escape \u009b31mred\u009b0m and del\u007f text'}], file);
  const json = await runCli(['search', 'escape', '--index-file', file, '--json']);
  assert.equal(json.code, 0, json.stderr);
  // eslint-disable-next-line no-control-regex -- the terminal must get none of these
  assert.doesNotMatch(json.stdout, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  assert.match(json.stdout, /\\u009b31mred/);
  assert.equal((JSON.parse(json.stdout) as {hits: {content: string}[]}).hits[0]?.content, 'Escape \u009b31mred\u009b0m and del\u007f text');
});
