import {test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdtemp, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {crawl, type CrawlEvent} from '../src/crawl/crawl.ts';
import {SourceError, UsageError} from '../src/errors.ts';
import type {SearchRecord} from 'docs-search/record';
import {fixture, serveFolder} from './helpers.ts';

const MINI = fixture('mini-site');
const pagesOf = (records: {url_without_anchor: string}[]): string[] => [...new Set(records.map((r) => r.url_without_anchor))];

test('a folder crawl indexes every page at its served URL (no .html), skipping noindex and 404', async () => {
  const events: CrawlEvent[] = [];
  const result = await crawl(MINI, {onEvent: (e) => events.push(e)});
  assert.equal(result.baseUrl, 'https://mini.example.org/');
  assert.deepEqual(pagesOf(result.records), [
    'https://mini.example.org/',
    'https://mini.example.org/docs/guide/setup',
    'https://mini.example.org/docs/intro',
  ]);
  assert.equal(result.pages, 3);
  assert.equal(result.skipped, 2);
  assert.deepEqual(events.filter((e) => e.type === 'skip').map((e) => [e.type === 'skip' && e.reason, e.type === 'skip' && e.url]).sort(), [
    ['noindex', 'https://mini.example.org/docs/hidden'],
    ['not-found', 'https://mini.example.org/404'],
  ]);
  assert.equal(events[0]?.type, 'start');
  assert.equal(events.at(-1)?.type, 'done');
  const setup = result.records.filter((r) => r.url_without_anchor.endsWith('/setup'));
  assert.deepEqual(setup.map((r) => r.content), [null, 'Setup takes two steps.', '1 · Enable the API', '2 · Call /api']);
  assert.equal(setup[0]?.hierarchy.lvl0, 'Guide');
});

test('onPage streams each page in result order; collect: false keeps no records', async () => {
  const full = await crawl(MINI);
  for (const source of [MINI]) {
    const streamed: SearchRecord[] = [];
    const result = await crawl(source, {collect: false, concurrency: 3, onPage: async (page) => {
      await new Promise((r) => setTimeout(r, page.url.length % 3));
      streamed.push(...page.records);
    }});
    assert.deepEqual(result.records, []);
    assert.equal(result.recordCount, full.records.length);
    assert.deepEqual(streamed, full.records);
  }
});

test('--base-url rebases every record URL', async () => {
  const result = await crawl(MINI, {baseUrl: 'https://preview.example.net/sub'});
  assert.deepEqual(pagesOf(result.records), [
    'https://preview.example.net/sub/',
    'https://preview.example.net/sub/docs/guide/setup',
    'https://preview.example.net/sub/docs/intro',
  ]);
  assert.ok(result.records.some((r) => r.url === 'https://preview.example.net/sub/docs/intro#next'));
});

test('the record order does not depend on concurrency', async () => {
  const one = await crawl(MINI, {concurrency: 1});
  const many = await crawl(MINI, {concurrency: 16});
  assert.deepEqual(one.records, many.records);
});

test('a URL crawl starts from sitemap.xml and uses its priority as pageRank', async () => {
  const site = await serveFolder(MINI);
  try {
    const result = await crawl(site.url);
    assert.equal(result.mode, 'sitemap');
    assert.deepEqual(pagesOf(result.records), [site.url, `${site.url}docs/guide/setup`, `${site.url}docs/intro`]);
    assert.ok(!site.requests.includes('/docs/hidden'), 'pages outside the sitemap are not fetched');
    assert.equal(result.records.find((r) => r.url_without_anchor.endsWith('/intro'))?.weight.pageRank, 8);
    const folder = await crawl(MINI, {baseUrl: site.url});
    assert.deepEqual(
      result.records.map((r) => r.objectID),
      folder.records.map((r) => r.objectID),
      'the same site gives the same records from a folder and from a URL',
    );
  } finally {
    await site.close();
  }
});

test('--base-url also rebases the records of a URL crawl', async () => {
  const site = await serveFolder(MINI);
  try {
    const result = await crawl(site.url, {baseUrl: 'https://docs.example.com/'});
    assert.deepEqual(pagesOf(result.records), ['https://docs.example.com/', 'https://docs.example.com/docs/guide/setup', 'https://docs.example.com/docs/intro']);
  } finally {
    await site.close();
  }
});

test('without a sitemap a URL crawl follows same-origin links only', async () => {
  const site = await serveFolder(MINI, {hideSitemap: true});
  try {
    const events: CrawlEvent[] = [];
    const result = await crawl(site.url, {onEvent: (e) => events.push(e)});
    assert.equal(result.mode, 'links');
    assert.deepEqual(pagesOf(result.records), [site.url, `${site.url}docs/guide/setup`, `${site.url}docs/intro`]);
    assert.ok(events.some((e) => e.type === 'skip' && e.reason === 'noindex' && e.url.endsWith('/docs/hidden')));
    assert.ok(!site.requests.some((r) => r.includes('elsewhere')));
  } finally {
    await site.close();
  }
});

test('a URL crawl retries a page that fails once, and fails when a page keeps failing', async () => {
  const flaky = await serveFolder(MINI, {fail: (p, n) => (p === '/docs/intro' && n === 1 ? 503 : p === '/docs/guide/setup' && n === 1 ? 'drop' : undefined)});
  try {
    const events: CrawlEvent[] = [];
    const result = await crawl(flaky.url, {onEvent: (e) => events.push(e)});
    assert.equal(result.pages, 3);
    assert.equal(events.filter((e) => e.type === 'retry').length, 2);
  } finally {
    await flaky.close();
  }
  const broken = await serveFolder(MINI, {fail: (p) => (p === '/docs/intro' ? 500 : undefined)});
  try {
    await assert.rejects(crawl(broken.url, {attempts: 2}), {name: 'CrawlError', message: `cannot fetch ${broken.url}docs/intro: HTTP 500 for ${broken.url}docs/intro`});
  } finally {
    await broken.close();
  }
});

test('an unreadable or empty source is a SourceError; a bad base URL is a UsageError', async () => {
  await assert.rejects(crawl(path.join(MINI, 'missing')), (e) => e instanceof SourceError && /no such folder/.test(e.message));
  const empty = await mkdtemp(path.join(tmpdir(), 'indexer-empty-'));
  await assert.rejects(crawl(empty), (e) => e instanceof SourceError && e.message === `SOURCE "${empty}" contains no HTML pages`);
  await writeFile(path.join(empty, 'only.html'), '<html><head><meta name=robots content=noindex></head><body><h1>x</h1></body></html>');
  await assert.rejects(crawl(empty, {baseUrl: 'https://x.org/'}), (e) => e instanceof SourceError && e.message === `the crawl of ${empty} found no pages to index`);
  await assert.rejects(crawl(empty), (e) => e instanceof UsageError && /pass --base-url URL/.test(e.message));
  await assert.rejects(crawl(MINI, {baseUrl: 'not a url'}), UsageError);
  await rm(empty, {recursive: true, force: true});
  await assert.rejects(crawl('http://127.0.0.1:9/', {attempts: 1}), (e) => e instanceof SourceError && /^cannot read SOURCE http:\/\/127\.0\.0\.1:9\//.test(e.message));
});
