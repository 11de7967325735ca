/**
 * Every record within Algolia's limit (issue 36): never larger than 10,000 bytes serialised (or
 * --max-record-bytes), whatever a page holds; the fields that grow are trimmed on a rule that
 * keeps objectIDs stable; a page that cannot fit is skipped with a warning naming it; push
 * checks sizes before its first request.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdir, mkdtemp, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import path from 'node:path';
import type {SearchRecord} from 'docs-search/record';
import {extractPage, extractPageDetailed} from '../src/extract/extract.ts';
import {publishToAlgolia} from '../src/publish/algolia/publish.ts';
import {UsageError} from '../src/errors.ts';
import {publishOptionsFor, startFakeAlgolia} from './fake-algolia.ts';
import {runCli} from './helpers.ts';

const URL_ = 'https://size.example/docs/page';
const SITE = {root: 'https://size.example/', base: 'https://size.example/'};
const size = (record: SearchRecord): number => Buffer.byteLength(JSON.stringify(record));
const largest = (records: SearchRecord[]): number => Math.max(...records.map(size));
const words = (n: number): string => Array.from({length: n}, (_, i) => `word${i}`).join(' ');

function doc(body: string, head = ''): string {
  return `<!doctype html><html lang=en><head><title>Page | Site</title>${head}</head><body><main><h1>Page</h1>${body}</main></body></html>`;
}

test('a heading id of 50,000 characters gives a few records of at most 10,000 bytes, not thousands', () => {
  const html = doc(`<h2 id="${'a'.repeat(50_000)}">Setup</h2><p>${words(200)}</p><h3 id="ok">Next</h3><p>More words.</p>`);
  const records = extractPage(html, {url: URL_});
  assert.ok(records.length <= 6, `${records.length} records`);
  assert.ok(largest(records) <= 10_000, `largest ${largest(records)} bytes`);
  const setup = records.find((r) => r.type === 'lvl2');
  // The anchor too long for a record is left out: the record links to the page.
  assert.deepEqual([setup?.url, setup?.anchor], [URL_, null]);
  assert.equal(records.find((r) => r.type === 'lvl3')?.url, `${URL_}#ok`);
});

test('headings full of "&" keep every record under 10,000 bytes', () => {
  const amp = '&'.repeat(499);
  const html = doc(`<h2>${amp}</h2><h3>${amp}</h3><h4>${amp}</h4><h5>${amp}</h5><h6>${amp}</h6><p>${'&amp; '.repeat(3000)}</p>`).replace(
    '<h1>Page</h1>',
    `<h1>${amp}</h1>`,
  );
  const records = extractPage(html, {url: URL_});
  assert.ok(largest(records) <= 10_000, `largest ${largest(records)} bytes`);
  const deepest = records.find((r) => r.type === 'lvl6');
  assert.match(deepest?.hierarchy.lvl6 ?? '', /^(&amp;)+…$/);
});

test('a canonical URL of 20,000 characters gives way to the routed URL; records stay under 10,000 bytes', () => {
  const canonical = `https://size.example/${'x'.repeat(20_000)}`;
  const records = extractPage(doc(`<p>${words(50)}</p>`, `<link rel=canonical href="${canonical}">`), {url: URL_, site: SITE});
  assert.ok(records.length > 0);
  assert.ok(largest(records) <= 10_000, `largest ${largest(records)} bytes`);
  assert.deepEqual([...new Set(records.map((r) => r.url_without_anchor))], [URL_]);
});

test('a version meta of 20,000 characters is cut: records stay under 10,000 bytes', () => {
  const records = extractPage(doc('<p>Text.</p>', `<meta name="docsearch:version" content="${'v'.repeat(20_000)}">`), {url: URL_});
  assert.ok(largest(records) <= 10_000, `largest ${largest(records)} bytes`);
});

test('maxRecordBytes lowers the limit; objectIDs do not depend on it or on trimming', () => {
  const html = doc(`<h2 id="long">${'Heading words '.repeat(60)}</h2><p>${words(2000)}</p><h2 id="${'b'.repeat(700)}">Short</h2><p>Text.</p>`);
  const big = extractPage(html, {url: URL_, maxRecordBytes: 100_000});
  const small = extractPage(html, {url: URL_, maxRecordBytes: 3_000});
  assert.ok(largest(small) <= 3_000, `largest ${largest(small)} bytes`);
  assert.ok(small.length > big.length, 'the text is split into more records');
  const headings = (records: SearchRecord[]): string[] => records.filter((r) => r.type !== 'content').map((r) => r.objectID);
  assert.deepEqual(headings(small), headings(big), 'heading records keep their objectIDs');
  assert.notEqual(small.find((r) => r.type === 'lvl2')?.hierarchy.lvl2, big.find((r) => r.type === 'lvl2')?.hierarchy.lvl2, 'the heading was trimmed');
});

test('a page that cannot fit is skipped as record-too-large, and the CLI names it', async () => {
  const detailed = extractPageDetailed(doc('<p>Text.</p>'), {url: `https://size.example/${'y'.repeat(1500)}`});
  assert.deepEqual([detailed.records.length, detailed.skipped], [0, 'record-too-large']);
  const dir = await mkdtemp(path.join(tmpdir(), 'indexer-record-size-'));
  try {
    const build = path.join(dir, 'build');
    const deep = path.join(build, 'docs', 'd'.repeat(200));
    await mkdir(deep, {recursive: true});
    await writeFile(path.join(build, 'index.html'), doc('<p>Home.</p>', '<link rel=canonical href="https://size.example/">'));
    await writeFile(path.join(deep, 'page.html'), doc('<p>Deep.</p>'));
    const run = await runCli(['crawl', build, '--max-record-bytes', '2000', '--out', path.join(dir, 'records.json')]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, new RegExp(`^skipped https://size\\.example/docs/${'d'.repeat(200)}/page: record-too-large$`, 'm'));
    const bad = await runCli(['crawl', build, '--max-record-bytes', '500']);
    assert.deepEqual([bad.code, bad.stderr], [2, 'docs-indexer: --max-record-bytes must be a whole number of bytes from 2000 to 100000 (got "500")\n']);
  } finally {
    await rm(dir, {recursive: true, force: true});
  }
});

test('push checks record sizes before its first request: a record over the limit sends nothing', async () => {
  const fake = await startFakeAlgolia();
  try {
    const record: SearchRecord = {
      objectID: 'big-one',
      url: URL_,
      url_without_anchor: URL_,
      anchor: null,
      type: 'content',
      hierarchy: {lvl0: 'Docs', lvl1: 'Page', lvl2: null, lvl3: null, lvl4: null, lvl5: null, lvl6: null},
      content: 'z'.repeat(12_000),
      weight: {pageRank: 0, level: 0, position: 0},
      language: 'en',
      docusaurus_tag: 'default',
    };
    await assert.rejects(publishToAlgolia([record], publishOptionsFor(fake, 'docs')), (error: Error) => {
      assert.ok(error instanceof UsageError);
      assert.match(error.message, /^record "big-one" of https:\/\/size\.example\/docs\/page is 12\d{3} bytes, more than the 10000 bytes a record may have/);
      return true;
    });
    assert.deepEqual(fake.log, []);
    // A higher limit lets it through.
    await publishToAlgolia([record], publishOptionsFor(fake, 'docs', {maxRecordBytes: 20_000}));
    assert.equal(fake.records('docs').length, 1);
  } finally {
    await fake.close();
  }
});
