import {test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdtemp, readFile, readdir, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {recordListSchema} from 'docs-search/record';
import {fixture, runCli} from './helpers.ts';

const MINI = fixture('mini-site');

test('crawl SOURCE prints the records as a JSON array on stdout', async () => {
  const run = await runCli(['crawl', MINI]);
  assert.equal(run.code, 0, run.stderr);
  const records = recordListSchema.parse(JSON.parse(run.stdout));
  assert.equal(records.length, 11);
  // Each skipped page is one line, then the summary.
  assert.match(
    run.stderr,
    /^skipped https:\/\/mini\.example\.org\/404: not-found\nskipped https:\/\/mini\.example\.org\/docs\/hidden: noindex\ncrawled 3 pages \(2 skipped\): 11 records in [\d.]+ s\n$/,
  );
});

test('crawl --out FILE --json writes the file and prints one summary object', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'indexer-cli-'));
  const out = path.join(dir, 'records.json');
  const run = await runCli(['crawl', MINI, '--out', out, '--json', '--base-url', 'https://docs.example.com/', '--concurrency', '2']);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stderr, '');
  const summary = JSON.parse(run.stdout);
  assert.deepEqual(Object.keys(summary), ['pages', 'records', 'skipped', 'failed', 'bytes', 'seconds', 'skippedPages']);
  assert.equal(summary.pages, 3);
  assert.equal(summary.failed, 0);
  assert.deepEqual(summary.skippedPages, [
    {url: 'https://docs.example.com/404', reason: 'not-found'},
    {url: 'https://docs.example.com/docs/hidden', reason: 'noindex'},
  ]);
  assert.equal(summary.records, 11);
  const file = await readFile(out, 'utf8');
  assert.equal(summary.bytes, Buffer.byteLength(file));
  assert.ok(recordListSchema.parse(JSON.parse(file)).every((r) => r.url.startsWith('https://docs.example.com/')));
  await rm(dir, {recursive: true, force: true});
});

test('--out gives the same records as stdout, and a failed crawl leaves no file behind', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'indexer-cli-'));
  const out = path.join(dir, 'records.json');
  const [toFile, toStdout] = await Promise.all([runCli(['crawl', MINI, '--out', out]), runCli(['crawl', MINI])]);
  assert.deepEqual([toFile.code, toStdout.code], [0, 0]);
  assert.equal(await readFile(out, 'utf8'), toStdout.stdout);
  const failed = path.join(dir, 'none.json');
  const run = await runCli(['crawl', fixture('noindex'), '--base-url', 'https://x.org/', '--out', failed]);
  assert.equal(run.code, 2);
  assert.deepEqual(await readdir(dir), ['records.json']);
  await rm(dir, {recursive: true, force: true});
});

test('usage errors exit 2 with one line on stderr', async () => {
  const cases: [string[], string][] = [
    [['crawl'], "docs-indexer: missing required argument 'SOURCE' (see docs-indexer --help)\n"],
    [['crawl', MINI, '--bogus'], "docs-indexer: unknown option '--bogus' (see docs-indexer --help)\n"],
    [['crawl', MINI, '--concurrency', '0'], 'docs-indexer: --concurrency must be a whole number from 1 to 64 (got "0")\n'],
    [['crawl', MINI, '--base-url', 'ftp://x'], 'docs-indexer: --base-url must be an absolute http(s) URL such as https://example.com/ (got "ftp://x")\n'],
    [['crawl', MINI, '--json'], 'docs-indexer: --json prints the summary on stdout: pass --out FILE for the records\n'],
    [['crawl', path.join(MINI, 'nope')], `docs-indexer: cannot read SOURCE "${path.join(MINI, 'nope')}": no such folder (build the site first: npm run build)\n`],
    [['crawl', fixture('noindex')], `docs-indexer: cannot tell the site's URL from "${fixture('noindex')}": pass --base-url URL\n`],
    [['crawl', fixture('noindex'), '--base-url', 'https://x.org'], `docs-indexer: the crawl of ${fixture('noindex')} found no pages to index\n`],
    [['frobnicate'], "docs-indexer: unknown command 'frobnicate' (see docs-indexer --help)\n"],
  ];
  for (const [args, stderr] of cases) {
    const run = await runCli(args);
    assert.deepEqual([run.code, run.stderr, run.stdout], [2, stderr, ''], args.join(' '));
  }
});

test('--help exits 0 and lists the commands', async () => {
  const run = await runCli(['--help']);
  assert.equal(run.code, 0);
  assert.match(run.stdout, /crawl \[options\] <SOURCE>/);
  assert.match(run.stdout, /push \[options\] <SOURCE>/);
});
