import {test} from 'node:test';
import assert from 'node:assert/strict';
import {execFileSync, spawn} from 'node:child_process';
import {mkdtemp, readFile, readdir, rm, symlink, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {recordListSchema} from 'docs-search/record';
import {bin, fixture, runCli, workspaceRoot} from './helpers.ts';

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
  // The skipped pages are listed on stderr, as without --json.
  assert.equal(run.stderr, 'skipped https://docs.example.com/404: not-found\nskipped https://docs.example.com/docs/hidden: noindex\n');
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
    [['crawl', fixture('noindex'), '--base-url', 'https://x.org'], `docs-indexer: the crawl of ${fixture('noindex')} found no pages to index: its only page was skipped (https://x.org/page: noindex)\n`],
    [['frobnicate'], "docs-indexer: unknown command 'frobnicate' (see docs-indexer --help)\n"],
    // No command: one line and a pointer to --help, not the whole help on stderr.
    [[], 'docs-indexer: missing command: crawl, push or search (see docs-indexer --help)\n'],
    [['help', 'frob'], "docs-indexer: unknown command 'frob' (see docs-indexer --help)\n"],
    [['--max-failed', '5'], "docs-indexer: unknown option '--max-failed' (see docs-indexer --help)\n"],
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

test('--version prints the package version and exits 0', async () => {
  const {version} = JSON.parse(await readFile(path.join(workspaceRoot, 'package.json'), 'utf8')) as {version: string};
  for (const flag of ['--version', '-V']) {
    const run = await runCli([flag]);
    assert.deepEqual([run.code, run.stdout, run.stderr], [0, `${version}\n`, ''], flag);
  }
});

test('--out refuses a symbolic link, a FIFO, a device and a folder, and a missing folder, before crawling: exit 2, one line, nothing written', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'indexer-out-'));
  try {
    const target = path.join(dir, 'target.json');
    await writeFile(target, 'keep me');
    await symlink(target, path.join(dir, 'link.json'));
    execFileSync('mkfifo', [path.join(dir, 'fifo')]);
    const cases: [string, RegExp][] = [
      [path.join(dir, 'link.json'), /^docs-indexer: refusing to write .*link\.json: it is a symbolic link \(give a regular file or a new path\)\n$/],
      [path.join(dir, 'fifo'), /^docs-indexer: refusing to write .*fifo: it is a FIFO /],
      ['/dev/null', /^docs-indexer: refusing to write \/dev\/null: it is a device /],
      [dir, /^docs-indexer: refusing to write .*: it is a folder /],
      [path.join(dir, 'missing', 'records.json'), /^docs-indexer: cannot write .*records\.json: the folder .*missing does not exist\n$/],
      [path.join(dir, 'target.json', 'records.json'), /^docs-indexer: cannot write .*records\.json \(ENOTDIR\)\n$/],
    ];
    for (const [out, stderr] of cases) {
      const run = await runCli(['crawl', MINI, '--out', out]);
      assert.equal(run.code, 2, `${out}: ${run.stderr}`);
      assert.match(run.stderr, stderr);
      assert.equal(run.stderr.split('\n').length, 2, run.stderr);
      assert.equal(run.stdout, '');
    }
    assert.equal(await readFile(target, 'utf8'), 'keep me');
    assert.deepEqual((await readdir(dir)).sort(), ['fifo', 'link.json', 'target.json']);
    // A regular file is overwritten.
    const run = await runCli(['crawl', MINI, '--out', target]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(recordListSchema.parse(JSON.parse(await readFile(target, 'utf8'))).length, 11);
  } finally {
    await rm(dir, {recursive: true, force: true});
  }
});

test('a reader that closes stdout early (| head) ends the crawl quietly: exit 0, no stack trace', async () => {
  // One page with records enough to fill the pipe (more than 64 KB of JSON).
  const dir = await mkdtemp(path.join(tmpdir(), 'indexer-pipe-'));
  try {
    const paragraphs = Array.from({length: 3000}, (_, i) => `<p>Paragraph ${i} of a long page about meters and tokens.</p>`).join('');
    await writeFile(path.join(dir, 'index.html'), `<html lang="en"><head><title>Long</title></head><body><article><h1>Long</h1>${paragraphs}</article></body></html>`);
    const child = spawn(process.execPath, [bin, 'crawl', dir, '--base-url', 'https://docs.example.com/'], {env: {...process.env, CI: 'true'}});
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.doesNotMatch(stderr, /Error|\n\s+at /);
    assert.equal(code, 0, stderr);
  } finally {
    await rm(dir, {recursive: true, force: true});
  }
});
