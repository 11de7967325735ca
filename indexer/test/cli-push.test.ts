import {test} from 'node:test';
import assert from 'node:assert/strict';
import {crawl} from '../src/crawl/crawl.ts';
import {DOCSEARCH_SETTINGS} from '../src/publish/algolia/settings.ts';
import {startFakeAlgolia, type FakeAlgolia, type Fault, type Step} from './fake-algolia.ts';
import {fixture, runCli, serveFolder} from './helpers.ts';

const MINI = fixture('mini-site');
const LIVE = 'docs';
const base = (await crawl(MINI)).records;

function envFor(fake: FakeAlgolia, extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    ALGOLIA_APP_ID: fake.appId,
    ALGOLIA_ADMIN_API_KEY: fake.apiKey,
    ALGOLIA_INDEX_NAME: LIVE,
    ALGOLIA_HOSTS: fake.url,
    // Long enough for a busy machine (test files run side by side); the cases that inject a
    // timeout set a short one themselves.
    DOCS_INDEXER_TIMEOUT_MS: '1500',
    DOCS_INDEXER_RETRY_DELAY_MS: '5',
    DOCS_INDEXER_ATTEMPTS: '2',
    CI: 'true',
    ...extra,
  };
}

const SUMMARY_KEYS = ['pages', 'records', 'added', 'updated', 'deleted', 'unchanged', 'bytes', 'seconds', 'index', 'dryRun'];

test('push --json publishes the crawl and prints one summary object; a rerun sends nothing', async () => {
  const fake = await startFakeAlgolia();
  try {
    const first = await runCli(['push', MINI, '--json'], envFor(fake));
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.stderr, 'skipped https://mini.example.org/404: not-found\nskipped https://mini.example.org/docs/hidden: noindex\n');
    const summary = JSON.parse(first.stdout);
    assert.deepEqual(Object.keys(summary), SUMMARY_KEYS);
    assert.deepEqual([summary.pages, summary.records, summary.added, summary.updated, summary.deleted, summary.unchanged], [3, 11, 11, 0, 0, 0]);
    assert.equal(fake.records(LIVE).length, 11);
    const second = await runCli(['push', MINI, '--json'], envFor(fake));
    const again = JSON.parse(second.stdout);
    assert.deepEqual([again.added, again.updated, again.deleted, again.unchanged, again.bytes], [0, 0, 0, 11, 0]);
    assert.deepEqual(fake.names(), [LIVE]);
  } finally {
    await fake.close();
  }
});

test('push without --json prints a human summary; --index overrides ALGOLIA_INDEX_NAME', async () => {
  const fake = await startFakeAlgolia();
  try {
    const run = await runCli(['push', MINI, '--index', 'other'], envFor(fake));
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^published 3 pages \(11 records\) to "other": 11 added, 0 updated, 0 deleted, 0 unchanged, \d+ bytes sent in [\d.]+ s\n$/);
    assert.deepEqual(fake.names(), ['other']);
  } finally {
    await fake.close();
  }
});

test('push --dry-run lists what would change and writes nothing', async () => {
  const fake = await startFakeAlgolia();
  try {
    const old = base.slice(0, -1).map((r) => structuredClone(r));
    old.push({...structuredClone(base[1]!), objectID: 'gone', url: 'https://mini.example.org/docs/old#x'});
    fake.seed(LIVE, old, DOCSEARCH_SETTINGS);
    const run = await runCli(['push', MINI, '--dry-run'], envFor(fake));
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.trimEnd().split('\n');
    assert.match(lines[0] ?? '', /^dry run: index "docs" would get 1 added, 0 updated, 1 deleted, 10 unchanged \(3 pages, 11 records, \d+ bytes\); nothing was written$/);
    assert.deepEqual(lines.slice(1), [`  + ${base.at(-1)?.url}`, '  - https://mini.example.org/docs/old#x']);
    assert.ok(fake.log.every((e) => ['getSettings', 'browse'].includes(e.step)));
    const json = await runCli(['push', MINI, '--dry-run', '--json'], envFor(fake));
    assert.deepEqual(JSON.parse(json.stdout).changes.delete, [{objectID: 'gone', url: 'https://mini.example.org/docs/old#x'}]);
  } finally {
    await fake.close();
  }
});

test('a failing publish exits 1 with one line on stderr, the live index untouched and no temporary index', async () => {
  const cases: [Step, Fault, RegExp][] = [
    ['batch', 503, /^docs-indexer: sending records failed after 2 attempts: HTTP 503; the live index "docs" was not changed\n$/],
    ['move', 'timeout', /^docs-indexer: moving the temporary index over the live one failed after 2 attempts: timed out; the live index "docs" was not changed\n$/],
    ['copy', 'drop', /^docs-indexer: copying the live index failed after 2 attempts: connection failed; the live index "docs" was not changed\n$/],
    ['setSettings', 429, /^docs-indexer: setting the index settings failed after 2 attempts: HTTP 429 \(Too many requests\); the live index "docs" was not changed\n$/],
  ];
  for (const [step, fault, stderr] of cases) {
    const fake = await startFakeAlgolia();
    try {
      fake.seed(LIVE, base.slice(0, 5), DOCSEARCH_SETTINGS);
      fake.faults.push({step, fault});
      const run = await runCli(['push', MINI], envFor(fake, fault === 'timeout' ? {DOCS_INDEXER_TIMEOUT_MS: '300'} : {}));
      assert.deepEqual([run.code, run.stdout], [1, ''], `${step} ${fault}`);
      assert.match(run.stderr, stderr);
      assert.ok(!run.stderr.includes(fake.apiKey));
      assert.equal(fake.history(LIVE).length, 1);
      assert.deepEqual(fake.names(), [LIVE]);
      fake.faults.length = 0;
      const rerun = await runCli(['push', MINI, '--json'], envFor(fake));
      assert.equal(rerun.code, 0, rerun.stderr);
      assert.equal(fake.records(LIVE).length, base.length, 'the rerun converges');
    } finally {
      await fake.close();
    }
  }
});

test('a wrong key exits 2 and never shows the key', async () => {
  const fake = await startFakeAlgolia();
  try {
    const key = 'this-is-the-wrong-secret-key';
    const run = await runCli(['push', MINI], envFor(fake, {ALGOLIA_ADMIN_API_KEY: key}));
    assert.deepEqual([run.code, run.stdout], [2, '']);
    assert.equal(
      run.stderr,
      'docs-indexer: Algolia rejected the credentials (HTTP 403) while reading the live index settings: check ALGOLIA_APP_ID and ALGOLIA_ADMIN_API_KEY (the key needs write rights)\n',
    );
  } finally {
    await fake.close();
  }
});

test('a key padded with spaces is trimmed once and masked as used, also when a server echoes it', async () => {
  const fake = await startFakeAlgolia();
  try {
    fake.faults.push({step: 'getSettings', fault: 'echo-key'});
    const run = await runCli(['push', MINI], envFor(fake, {ALGOLIA_ADMIN_API_KEY: `  ${fake.apiKey}\t `}));
    assert.deepEqual([run.code, run.stdout], [1, '']);
    assert.equal(fake.log[0]?.status, 400, 'the trimmed key was accepted, then echoed');
    assert.equal(run.stderr, 'docs-indexer: reading the live index settings failed: HTTP 400 (Bad request for key ***); the live index "docs" was not changed\n');
  } finally {
    await fake.close();
  }
});

test('unreachable Algolia hosts exit 1 with one line', async () => {
  const run = await runCli(['push', MINI], {
    ALGOLIA_APP_ID: 'APP',
    ALGOLIA_ADMIN_API_KEY: 'secret-key-value',
    ALGOLIA_INDEX_NAME: LIVE,
    ALGOLIA_HOSTS: 'http://127.0.0.1:9',
    DOCS_INDEXER_RETRY_DELAY_MS: '1',
    DOCS_INDEXER_ATTEMPTS: '2',
  });
  assert.deepEqual([run.code, run.stdout], [1, '']);
  assert.equal(run.stderr, 'docs-indexer: reading the live index settings failed after 2 attempts: connection failed; the live index "docs" was not changed\n');
});

test('missing or invalid configuration exits 2 and names every way to supply the value', async () => {
  const full = {ALGOLIA_APP_ID: 'APP', ALGOLIA_ADMIN_API_KEY: 'secret-key-value', ALGOLIA_INDEX_NAME: LIVE};
  const cases: [Record<string, string | undefined>, string[], string][] = [
    [{...full, ALGOLIA_APP_ID: undefined}, [], 'docs-indexer: missing Algolia application ID: set ALGOLIA_APP_ID\n'],
    [{...full, ALGOLIA_ADMIN_API_KEY: ''}, [], 'docs-indexer: missing Algolia write key: set ALGOLIA_ADMIN_API_KEY (a key with write rights)\n'],
    [{...full, ALGOLIA_INDEX_NAME: undefined}, [], 'docs-indexer: missing Algolia index name: pass --index NAME or set ALGOLIA_INDEX_NAME\n'],
    [{...full, ALGOLIA_HOSTS: 'not a host'}, [], 'docs-indexer: ALGOLIA_HOSTS must be comma-separated http(s) base URLs such as http://127.0.0.1:8787 (got "not a host")\n'],
    [{...full, DOCS_INDEXER_TIMEOUT_MS: 'soon'}, [], 'docs-indexer: DOCS_INDEXER_TIMEOUT_MS must be a whole number of milliseconds from 1 to 600000 (got "soon")\n'],
    // Node would run a timer above 2^31 - 1 ms after 1 ms: every numeric setting has a range.
    [{...full, DOCS_INDEXER_TIMEOUT_MS: '99999999999'}, [], 'docs-indexer: DOCS_INDEXER_TIMEOUT_MS must be a whole number of milliseconds from 1 to 600000 (got "99999999999")\n'],
    [{...full, DOCS_INDEXER_TIMEOUT_MS: '0'}, [], 'docs-indexer: DOCS_INDEXER_TIMEOUT_MS must be a whole number of milliseconds from 1 to 600000 (got "0")\n'],
    [{...full, DOCS_INDEXER_RETRY_DELAY_MS: '3000000000'}, [], 'docs-indexer: DOCS_INDEXER_RETRY_DELAY_MS must be a whole number of milliseconds from 0 to 60000 (got "3000000000")\n'],
    [{...full, DOCS_INDEXER_ATTEMPTS: '21'}, [], 'docs-indexer: DOCS_INDEXER_ATTEMPTS must be a whole number from 1 to 20 (got "21")\n'],
    [
      {...full, ALGOLIA_HOSTS: 'http://127.0.0.1:8787/prefix/'},
      [],
      "docs-indexer: ALGOLIA_HOSTS takes base URLs without a path, query or user name, such as http://127.0.0.1:8787: the Algolia client sends every request to the host's root (got \"http://127.0.0.1:8787/prefix/\")\n",
    ],
    [
      {...full, ALGOLIA_HOSTS: 'http://127.0.0.1:8787/, https://user:pw@proxy.example'},
      [],
      "docs-indexer: ALGOLIA_HOSTS takes base URLs without a path, query or user name, such as http://127.0.0.1:8787: the Algolia client sends every request to the host's root (got \"https://***@proxy.example\")\n",
    ],
    [full, ['--concurrency', '-3'], 'docs-indexer: --concurrency must be a whole number from 1 to 64 (got "-3")\n'],
    [full, ['--frobnicate'], "docs-indexer: unknown option '--frobnicate' (see docs-indexer --help)\n"],
    // A key pasted with a line break: a configuration error before any request, the key never shown.
    [{...full, ALGOLIA_ADMIN_API_KEY: 'secret-key\r\nvalue'}, [], 'docs-indexer: ALGOLIA_ADMIN_API_KEY contains a line break or another control character: set it to the key alone\n'],
    [{...full, ALGOLIA_APP_ID: 'APP\nID'}, [], 'docs-indexer: ALGOLIA_APP_ID contains a line break or another control character: set it to the application ID alone\n'],
    [full, ['--index', '*'], 'docs-indexer: invalid Algolia index name "*" (--index or ALGOLIA_INDEX_NAME): use only letters, digits, "_", "-" and "."\n'],
    [
      {...full, ALGOLIA_INDEX_NAME: 'x'.repeat(600)},
      [],
      `docs-indexer: invalid Algolia index name "${'x'.repeat(60)}…" (--index or ALGOLIA_INDEX_NAME): it has 600 characters (at most 200)\n`,
    ],
  ];
  for (const [env, flags, stderr] of cases) {
    const run = await runCli(['push', MINI, ...flags], env);
    assert.deepEqual([run.code, run.stderr, run.stdout], [2, stderr, ''], JSON.stringify(env));
  }
  const empty = await runCli(['push', fixture('noindex'), '--base-url', 'https://x.org/'], full);
  assert.deepEqual([empty.code, empty.stderr], [2, `docs-indexer: the crawl of ${fixture('noindex')} found no pages to index: its only page was skipped (https://x.org/page: noindex)\n`]);
});

test('push URL crawls the deployed site from its sitemap (what the deploy workflow runs)', async () => {
  const fake = await startFakeAlgolia();
  const site = await serveFolder(MINI);
  try {
    const run = await runCli(['push', site.url, '--json'], envFor(fake));
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual([JSON.parse(run.stdout).pages, JSON.parse(run.stdout).records], [3, 11]);
    // Record URLs are the pages' canonical URLs, as from a folder crawl of the same build.
    assert.ok(fake.records(LIVE).every((r) => String(r.url).startsWith('https://mini.example.org/')));
  } finally {
    await site.close();
    await fake.close();
  }
});

test('Ctrl-C or SIGTERM during a publish deletes the temporary index and exits 1, live untouched', async () => {
  const {spawn} = await import('node:child_process');
  const {bin} = await import('./helpers.ts');
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    const fake = await startFakeAlgolia();
    try {
      fake.seed(LIVE, base.slice(0, 5), DOCSEARCH_SETTINGS);
      fake.faults.push({step: 'batch', fault: 'timeout'});
      const env: NodeJS.ProcessEnv = {...process.env, ...envFor(fake, {DOCS_INDEXER_TIMEOUT_MS: '1500', DOCS_INDEXER_ATTEMPTS: '5'})};
      const child = spawn(process.execPath, [bin, 'push', MINI], {env});
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
      while (!fake.log.some((e) => e.step === 'batch')) await new Promise((r) => setTimeout(r, 20));
      child.kill(signal);
      assert.equal(await closed, 1, signal);
      assert.equal(stderr, 'docs-indexer: interrupted; the live index "docs" was not changed\n', signal);
      assert.deepEqual(fake.names(), [LIVE], signal);
      assert.equal(fake.history(LIVE).length, 1, signal);
    } finally {
      await fake.close();
    }
  }
});

test('push publishes nothing from a URL crawl whose failed pages pass --max-failed (exit 1); below it, it publishes and lists them', async () => {
  const fake = await startFakeAlgolia();
  const site = await serveFolder(MINI, {fail: (p) => (p === '/docs/intro' ? 503 : undefined)});
  try {
    const env = envFor(fake, {DOCS_INDEXER_ATTEMPTS: '1'});
    const run = await runCli(['push', site.url], env);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^docs-indexer: 1 of 4 pages could not be fetched \(25%, more than --max-failed 10%\), e\.g\. https:\/\/mini\.example\.org\/docs\/intro: HTTP 503 for .*; nothing was written\n$/);
    assert.deepEqual(fake.names(), [], 'no index was written');
    const tolerant = await runCli(['push', site.url, '--max-failed', '30%'], env);
    assert.equal(tolerant.code, 0, tolerant.stderr);
    assert.match(tolerant.stderr, /^skipped https:\/\/mini\.example\.org\/docs\/hidden: noindex\nskipped https:\/\/mini\.example\.org\/docs\/intro: failed \(HTTP 503 for .*\)\n$/);
    assert.deepEqual(fake.names(), [LIVE]);
    const bad = await runCli(['push', site.url, '--max-failed', 'lots'], env);
    assert.deepEqual([bad.code, bad.stderr], [2, 'docs-indexer: --max-failed must be a percentage from 0 to 100, such as 10 or 10% (got "lots")\n']);
  } finally {
    await site.close();
    await fake.close();
  }
});
