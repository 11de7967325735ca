import {test} from 'node:test';
import assert from 'node:assert/strict';
import {readFile} from 'node:fs/promises';
import {LocalIndexError} from 'docs-search';
import {AuthError, ConflictError, CrawlError, OutputError, PublishError, SourceError, UsageError, errorLine, exitCodeFor, maskSecrets, toIndexerError} from '../src/errors.ts';
import {WorkerLostError} from '../src/extract/pool.ts';
import {describeError, isRetryable} from '../src/publish/algolia/publish.ts';

test('exit codes live in one place: 2 for usage, configuration and source problems, 1 for failed runs, 3 for a publish that lost a race', () => {
  assert.deepEqual(
    [new UsageError('x'), new SourceError('x'), new OutputError('x'), new AuthError('x'), new CrawlError('x'), new PublishError('x'), new ConflictError('x'), new Error('x')].map(exitCodeFor),
    [2, 2, 2, 2, 1, 1, 3, 1],
  );
});

test('an error line is one line, prefixed, with every secret masked', () => {
  const key = 'super-secret-admin-key';
  assert.equal(errorLine(new PublishError(`boom\n  with ${key} inside`), [key]), 'docs-indexer: boom with *** inside');
  assert.equal(errorLine(new TypeError('bad thing')), 'docs-indexer: unexpected error: bad thing');
  assert.equal(maskSecrets('abc', [undefined, '']), 'abc');
});

test('retry predicates: network errors, timeouts, 429 and 5xx are retried; 4xx are not', () => {
  const api = (status: number) => Object.assign(new Error('x'), {name: 'ApiError', status});
  assert.equal(isRetryable(api(429)), true);
  assert.equal(isRetryable(api(503)), true);
  assert.equal(isRetryable(api(403)), false);
  assert.equal(isRetryable(api(400)), false);
  assert.equal(isRetryable(Object.assign(new Error('Unreachable hosts'), {name: 'RetryError'})), true);
  assert.equal(isRetryable(new PublishError('x')), false);
});

test('failures are described without request details', () => {
  const retry = (response: object) => Object.assign(new Error('Unreachable hosts - your application id may be incorrect'), {name: 'RetryError', stackTrace: [{response}]});
  assert.equal(describeError(retry({status: 0, isTimedOut: true})), 'timed out');
  assert.equal(describeError(retry({status: 0, isTimedOut: false})), 'connection failed');
  assert.equal(describeError(retry({status: 502, isTimedOut: false})), 'HTTP 502');
  assert.equal(describeError(Object.assign(new Error('Index does not exist'), {status: 404})), 'HTTP 404 (Index does not exist)');
});

test('errors of other modules that a user causes become typed errors, never "unexpected error"', async () => {
  const local = toIndexerError(new LocalIndexError('site/build/x.json is not a local search index'));
  assert.ok(local instanceof SourceError);
  assert.equal(local.message, 'site/build/x.json is not a local search index');
  assert.ok(toIndexerError(new WorkerLostError('extract worker stopped (exit code 1)')) instanceof CrawlError);
  const missing = await readFile('/nonexistent/records.json').catch((error: unknown) => error);
  assert.equal(errorLine(missing), 'docs-indexer: cannot open /nonexistent/records.json: no such file or folder (ENOENT)');
  assert.equal(exitCodeFor(missing), 2);
  // A defect stays visible as one: a plain Error is not dressed up as a user's mistake.
  assert.equal(toIndexerError(new RangeError('no page 3 in the store')), undefined);
});

test('the one masking function takes the secrets, or an environment holding them', () => {
  const env = {ALGOLIA_ADMIN_API_KEY: 'admin-key-123456', ALGOLIA_SEARCH_API_KEY: 'search-key-98765', HOME: '/home/x'};
  assert.equal(maskSecrets('a admin-key-123456 b search-key-98765 c /home/x', env), 'a *** b *** c /home/x');
  assert.equal(errorLine(new PublishError('401 for admin-key-123456'), env), 'docs-indexer: 401 for ***');
});
