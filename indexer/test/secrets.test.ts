/**
 * The write key is never shown (issue 36): masked before a message is cut, in every output
 * (warnings, errors, --json, progress); never sent over plain HTTP off this machine; and a
 * malformed settings answer is reported as what it is.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {Writable} from 'node:stream';
import {createProgress} from '../src/cli/progress.ts';
import {maskSecrets} from '../src/errors.ts';
import {resolvePushOptions} from '../src/cli/options.ts';
import {publishToAlgolia} from '../src/publish/algolia/publish.ts';
import {PublishError} from '../src/errors.ts';
import {crawl} from '../src/crawl/crawl.ts';
import {publishOptionsFor, startFakeAlgolia, type FakeAlgolia} from './fake-algolia.ts';
import {fixture, runCli} from './helpers.ts';

const MINI = fixture('mini-site');
const KEY = 'a9f3c1e07b5d42e8a6c3f1d09b7e5a21';
const records = (await crawl(MINI)).records;

function envFor(fake: FakeAlgolia, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ALGOLIA_APP_ID: fake.appId,
    ALGOLIA_ADMIN_API_KEY: fake.apiKey,
    ALGOLIA_INDEX_NAME: 'docs',
    ALGOLIA_HOSTS: fake.url,
    DOCS_INDEXER_TIMEOUT_MS: '300',
    DOCS_INDEXER_RETRY_DELAY_MS: '1',
    DOCS_INDEXER_ATTEMPTS: '2',
    CI: 'true',
    ...extra,
  };
}

/** Whether `text` shows 6 or more characters of the key in a row. */
function showsKey(text: string): boolean {
  for (let i = 0; i + 6 <= KEY.length; i++) if (text.includes(KEY.slice(i, i + 6))) return true;
  return false;
}

test('a key echoed by the index listing is masked in the warning line, and in --json runs too', async () => {
  const fake = await startFakeAlgolia({apiKey: KEY});
  try {
    fake.faults.push({step: 'listIndices', fault: 'echo-key'});
    for (const args of [['push', MINI], ['push', MINI, '--json']]) {
      const run = await runCli(args, envFor(fake));
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stderr, /^docs-indexer: warning: could not remove temporary indices left by earlier runs \(.*Bad request for key \*\*\*\)\)$/m);
      assert.ok(!showsKey(run.stderr + run.stdout), run.stderr);
    }
  } finally {
    await fake.close();
  }
});

test('a key echoed where the message is cut is masked before the cut: none of it is shown', async () => {
  const fake = await startFakeAlgolia({apiKey: KEY});
  try {
    for (const step of ['getSettings', 'listIndices'] as const) {
      fake.faults.splice(0, fake.faults.length, {step, fault: 'echo-key-late'});
      const run = await runCli(['push', MINI], envFor(fake));
      assert.ok(!showsKey(run.stderr + run.stdout), `${step}: ${run.stderr}`);
      assert.match(run.stderr, /key=\.*\*\*\*/, step);
    }
    // The library's events and errors are masked the same way.
    const events: string[] = [];
    fake.faults.splice(0, fake.faults.length, {step: 'getSettings', fault: 'echo-key-late'});
    await assert.rejects(
      publishToAlgolia(records, publishOptionsFor(fake, 'other', {onEvent: (event) => events.push(JSON.stringify(event))})),
      (error: Error) => !showsKey(error.message) && /\*\*\*/.test(error.message),
    );
    assert.ok(!showsKey(events.join('\n')));
  } finally {
    await fake.close();
  }
});

test('the progress line masks the key before cutting the line to 120 characters', () => {
  let text = '';
  const tty = new Writable({
    write(chunk, _encoding, callback) {
      text += String(chunk);
      callback();
    },
  });
  const progress = createProgress(true, tty, (line) => maskSecrets(line, [KEY]));
  progress.step(`publishing: check failed (HTTP 400 (${'x'.repeat(70)} key ${KEY})), retrying in 5 ms`);
  assert.ok(!showsKey(text), text);
  assert.match(text, /x+ key \*\*\*/);
});

test('maskSecrets masks the key as a URL or a JSON string carries it too', () => {
  const key = 'k/y+"secret\\value';
  const text = `a ${key} b ${encodeURIComponent(key)} c ${JSON.stringify(key)}`;
  assert.equal(maskSecrets(text, [key]), 'a *** b *** c "***"');
});

test('push refuses a plain-HTTP Algolia host that is not this machine, before any request; an opt-in variable allows a trusted proxy', async () => {
  const run = await runCli(['push', MINI], {
    ALGOLIA_APP_ID: 'APP',
    ALGOLIA_ADMIN_API_KEY: KEY,
    ALGOLIA_INDEX_NAME: 'docs',
    ALGOLIA_HOSTS: 'https://algolia.example, http://10.255.255.1:8080',
    DOCS_INDEXER_TIMEOUT_MS: '200',
    DOCS_INDEXER_ATTEMPTS: '1',
  });
  assert.deepEqual([run.code, run.stdout], [2, '']);
  assert.equal(
    run.stderr,
    'docs-indexer: ALGOLIA_HOSTS names http://10.255.255.1:8080, a plain-HTTP host that is not this machine: the write key would cross the network unencrypted ' +
      '(use https://, or set DOCS_INDEXER_ALLOW_PLAIN_HTTP=1 for a trusted plain-HTTP proxy)\n',
  );
  const env = {ALGOLIA_APP_ID: 'APP', ALGOLIA_ADMIN_API_KEY: KEY, ALGOLIA_INDEX_NAME: 'docs'};
  const allowed = resolvePushOptions({source: MINI}, {...env, ALGOLIA_HOSTS: 'http://proxy.internal:8080', DOCS_INDEXER_ALLOW_PLAIN_HTTP: '1'});
  assert.deepEqual(allowed.hosts, [{url: 'proxy.internal', port: 8080, protocol: 'http', accept: 'readWrite'}]);
  for (const host of ['http://127.0.0.1:8787', 'http://localhost:8787', 'http://[::1]:8787', 'https://algolia.example']) {
    assert.equal(resolvePushOptions({source: MINI}, {...env, ALGOLIA_HOSTS: host}).hosts?.length, 1, host);
  }
});

test('live settings answered with null are reported as a malformed answer (exit 1), not as another publish (exit 3)', async () => {
  const fake = await startFakeAlgolia({apiKey: KEY});
  try {
    fake.faults.push({step: 'getSettings', fault: 'null-body'});
    await assert.rejects(publishToAlgolia(records, publishOptionsFor(fake, 'docs')), (error: Error) => {
      assert.ok(error instanceof PublishError, String(error));
      assert.equal(
        error.message,
        'reading the live index settings failed: Algolia\'s answer is not index settings (null); the live index "docs" was not changed',
      );
      return true;
    });
    assert.deepEqual(fake.names(), []);
    const run = await runCli(['push', MINI], envFor(fake));
    assert.deepEqual([run.code, run.stderr], [1, 'docs-indexer: reading the live index settings failed: Algolia\'s answer is not index settings (null); the live index "docs" was not changed\n']);
    assert.deepEqual(fake.names(), []);
  } finally {
    await fake.close();
  }
});
