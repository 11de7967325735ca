/**
 * Opt-in: runs against a real Algolia application when ALGOLIA_APP_ID, ALGOLIA_ADMIN_API_KEY and
 * ALGOLIA_INDEX_NAME are set. It never touches that index: it writes to `<name>_indexer_test`
 * and deletes it at the end.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {algoliasearch} from 'algoliasearch';
import {crawl} from '../src/crawl/crawl.ts';
import {publishToAlgolia} from '../src/publish/algolia/publish.ts';
import {parseHosts} from '../src/cli/options.ts';
import {fixture} from './helpers.ts';

const {ALGOLIA_APP_ID: appId, ALGOLIA_ADMIN_API_KEY: apiKey, ALGOLIA_INDEX_NAME: name, ALGOLIA_HOSTS: hostsEnv} = process.env;
const skip =
  appId && apiKey && name
    ? false
    : 'live Algolia test skipped: set ALGOLIA_APP_ID, ALGOLIA_ADMIN_API_KEY and ALGOLIA_INDEX_NAME to run it (it uses <ALGOLIA_INDEX_NAME>_indexer_test and deletes it)';

test('live Algolia: first publish, converging rerun, minimal edit, then cleanup', {skip, timeout: 300_000}, async () => {
  const indexName = `${name}_indexer_test`;
  const hosts = parseHosts(hostsEnv);
  const options = {appId: appId!, apiKey: apiKey!, indexName, ...(hosts ? {hosts} : {}), retryDelayMs: 1000};
  const client = algoliasearch(appId!, apiKey!, hosts ? {hosts} : {});
  const {records} = await crawl(fixture('mini-site'));
  try {
    const first = await publishToAlgolia(records, options);
    assert.equal(first.wrote, true);
    const again = await publishToAlgolia(records, options);
    assert.deepEqual([again.wrote, again.unchanged], [false, records.length]);
    const edited = records.map((r) => structuredClone(r));
    const target = edited.find((r) => r.type === 'content')!;
    target.content = `${target.content} Edited.`;
    const third = await publishToAlgolia(edited, options);
    assert.deepEqual([third.added, third.updated, third.deleted], [0, 1, 0]);
    const stored = await client.getObject({indexName, objectID: target.objectID});
    assert.equal((stored as {content?: string}).content, target.content);
    const settings = await client.getSettings({indexName});
    assert.equal(settings.separatorsToIndex, '_');
  } finally {
    const {taskID} = await client.deleteIndex({indexName});
    await client.waitForTask({indexName, taskID}).catch(() => {});
  }
});
